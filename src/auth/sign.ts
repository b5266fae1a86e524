import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The static Sign of an app key: Base64 of the lowercase hex SHA-256 of
 * `AppKey={appKey}&SecretKey={secretKey}` (88 characters).
 * @example computeSign('0123456789abcdef', 's3cret').length === 88
 */
export function computeSign(appKey: string, secretKey: string): string {
  const hex = createHash('sha256').update(`AppKey=${appKey}&SecretKey=${secretKey}`).digest('hex');
  return Buffer.from(hex, 'utf8').toString('base64');
}

/** What is stored instead of the Sign: its SHA-256, hex. */
export function hashSign(sign: string): string {
  return createHash('sha256').update(sign).digest('hex');
}

/** Compares a presented Sign with a stored hash in constant time. */
export function signMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSign(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
