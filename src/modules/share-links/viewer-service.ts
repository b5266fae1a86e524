import { AppError } from '../../shared/app-error.js';
import type { Actor } from '../../shared/actor.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { loadSchema } from '../worksheets/index.js';
import { getRecord, readableFields } from '../records/index.js';
import { verifyPassword } from '../people/index.js';
import type { PasswordAttempts } from './password-attempts.js';
import { isTimeZone, textForPeople, type SharedField, type SharedRecordView } from './record-view.js';
import * as repository from './repository.js';
import { organizationOfApp } from '../apps/index.js';
import { looksLikeToken, tokenHash, type SharePasses } from './token.js';
import { systemActor } from '../../access/index.js';

/** What the share page keeps across requests in this process: how passes are signed, and the wrong-password counts. */
export interface ShareViewerKeys {
  passes: SharePasses;
  attempts: PasswordAttempts;
}

export interface OpenInput {
  token: string;
  /** A password given now (the form, or the X-Share-Password header). */
  password?: string;
  /** The pass cookie, proof of an earlier right password. */
  pass?: string;
  /** The client's address: wrong passwords are counted per link and address. */
  client: string;
  /** `?tz=`: the zone to show date-times in, else TIME_ZONE. */
  timeZone?: string;
}

/** Why a link no longer shows its record. */
export type GoneReason = 'expired' | 'revoked' | 'deleted';

/** What opening a share link comes to; the page and the JSON answer are made from it. */
export type Opened =
  | { state: 'open'; view: SharedRecordView; linkId: string; expiresAt: number | null; issuedPass?: string }
  | { state: 'password'; wrong: boolean }
  | { state: 'limited'; retryAfterSeconds: number }
  | { state: 'gone'; reason: GoneReason }
  | { state: 'unknown' }
  | { state: 'bad-zone'; zone: string };

/** The share viewer acts within the link's application, reading only, as no account. */
function viewerOf(link: repository.ShareLinkRow, organizationId: string): Actor {
  return systemActor({ job: `share-link:${link.id}`, appId: link.app_id, organizationId, accountId: 'user-undefined', writes: false });
}

/** The visible fields of the link's record, or null when the record (or its worksheet, or application) is gone. */
async function readShared(ctx: ServiceContext, link: repository.ShareLinkRow, timeZone: string): Promise<SharedRecordView | null> {
  const organizationId = await organizationOfApp(ctx.db, link.app_id);
  if (organizationId === undefined) return null;
  const viewer: ServiceContext = { ...ctx, actor: viewerOf(link, organizationId), profile: 'spec' };
  let record: { fields: Array<{ id: string; value: unknown }> };
  try {
    record = (await getRecord(viewer, link.worksheet_id, link.row_id)) as typeof record;
  } catch (error) {
    // A record in the recycle bin or gone, or its worksheet deleted: the link shows nothing.
    if (error instanceof AppError && error.httpStatus === 404) return null;
    throw error;
  }
  const schema = await loadSchema(viewer, link.worksheet_id);
  const values = new Map(record.fields.map((f) => [f.id, f.value]));
  const readable = new Map(readableFields(schema, null).map((f) => [f.id, f]));
  const chosen = link.visible_fields === null ? [...readable.keys()] : (JSON.parse(link.visible_fields) as string[]);
  // Fields removed since the link was made are simply not shown.
  const fields = chosen.flatMap((id) => readable.get(id) ?? []);
  const shown: SharedField[] = fields.map((field) => {
    const value = values.get(field.id) ?? null;
    return { id: field.id, name: field.name, type: field.type, value, ...textForPeople(field, value, timeZone) };
  });
  const title = shown.find((f) => readable.get(f.id)?.isTitle)?.text ?? null;
  return { worksheet: schema.name, title, timeZone, expiresAt: link.expires_at === null ? null : new Date(link.expires_at).toISOString(), fields: shown };
}

/**
 * Opens a share link: unknown, revoked, expired or showing a deleted record; or asking for its
 * password (wrong ones counted per link and client, and refused for a while after too many); or
 * open, with the visible fields formatted for people in the viewer's zone. A right password
 * issues a pass (for a cookie) so the viewer stays in.
 * @example await openSharedRecord(ctx, keys, { token, client: '203.0.113.9', timeZone: 'Europe/Berlin' })
 */
export async function openSharedRecord(ctx: ServiceContext, keys: ShareViewerKeys, input: OpenInput): Promise<Opened> {
  const zone = input.timeZone?.trim() || ctx.timeZone;
  if (!isTimeZone(zone)) return { state: 'bad-zone', zone };
  const link = looksLikeToken(input.token) ? await repository.findByTokenHash(ctx.db, tokenHash(input.token)) : undefined;
  if (!link) return { state: 'unknown' };
  if (link.revoked_at !== null) return { state: 'gone', reason: 'revoked' };
  const now = ctx.now();
  if (link.expires_at !== null && link.expires_at <= now) return { state: 'gone', reason: 'expired' };
  const view = await readShared(ctx, link, zone);
  if (!view) return { state: 'gone', reason: 'deleted' };
  const opened = { state: 'open' as const, view, linkId: link.id, expiresAt: link.expires_at };
  if (link.password_hash === null || keys.passes.holds(link.id, input.pass)) return opened;
  if (!input.password) return { state: 'password', wrong: false };
  const counted = `${link.id} ${input.client}`;
  const wait = keys.attempts.waitMs(counted, now);
  if (wait > 0) return { state: 'limited', retryAfterSeconds: Math.ceil(wait / 1000) };
  if (!(await verifyPassword(input.password, link.password_hash))) {
    keys.attempts.fail(counted, now);
    return { state: 'password', wrong: true };
  }
  keys.attempts.succeed(counted);
  return { ...opened, issuedPass: keys.passes.issue(link.id) };
}
