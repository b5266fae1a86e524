import type { Executor } from '../../db/connection.js';
import { computeSign, hashSign } from '../../auth/sign.js';
import { newAppKey, newObjectId, newSecret } from '../../shared/ids.js';

export interface IssuedKey {
  appKey: string;
  secretKey: string;
  sign: string;
}

/**
 * Issues a key for an application. Only a hash of the Sign is stored: the secret and the Sign
 * are shown once, here, and cannot be read back.
 */
export async function issueKey(db: Executor, appId: string, readOnly: boolean, now: number): Promise<IssuedKey> {
  const appKey = newAppKey();
  const secretKey = newSecret();
  const sign = computeSign(appKey, secretKey);
  await db
    .insertInto('app_keys')
    .values({ id: newObjectId(), app_id: appId, app_key: appKey, sign_hash: hashSign(sign), read_only: readOnly ? 1 : 0, created_at: now })
    .execute();
  return { appKey, secretKey, sign };
}

/** The first key of an application (by creation), without secrets. */
export async function firstKeyOf(db: Executor, appId: string): Promise<string | undefined> {
  const row = await db.selectFrom('app_keys').select('app_key').where('app_id', '=', appId).orderBy('created_at').orderBy('id').executeTakeFirst();
  return row?.app_key;
}
