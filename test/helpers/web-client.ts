import type { FastifyInstance } from 'fastify';

export interface PageResponse {
  status: number;
  body: string;
  headers: Record<string, unknown>;
  /** The cookies this response set, with their attributes. */
  cookies: Array<{ name: string; value: string; path?: string; httpOnly?: boolean; secure?: boolean; sameSite?: string; maxAge?: number; expires?: Date }>;
  location: string | undefined;
}

/** The CSRF token of the (first) form of a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF field in the page:\n${html.slice(0, 400)}`);
  return match[1];
}

/** The text of the page's alert (the error message), if any. */
export function alertOf(html: string): string | undefined {
  const text = /role="alert"[^>]*>([^<]*)</.exec(html)?.[1];
  return text?.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * A browser over `inject`: keeps the cookies it is given (and drops those cleared), sends forms
 * url-encoded, and follows nothing by itself, so tests see every redirect.
 * @example const web = new WebClient(app); const form = await web.get('/sign-in'); await web.post('/sign-in', { _csrf: csrfOf(form.body), … })
 */
export class WebClient {
  readonly jar = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '127.0.0.1',
  ) {}

  private cookieHeader(): string | undefined {
    return this.jar.size === 0 ? undefined : [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(method: 'GET' | 'POST', url: string, form?: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<PageResponse> {
    const body = form === undefined ? undefined : new URLSearchParams(Object.entries(form).flatMap(([key, value]) => (Array.isArray(value) ? value.map((v): [string, string] => [key, v]) : [[key, value] as [string, string]]))).toString();
    const cookie = this.cookieHeader();
    const response = await this.app.inject({
      method,
      url,
      remoteAddress: this.ip,
      headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...headers },
      payload: body,
    });
    const cookies = response.cookies as PageResponse['cookies'];
    for (const set of cookies) {
      if (set.value === '' || set.maxAge === 0 || (set.expires && set.expires.getTime() <= Date.now())) this.jar.delete(set.name);
      else this.jar.set(set.name, set.value);
    }
    return { status: response.statusCode, body: response.body, headers: response.headers, cookies, location: response.headers.location as string | undefined };
  }

  get(url: string): Promise<PageResponse> {
    return this.request('GET', url);
  }

  post(url: string, form: Record<string, string | string[]>): Promise<PageResponse> {
    return this.request('POST', url, form);
  }

  /** Opens `pageUrl` and posts `form` to `action` with the page's CSRF token, as a person would. */
  async submit(pageUrl: string, action: string, form: Record<string, string | string[]>): Promise<PageResponse> {
    const page = await this.get(pageUrl);
    return this.post(action, { _csrf: csrfOf(page.body), ...form });
  }

  async signIn(email: string, password: string, next?: string): Promise<PageResponse> {
    return this.submit('/sign-in', '/sign-in', { email, password, ...(next === undefined ? {} : { next }) });
  }
}
