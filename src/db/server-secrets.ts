import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MetaSchema } from './schema.js';

/**
 * A named 32-byte key the server keeps in `server_secrets`: made on first use, then the same for
 * every process and across restarts (a second process that races to make it keeps the first one).
 * @example const key = await serverSecret(db, 'download-links');
 */
export async function serverSecret(db: Kysely<MetaSchema>, name: string): Promise<Buffer> {
  await db.insertInto('server_secrets').values({ name, value: randomBytes(32).toString('hex') }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'hex');
}
