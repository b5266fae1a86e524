import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup, RefusedAddress, refusedLiteral } from '../shared/address-guard.js';
import { HttpFailure, type HttpAnswer, type HttpPort } from './node-ports.js';

/** The most of an answer's body a node sees; the rest is not read. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

const REFUSAL = 'a private or local address, which workflow HTTP requests may not reach (HTTP_REQUEST_PRIVATE=true allows it)';

/**
 * Workflow HTTP requests: http(s) only, redirects not followed (the 3xx is the answer), private and
 * loopback targets refused by the attachment fetcher's rule (`shared/address-guard.ts`) unless
 * `allowPrivate` (`HTTP_REQUEST_PRIVATE`).
 * @example await httpClient(false).request({ method: 'POST', url: 'https://hooks.example.com/x', headers: {}, body: '{}', timeoutMs: 5000 })
 */
export function httpClient(allowPrivate: boolean): HttpPort {
  return {
    request(exchange) {
      let url: URL;
      try {
        url = new URL(exchange.url);
      } catch {
        return Promise.reject(new HttpFailure(`"${exchange.url.slice(0, 200)}" is not a URL`, true));
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new HttpFailure(`only http and https URLs can be requested, got ${url.protocol}`, true));
      const literal = refusedLiteral(url, allowPrivate);
      if (literal !== null) return Promise.reject(new HttpFailure(`${url.origin} is ${literal}, ${REFUSAL}`, true));
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      return new Promise<HttpAnswer>((resolve, reject) => {
        const request = send(url, { method: exchange.method, headers: { 'user-agent': 'Tabularium workflow', ...exchange.headers }, lookup: guardedLookup(allowPrivate) as never }, (response) => {
          readAnswer(response).then(resolve, reject);
        });
        // The whole exchange, answer included, ends within the timeout: a server that drips its answer is cut off too.
        const timer = setTimeout(() => request.destroy(new Error('timeout')), exchange.timeoutMs);
        request.on('close', () => clearTimeout(timer));
        request.on('error', (error) => {
          if (error instanceof RefusedAddress) reject(new HttpFailure(`${url.hostname} resolves to ${error.address}, ${REFUSAL}`, true));
          else reject(new HttpFailure(error.message === 'timeout' ? `no answer from ${url.origin} within ${exchange.timeoutMs} ms` : `${url.origin}: ${error.message}`, false));
        });
        request.end(exchange.body);
      });
    },
  };
}

function readAnswer(response: IncomingMessage): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value ?? '')]));
    const done = () => resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
    response.on('data', (chunk: Buffer) => {
      if (size >= MAX_ANSWER_BYTES) return;
      chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - size));
      size += chunk.length;
      if (size >= MAX_ANSWER_BYTES) {
        done();
        response.destroy();
      }
    });
    response.on('end', done);
    response.on('error', (error) => reject(new HttpFailure(error.message === 'timeout' ? 'the answer took longer than the timeout' : `reading the answer failed: ${error.message}`, false)));
    response.on('aborted', () => reject(new HttpFailure('the answer was cut off (it took longer than the timeout)', false)));
  });
}
