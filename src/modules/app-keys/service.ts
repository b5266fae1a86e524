import type { Executor } from '../../db/connection.js';
import { computeSign, hashSign } from '../../auth/sign.js';
import { newAppKey, newObjectId, newSecret } from '../../shared/ids.js';
import { AppError } from '../../shared/app-error.js';
import { ipRangeProblem } from '../../access/index.js';

export interface IssuedKey {
  appKey: string;
  secretKey: string;
  sign: string;
}

/**
 * The stored form of an address allowlist (a JSON array), after checking every entry; null (any
 * address) for null. An empty list is refused: a key no address may use is a key to delete.
 * @example storedAllowlist(['10.0.0.0/8', '::1']) === '["10.0.0.0/8","::1"]'
 */
function storedAllowlist(entries: readonly string[] | null): string | null {
  if (entries === null) return null;
  if (entries.length === 0) throw AppError.invalidValue('an IP allowlist needs at least one address or CIDR range (or none at all, for any address)');
  const trimmed = entries.map((entry) => entry.trim());
  for (const entry of trimmed) {
    const problem = ipRangeProblem(entry);
    if (problem) throw AppError.invalidValue(problem);
  }
  return JSON.stringify([...new Set(trimmed)]);
}

/**
 * Issues a key for an application, usable from any address or only from `allowedIps` (addresses
 * and CIDR ranges). Only a hash of the Sign is stored: the secret and the Sign are shown once,
 * here, and cannot be read back.
 */
export async function issueKey(db: Executor, appId: string, readOnly: boolean, now: number, allowedIps: readonly string[] | null = null): Promise<IssuedKey> {
  const allowed = storedAllowlist(allowedIps);
  const appKey = newAppKey();
  const secretKey = newSecret();
  const sign = computeSign(appKey, secretKey);
  await db
    .insertInto('app_keys')
    .values({ id: newObjectId(), app_id: appId, app_key: appKey, sign_hash: hashSign(sign), read_only: readOnly ? 1 : 0, created_at: now, allowed_ips: allowed })
    .execute();
  return { appKey, secretKey, sign };
}

/** The first key of an application (by creation), without secrets. */
export async function firstKeyOf(db: Executor, appId: string): Promise<string | undefined> {
  const row = await db.selectFrom('app_keys').select('app_key').where('app_id', '=', appId).orderBy('created_at').orderBy('id').executeTakeFirst();
  return row?.app_key;
}

/**
 * Restricts a key to addresses and CIDR ranges, or lets any address use it again (null). Servers
 * that have the key cached see the change within 30 seconds.
 * @example await setKeyAllowlist(db, 'a1b2c3d4e5f60718', ['203.0.113.0/24'])
 */
export async function setKeyAllowlist(db: Executor, appKey: string, allowedIps: readonly string[] | null): Promise<{ appKey: string; allowedIps: string[] | null }> {
  const allowed = storedAllowlist(allowedIps);
  const result = await db.updateTable('app_keys').set({ allowed_ips: allowed }).where('app_key', '=', appKey).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw AppError.notFound(`no app key "${appKey}"`);
  return { appKey, allowedIps: allowed === null ? null : (JSON.parse(allowed) as string[]) };
}

/** A custom key's rights in one worksheet. */
export interface KeyWorksheet {
  id: string;
  read: boolean;
  add: boolean;
  edit: boolean;
  delete: boolean;
  /** The views the key reads through (the public per-view `canRead`); left out: every record. */
  views?: string[];
}

const KEY_RIGHTS = ['read', 'add', 'edit', 'delete'] as const;

/**
 * A custom key's worksheets from `ID` (reading), `ID:read+add+edit+delete` and, for a key that
 * reads through views, `ID[:rights]@VIEW,VIEW` entries, each checked (a worksheet of the key's
 * application, known rights; 10002 naming the entry).
 * @example parseKeyWorksheets(['ws1', 'ws2:read+edit', 'ws3:read@view1,view2'])
 */
export function parseKeyWorksheets(entries: readonly string[]): Array<{ id: string; rights: Set<string>; views: string[] }> {
  if (entries.length === 0) throw AppError.invalidValue('worksheets: name at least one worksheet (or none at all, for every worksheet)');
  return entries.map((entry) => {
    const [worksheet, viewList] = entry.split('@', 2);
    const [id, rights = 'read'] = worksheet.split(':', 2).map((part) => part.trim());
    const named = new Set(rights.split('+').map((r) => r.trim().toLowerCase()));
    const unknown = [...named].find((r) => !(KEY_RIGHTS as readonly string[]).includes(r));
    const views = viewList === undefined ? [] : [...new Set(viewList.split(',').map((v) => v.trim()))];
    if (!id || unknown !== undefined || views.includes('')) throw AppError.invalidValue(`worksheets: "${entry.slice(0, 120)}" is not ID, ID:read+add+edit+delete or ID:rights@VIEW,VIEW`);
    return { id, rights: named, views };
  });
}

/**
 * Makes a key custom (the public type 10): it reaches only the listed worksheets, with their rights
 * (changing a record needs reading it too: every listed worksheet is readable); null: every
 * worksheet again. Running servers see the change within 30 s (the key cache).
 */
export async function setKeyWorksheets(db: Executor, appKey: string, entries: readonly string[] | null): Promise<{ appKey: string; worksheets: KeyWorksheet[] | null }> {
  const key = await db.selectFrom('app_keys').select(['id', 'app_id']).where('app_key', '=', appKey.trim()).executeTakeFirst();
  if (!key) throw AppError.notFound(`no app key "${appKey.slice(0, 40)}"`);
  let worksheets: KeyWorksheet[] | null = null;
  if (entries !== null) {
    const parsed = parseKeyWorksheets(entries);
    const known = new Set((await db.selectFrom('worksheets').select('id').where('app_id', '=', key.app_id).execute()).map((w) => w.id));
    const stranger = parsed.find((p) => !known.has(p.id));
    if (stranger) throw AppError.invalidValue(`worksheets: no worksheet "${stranger.id.slice(0, 80)}" in the key's application`);
    const viewsOf = (await db.selectFrom('views').select(['id', 'worksheet_id']).where('worksheet_id', 'in', parsed.map((p) => p.id)).execute()).map((v) => `${v.worksheet_id}/${v.id}`);
    for (const p of parsed) {
      const missing = p.views.find((v) => !viewsOf.includes(`${p.id}/${v}`));
      if (missing !== undefined) throw AppError.invalidValue(`worksheets: no view "${missing.slice(0, 80)}" in the worksheet "${p.id.slice(0, 80)}"`);
    }
    worksheets = parsed.map((p) => ({ id: p.id, read: true, add: p.rights.has('add'), edit: p.rights.has('edit'), delete: p.rights.has('delete'), ...(p.views.length > 0 ? { views: p.views } : {}) }));
  }
  await db.updateTable('app_keys').set({ worksheet_permissions: worksheets === null ? null : JSON.stringify(worksheets) }).where('id', '=', key.id).execute();
  return { appKey: appKey.trim(), worksheets };
}
