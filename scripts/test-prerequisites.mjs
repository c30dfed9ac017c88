// What npm test needs beyond `npm install`, checked up front so a missing piece is a clear
// message instead of a confusing failure (or a silently skipped suite).
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function checkPrerequisites(needs) {
  const problems = [];
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) problems.push(`Node.js >= 20.19 is required (found ${process.versions.node})`);
  if (needs.has('chromium') && !existsSync(CHROMIUM_PATH)) {
    problems.push(`browser tests need Chromium at ${CHROMIUM_PATH} (Debian: apt-get install chromium; or set CHROMIUM_PATH)`);
  }
  return problems;
}
