import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient, MAX_ANSWER_BYTES } from '../../../src/workflow/http-client.js';
import { HttpFailure } from '../../../src/workflow/node-ports.js';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/slow') return; // never answers
    if (request.url === '/drip') {
      response.writeHead(200);
      response.write('first part');
      return; // never ends
    }
    if (request.url === '/big') {
      response.writeHead(200).end('x'.repeat(MAX_ANSWER_BYTES + 5000));
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => response.writeHead(201, { 'x-echo': request.headers['x-in'] ?? '' }).end(`${request.method} ${body}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const failureOf = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as HttpFailure);

describe('workflow HTTP client', () => {
  it('sends the method, headers and body and reads the answer, with private targets allowed', async () => {
    expect(await httpClient(true).request({ method: 'PUT', url: `${base}/echo`, headers: { 'x-in': 'hi' }, body: 'payload', timeoutMs: 2000 })).toMatchObject({ status: 201, headers: { 'x-echo': 'hi' }, body: 'PUT payload' });
  });

  it('refuses loopback by address and by name without the setting, before sending anything', async () => {
    const byAddress = await failureOf(httpClient(false).request({ method: 'GET', url: `${base}/echo`, headers: {}, timeoutMs: 2000 }));
    expect([byAddress?.refused, byAddress?.message]).toEqual([true, `${base} is 127.0.0.1, a private or local address, which workflow HTTP requests may not reach (HTTP_REQUEST_PRIVATE=true allows it)`]);
    const byName = await failureOf(httpClient(false).request({ method: 'GET', url: base.replace('127.0.0.1', 'localhost'), headers: {}, timeoutMs: 2000 }));
    expect([byName?.refused, byName?.message]).toEqual([true, expect.stringMatching(/^localhost resolves to (127\.0\.0\.1|::1), a private or local address/)]);
    const notHttp = await failureOf(httpClient(true).request({ method: 'GET', url: 'file:///etc/passwd', headers: {}, timeoutMs: 2000 }));
    expect([notHttp?.refused, notHttp?.message]).toEqual([true, 'only http and https URLs can be requested, got file:']);
  });

  it('gives up within the timeout on a server that does not answer, or that drips its answer; a failure that may pass', async () => {
    const slow = await failureOf(httpClient(true).request({ method: 'GET', url: `${base}/slow`, headers: {}, timeoutMs: 150 }));
    expect([slow?.refused, slow?.message]).toEqual([false, `no answer from ${base} within 150 ms`]);
    const drip = await failureOf(httpClient(true).request({ method: 'GET', url: `${base}/drip`, headers: {}, timeoutMs: 150 }));
    expect(drip?.refused).toBe(false);
  });

  it('keeps at most MAX_ANSWER_BYTES of an answer', async () => {
    const answer = await httpClient(true).request({ method: 'GET', url: `${base}/big`, headers: {}, timeoutMs: 5000 });
    expect(answer.body.length).toBe(MAX_ANSWER_BYTES);
  });
});
