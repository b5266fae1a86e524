import { ErrorCode } from '../../src/shared/error-codes.js';

/**
 * What every response must be, whatever was sent: not a 5xx, and exactly the envelope
 * `{success, error_code, error_msg, data}` with a code of the interface; on failure `data` is
 * null. Returns what is wrong, or an empty list.
 */

const KNOWN_CODES: ReadonlySet<number> = new Set(Object.values(ErrorCode));
const ENVELOPE_KEYS = ['data', 'error_code', 'error_msg', 'success'];
/** What the OAuth endpoints' refusals add to the envelope, so that standard OAuth clients read them (RFC 6749 §5.2). */
const OAUTH_KEYS = ['error', 'error_description'];

/** `oauth`: the OAuth endpoints, whose refusals also carry the RFC's `error` and `error_description`. */
export function envelopeProblems(status: number, body: string, oauth = false): string[] {
  const problems: string[] = [];
  if (status >= 500) problems.push(`HTTP ${status}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [...problems, 'the body is not JSON'];
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [...problems, 'the body is not a JSON object'];
  const envelope = parsed as Record<string, unknown>;
  const keys = Object.keys(envelope)
    .filter((key) => !(oauth && envelope.success === false && OAUTH_KEYS.includes(key)))
    .sort();
  if (JSON.stringify(keys) !== JSON.stringify(ENVELOPE_KEYS)) problems.push(`the keys are ${JSON.stringify(keys)}, not the envelope's`);
  if (typeof envelope.success !== 'boolean') problems.push('success is not a boolean');
  if (typeof envelope.error_code !== 'number') problems.push('error_code is not a number');
  if (typeof envelope.error_msg !== 'string') problems.push('error_msg is not a string');
  if (envelope.success === true) {
    if (envelope.error_code !== ErrorCode.Success) problems.push(`success with error_code ${String(envelope.error_code)}`);
    if (status !== 200) problems.push(`success with HTTP ${status}`);
  } else if (envelope.success === false) {
    if (envelope.data !== null) problems.push('a failure with data that is not null');
    if (typeof envelope.error_code === 'number' && (!KNOWN_CODES.has(envelope.error_code) || envelope.error_code === ErrorCode.Success)) {
      problems.push(`error_code ${envelope.error_code} is not a failure code of src/shared/error-codes.ts`);
    }
    if (status < 400) problems.push(`a failure with HTTP ${status}`);
  }
  return problems;
}
