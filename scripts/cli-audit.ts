// Who the audit log names for a change made with `npm run server` or `npm run operator`: the CLI
// and the system user running it (the CLI has no operator token: it holds the database itself).
import { userInfo } from 'node:os';
import type { AuditContext } from '@/lib/store/audit-log';

export function cliAudit(): AuditContext {
  let user = 'unknown user';
  try {
    user = userInfo().username;
  } catch {
    // A container user without a passwd entry: still audited, as the CLI.
  }
  return { actor: { kind: 'cli', name: `cli (${user})`, id: null }, requestId: null };
}
