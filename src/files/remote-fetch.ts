import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { guardedLookup, RefusedAddress, refusedLiteral } from '../shared/address-guard.js';

/** What fetching an attachment URL may do. */
export interface FetchRules {
  timeoutMs: number;
  maxBytes: number;
  /** Whether private, loopback, link-local (and other non-public) addresses may be fetched. */
  allowPrivate: boolean;
  /** The setting `maxBytes` comes from, named in the refusal (`KNOWLEDGE_DOCUMENT_MAX_SIZE`); absent: the attachments' own. */
  limitName?: string;
}

const MOST_REDIRECTS = 3;

/**
 * Fetches an http(s) URL for an attachment: at most `maxBytes`, within `timeoutMs` in all, at most
 * three redirects. Private and local addresses are refused unless `allowPrivate`, by the rule of
 * `shared/address-guard.ts`. Every failure is a 10002 that names `label` and the URL.
 */
export async function fetchRemote(url: string, rules: FetchRules, label: string): Promise<{ bytes: Buffer; contentType: string | undefined }> {
  const deadline = Date.now() + rules.timeoutMs;
  let current = url;
  for (let redirects = 0; ; redirects++) {
    const response = await open(current, rules, deadline, label);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      if (redirects >= MOST_REDIRECTS) throw AppError.invalidValue(`${label}: ${url} redirects more than ${MOST_REDIRECTS} times`);
      current = new URL(response.headers.location, current).toString();
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw AppError.invalidValue(`${label}: fetching ${url} answered HTTP ${status}`);
    }
    // A declared length over the limit is refused before a byte of the body is read.
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > rules.maxBytes) {
      response.destroy();
      throw tooLarge(rules, url, label, `: its Content-Length is ${declared}`);
    }
    return { bytes: await body(response, rules, url, label), contentType: response.headers['content-type'] };
  }
}

function open(url: string, rules: FetchRules, deadline: number, label: string): Promise<IncomingMessage> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw AppError.invalidValue(`${label}: "${url.slice(0, 200)}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw AppError.invalidValue(`${label}: only http(s) and data: URLs can be attached, got ${parsed.protocol}`);
  const literal = refusedLiteral(parsed, rules.allowPrivate);
  if (literal !== null) {
    throw AppError.invalidValue(`${label}: ${url} resolves to ${literal}, a private or local address, which attachments may not be fetched from`);
  }
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw AppError.invalidValue(`${label}: fetching ${url} took longer than ${rules.timeoutMs} ms`);
  const send = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(parsed, { method: 'GET', lookup: guardedLookup(rules.allowPrivate) as never, timeout: remaining, headers: { 'user-agent': 'Tabularium attachment fetch' } }, resolve);
    request.setTimeout(remaining, () => request.destroy(new Error('timeout')));
    request.on('error', (error) => {
      if (error instanceof RefusedAddress) reject(AppError.invalidValue(`${label}: ${url} resolves to ${error.address}, a private or local address, which attachments may not be fetched from`));
      else reject(AppError.invalidValue(`${label}: fetching ${url} failed: ${error.message === 'timeout' ? `no answer within ${rules.timeoutMs} ms` : error.message}`));
    });
    request.end();
  });
}

/** 100007 with HTTP 400, as every file over a limit is answered; `declared` says what the server announced. */
function tooLarge(rules: FetchRules, url: string, label: string, declared: string): AppError {
  const limit = rules.limitName ? `document may have (${rules.limitName})` : 'file may have';
  return new AppError(ErrorCode.AttachmentLimitExceeded, 400, `${label}: ${url} is larger than the ${rules.maxBytes} bytes a ${limit}${declared}`);
}

function body(response: IncomingMessage, rules: FetchRules, url: string, label: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > rules.maxBytes) {
        response.destroy();
        reject(tooLarge(rules, url, label, ''));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', (error) => reject(AppError.invalidValue(`${label}: reading ${url} failed: ${error.message}`)));
  });
}
