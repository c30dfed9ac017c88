// Which probe targets are acceptable: an absolute http(s) URL without embedded credentials
// (a credential goes in the separate header so it can be redacted). Which addresses it may
// lead to is address-policy.ts (`probe_target_forbidden`).

export class ProbeTargetError extends Error {
  constructor(
    readonly code: 'invalid_probe_url' | 'probe_target_forbidden',
    message: string,
  ) {
    super(message);
    this.name = 'ProbeTargetError';
  }
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers the probe itself speaks; a credential must not override them. */
const RESERVED = new Set([
  'host',
  'accept',
  'last-event-id',
  'mcp-session-id',
  'mcp-previous-session',
  'connection',
  'upgrade',
  'content-length',
]);

export function parseProbeUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProbeTargetError(
      'invalid_probe_url',
      `"${raw}" is not an absolute URL; give the MCP endpoint, e.g. https://mcp.example.com/mcp`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProbeTargetError('invalid_probe_url', `the probe URL must be http or https, not ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new ProbeTargetError(
      'invalid_probe_url',
      'put credentials in the credential header, not in the URL (they would not be redacted)',
    );
  }
  url.hash = '';
  return url;
}

export function checkCredentialHeader(name: string): void {
  if (!HEADER_NAME.test(name) || RESERVED.has(name.toLowerCase())) {
    throw new ProbeTargetError(
      'invalid_probe_url',
      `"${name}" cannot be the credential header (not a header name, or one the probe sets itself)`,
    );
  }
}
