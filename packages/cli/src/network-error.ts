// Why a request got no answer, in words: fetch reports it as a TypeError whose `cause` carries the
// system error code (ECONNREFUSED, ENOTFOUND, …) or as an abort when our own deadline passed.

const CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing listens there)',
  ENOTFOUND: 'the host name does not resolve (DNS)',
  EAI_AGAIN: 'the host name could not be resolved now (DNS)',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
};

export function describeNetworkError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `no answer within ${Math.round(timeoutMs / 1000)} s (timeout)`;
  }
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  const code = cause?.code;
  if (code && CAUSES[code]) return `${CAUSES[code]} (${code})`;
  if (code) return code;
  return cause?.message ?? (err instanceof Error ? err.message : String(err));
}
