import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Schemas shared by every route: the envelope, and the lenient inputs of ARCHITECTURE.md §2.
 */

/** The success envelope around `data`. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({
    success: Type.Boolean(),
    error_code: Type.Integer({ description: '1 on success' }),
    error_msg: Type.String(),
    data,
  });
}

/** The failure envelope (documented once for every route). */
export const FailureEnvelope = Type.Object({
  success: Type.Literal(false),
  error_code: Type.Integer({ description: 'An error code of the interface, e.g. 10001' }),
  error_msg: Type.String(),
  data: Type.Null(),
});

/** A success envelope with no data. */
export const EmptyEnvelope = Envelope(Type.Null());

/**
 * A boolean that also accepts "true"/"True"/"false", 1/0 and "1"/"0" (real clients differ);
 * the `x-lenient-boolean` keyword turns it into a boolean before the handler runs.
 */
export function LenientBoolean(options: { description?: string; default?: boolean } = {}) {
  return Type.Unsafe<boolean>({ 'x-lenient-boolean': true, ...options });
}

/** The standard responses of a route whose data is `data`. */
export function responses<T extends TSchema>(data: T) {
  return { 200: Envelope(data), '4xx': FailureEnvelope, '5xx': FailureEnvelope };
}
