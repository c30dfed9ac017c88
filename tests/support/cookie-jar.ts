// A browser's cookies, as far as the single sign-on tests need them: per host (not port, as browsers
// do), each with its Path; Max-Age=0 removes. Redirects are followed by hand with `browse`, so each
// hop's Set-Cookie lands here before the next request.
interface StoredCookie {
  value: string;
  path: string;
}

export class CookieJar {
  private readonly hosts = new Map<string, Map<string, StoredCookie>>();

  store(url: string, res: Response): void {
    const host = new URL(url).hostname;
    const jar = this.hosts.get(host) ?? new Map<string, StoredCookie>();
    this.hosts.set(host, jar);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((p) => p.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const attr = (n: string) => attrs.find((a) => a.toLowerCase().startsWith(`${n}=`))?.slice(n.length + 1);
      const path = attr('path') ?? '/';
      const expires = attr('expires');
      if (attr('max-age') === '0' || (expires !== undefined && Date.parse(expires) <= Date.now())) jar.delete(name);
      else jar.set(name, { value: pair.slice(eq + 1), path });
    }
  }

  header(url: string): string {
    const u = new URL(url);
    const out: string[] = [];
    for (const [name, c] of this.hosts.get(u.hostname) ?? []) if (u.pathname.startsWith(c.path)) out.push(`${name}=${c.value}`);
    return out.join('; ');
  }

  get(host: string, name: string): string | undefined {
    return this.hosts.get(host)?.get(name)?.value;
  }

  /** GET with this jar's cookies, no redirect followed; the answer's cookies are kept. */
  async browse(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header(url);
    if (cookie) headers.set('cookie', cookie);
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(url, res);
    return res;
  }
}
