// The one HTTP helper of the integration tests: a request to the app with the auth a test names
// (bearer token, session cookie, origin), a JSON body, and the answer read whole: status,
// headers, text and the body parsed as JSON when it is JSON (else the text).
export interface CallOptions {
  method?: string;
  /** Sent as `authorization: Bearer <token>` when given. */
  token?: string;
  cookie?: string;
  origin?: string;
  /** An object is sent as JSON (with its content-type); a string as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  redirect?: RequestRedirect;
}

interface CallAnswer {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: any;
  text: string;
}

export async function call(baseUrl: string, path: string, o: CallOptions = {}): Promise<CallAnswer> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.cookie) headers.cookie = o.cookie;
  if (o.origin) headers.origin = o.origin;
  const json = o.body !== undefined && typeof o.body !== 'string';
  if (json) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method: o.method ?? 'GET',
    headers,
    body: o.body === undefined ? undefined : json ? JSON.stringify(o.body) : (o.body as string),
    redirect: o.redirect ?? 'follow',
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: the text */
  }
  return { status: res.status, headers: res.headers, body, text };
}
