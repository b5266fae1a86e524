import { expect } from 'vitest';

/**
 * What `promise` rejects with, checked to be an instance of `type` when one is given; the test
 * fails when it resolves. Lets a test assert on every property of an error, not only its message.
 * @example const error = await rejectionOf(embedder.embed(['a']), EmbedderError); expect(error.transient).toBe(true);
 */
export async function rejectionOf<T = unknown>(promise: Promise<unknown>, type?: abstract new (...args: never[]) => T): Promise<T> {
  const outcome = await promise.then(
    () => ({ rejected: false as const, reason: undefined }),
    (reason: unknown) => ({ rejected: true as const, reason }),
  );
  expect(outcome.rejected, 'expected the promise to reject').toBe(true);
  if (type) expect(outcome.reason).toBeInstanceOf(type);
  return outcome.reason as T;
}
