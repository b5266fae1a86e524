import type { SetupResult } from './server-process.js';

/** The request headers every bench request carries: the app key and sign of the set-up app. */
export function authHeaders(setup: SetupResult): Record<string, string> {
  return { 'content-type': 'application/json', 'SVC-Appkey': setup.app.appKey, 'SVC-Sign': setup.app.sign };
}

function withoutContentType(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'content-type'));
}

/** Plain calls for preparing and checking, outside the timed runs; any failure stops the bench. */
export class Api {
  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string>,
  ) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: body === undefined ? withoutContentType(this.headers) : this.headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const envelope = JSON.parse(text) as { success?: boolean; data?: T };
    if (!response.ok || envelope.success !== true) throw new Error(`${method} ${path} failed with HTTP ${response.status}: ${text.slice(0, 500)}`);
    return envelope.data as T;
  }
}
