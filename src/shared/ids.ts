import { randomBytes, randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

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

/** A time-ordered GUID (UUIDv7) for records, so that inserts append to the primary-key index. */
export function newRowId(): string {
  return uuidv7();
}

/** 16 hex characters, the shape of a V3 AppKey. */
export function newAppKey(): string {
  return randomBytes(8).toString('hex');
}

/** 32 hex characters of secret. */
export function newSecret(): string {
  return randomBytes(16).toString('hex');
}
