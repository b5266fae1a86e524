import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { describeApi } from '../helpers/api-harness.js';
import { sendRaw } from '../helpers/raw-http.js';

const ENVELOPE_KEYS = ['data', 'error_code', 'error_msg', 'success'];

/** The failure envelope with 10001, whatever refused the request. */
function expectMalformedEnvelope(body: unknown): void {
  expect(Object.keys(body as object).sort()).toEqual(ENVELOPE_KEYS);
  expect(body).toMatchObject({ success: false, error_code: 10001, data: null });
}

describeApi('refusals before a route is found answer the envelope', (ctx) => {
  let port: number;
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await ctx.app.close();
  });

  it('bad percent-encoding in a path (FST_ERR_BAD_URL): HTTP 400, 10001', async () => {
    const response = await ctx.call('GET', '/v3/app/worksheets/%E0%A4%A');
    expect(response.status).toBe(400);
    expectMalformedEnvelope(response.body);
    expect(response.body.error_msg).toContain('percent-encoded');
  });

  it('a path parameter over the limit (FST_ERR_MAX_PARAM_LENGTH): HTTP 414, 10001; real ids and aliases fit', async () => {
    const tooLong = await ctx.call('GET', `/v3/app/worksheets/${'a'.repeat(257)}`);
    expect(tooLong.status).toBe(414);
    expectMalformedEnvelope(tooLong.body);
    // 101 characters was over Fastify's default limit of 100; it is now simply an unknown worksheet.
    const long = await ctx.call('GET', `/v3/app/worksheets/${'a'.repeat(101)}`);
    expect(long.status).toBe(404);
    expect(long.body.error_code).toBe(430022);
  });

  it('headers over the size limit: HTTP 431 and the envelope', async () => {
    const response = await sendRaw(port, `GET /v3/app HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`);
    expect(response.status).toBe(431);
    expectMalformedEnvelope(response.body);
  });

  it('a malformed request line: HTTP 400 and the envelope', async () => {
    const response = await sendRaw(port, 'GARBAGE\r\n\r\n');
    expect(response.status).toBe(400);
    expectMalformedEnvelope(response.body);
  });

  it('a malformed chunk size: HTTP 400 and the envelope', async () => {
    const response = await sendRaw(
      port,
      'POST /v3/app/worksheets/list HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    );
    expect(response.status).toBe(400);
    expectMalformedEnvelope(response.body);
  });

  it('a duplicate Content-Length: HTTP 400 and the envelope', async () => {
    const response = await sendRaw(
      port,
      'POST /v3/app/worksheets/list HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    );
    expect(response.status).toBe(400);
    expectMalformedEnvelope(response.body);
  });

  it('a known path with another method: HTTP 405 with Allow, and the envelope', async () => {
    const response = await ctx.call('PUT', '/v3/app');
    expect(response.status).toBe(405);
    expectMalformedEnvelope(response.body);
    expect(response.headers.allow).toBe('GET, POST, DELETE');
    const sections = await ctx.call('DELETE', '/v3/app/sections/batch');
    expect(sections.status).toBe(405);
    expect(sections.headers.allow).toBe('POST');
  });

  it('an unknown path: HTTP 404 and the envelope', async () => {
    const response = await sendRaw(port, 'GET /v3/nothing/here HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(response.status).toBe(404);
    expectMalformedEnvelope(response.body);
  });
});
