import { randomBytes, randomUUID } from 'node:crypto';

/**
 * Ids are opaque strings. Their shapes follow what V3 clients see from the public service:
 * 24-hex for structure (worksheets, fields, sections, items, views), GUIDs for apps and rows.
 */

/** 24 hex characters: 4 bytes of seconds, then 8 random bytes (time-ordered like an ObjectId). */
export function newObjectId(): string {
  const time = Math.floor(Date.now() / 1000).toString(16).padStart(8, '0');
  return time + randomBytes(8).toString('hex');
}

/** A random GUID, for apps, accounts, organizations, option keys. */
export function newGuid(): string {
  return randomUUID();
}

/**
 * A time-ordered GUID (UUIDv7, RFC 9562) for records, so that inserts append to the primary-key
 * index: 48 bits of Unix milliseconds, then the version, then random bits. Built on
 * `crypto.randomUUID()` (whose random bits come from a pooled buffer, ten times faster than
 * fresh random bytes per id): its first 48 bits become the time and its version digit a 7; the
 * variant bits are already right. Ids made within one millisecond are not ordered among
 * themselves; a batch is inserted in one statement, so this does not spread the index.
 */
export function newRowId(): string {
  const random = randomUUID();
  const time = Date.now().toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}

/** 16 hex characters, the shape of a V3 AppKey. */
export function newAppKey(): string {
  return randomBytes(8).toString('hex');
}

/** 32 hex characters of secret. */
export function newSecret(): string {
  return randomBytes(16).toString('hex');
}
