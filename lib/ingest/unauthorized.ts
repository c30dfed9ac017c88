// The one 401 ingest answers. The sender learns only that verification failed (a precise reason
// would help an attacker probe names and secrets); the reason is kept for operators.
import { ApiError } from '@/lib/http/api-error';
import type { TRejectionReason } from '@/lib/contract/api/rejections';

export class Unauthorized extends ApiError {
  constructor(
    readonly reason: TRejectionReason,
    readonly skewMs: number | null = null,
  ) {
    super(
      401,
      'unauthorized',
      'signature verification failed: check the server name, its whsec_ secret, and the sender clock (webhook-timestamp within 5 minutes)',
    );
  }
}
