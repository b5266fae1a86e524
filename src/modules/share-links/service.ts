import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { parseDateTime } from '../../fields/types/date-time.js';
import { loadSchema, type WorksheetSchema } from '../worksheets/index.js';
import { getRecord, projection } from '../records/index.js';
import { hashPassword } from '../people/index.js';
import * as repository from './repository.js';
import { newShareToken, tokenHash } from './token.js';
import { forbidden, requireWorksheetRight, worksheetGrant } from '../../access/index.js';

/** The longest expiry a link may have: 100 years, in seconds. */
const MAX_EXPIRED_IN = 100 * 365 * 86_400;
const MAX_PASSWORD = 256;

export interface CreateLinkInput {
  visibleFields?: string[];
  expiredIn?: number;
  validTime?: string;
  password?: string;
}

/** Where the link expires (epoch ms), or null: `expiredIn` seconds from now, or the V2 `validTime`. */
function expiryOf(input: CreateLinkInput, now: number, timeZone: string): number | null {
  const seconds = input.expiredIn ?? 0;
  if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > MAX_EXPIRED_IN) {
    throw AppError.invalidValue(`expiredIn: must be a whole number of seconds from 0 (no expiry) to ${MAX_EXPIRED_IN}, got ${seconds}`);
  }
  const validTime = input.validTime?.trim() ?? '';
  if (seconds > 0 && validTime !== '') throw AppError.invalidParameters('send expiredIn or validTime, not both');
  if (seconds > 0) return now + seconds * 1000;
  if (validTime === '') return null;
  const until = parseDateTime(validTime, timeZone);
  if (until === undefined) throw AppError.invalidValue(`validTime: expected "YYYY-MM-DD HH:mm:ss", got "${validTime.slice(0, 60)}"`);
  if (until <= now) throw AppError.invalidValue(`validTime: "${validTime}" (${timeZone}) has already passed`);
  return until;
}

const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString());

/**
 * Makes a share link of a live record: the token is returned once, inside `url`, and stored only
 * as its SHA-256; visible fields are checked and stored as ids.
 * @example await createLink(ctx, 'orders', rowId, { visibleFields: ['title'], expiredIn: 7200 }, 'https://t.example')
 */
/** Sharing records of a worksheet needs the share action (roles' `share`); reading them too, checked with the record. */
function requireSharing(ctx: ServiceContext, schema: WorksheetSchema): void {
  requireWorksheetRight(ctx.actor, schema, 'read');
  if (!worksheetGrant(ctx.actor, schema.id).actions.share) throw forbidden(ctx.actor, `you may not share records of the worksheet "${schema.name}"`);
}

export async function createLink(ctx: ServiceContext, worksheetKey: string, rowId: string, input: CreateLinkInput, publicUrl: string) {
  const schema = await loadSchema(ctx, worksheetKey);
  requireSharing(ctx, schema);
  const hidden = worksheetGrant(ctx.actor, schema.id).hiddenFields;
  // A link shows no more than its maker sees: without a list, the fields they see.
  const visible = projection(schema, input.visibleFields, 'visibleFields', hidden) ?? (hidden.size > 0 ? schema.fields.filter((f) => !hidden.has(f.id)) : null);
  const now = ctx.now();
  const expiresAt = expiryOf(input, now, ctx.timeZone);
  const password = input.password ?? '';
  if (password.length > MAX_PASSWORD) throw AppError.invalidValue(`password: at most ${MAX_PASSWORD} characters`);
  // The record must be live, answered as GET rows/{id} answers (10007).
  await getRecord(ctx, schema.id, rowId);
  const token = newShareToken();
  const id = newObjectId();
  await repository.insertLink(ctx.db, {
    id,
    app_id: schema.appId,
    worksheet_id: schema.id,
    row_id: rowId,
    token_hash: tokenHash(token),
    visible_fields: visible === null ? null : JSON.stringify(visible.map((f) => f.id)),
    password_hash: password === '' ? null : await hashPassword(password),
    expires_at: expiresAt,
    created_by: ctx.actor.accountId,
    created_at: now,
    revoked_at: null,
  });
  return { url: `${publicUrl}/share/records/${token}`, id, expiresAt: iso(expiresAt) };
}

/** The links of a record, revoked and expired ones included (with their state), oldest first. The token is never shown again. */
export async function listLinks(ctx: ServiceContext, worksheetKey: string, rowId: string) {
  const schema = await loadSchema(ctx, worksheetKey);
  requireSharing(ctx, schema);
  await getRecord(ctx, schema.id, rowId);
  const now = ctx.now();
  const rows = await repository.linksOfRow(ctx.db, schema.id, rowId);
  return {
    links: rows.map((row) => ({
      id: row.id,
      visibleFields: row.visible_fields === null ? null : (JSON.parse(row.visible_fields) as string[]),
      hasPassword: row.password_hash !== null,
      expiresAt: iso(row.expires_at),
      createdAt: iso(row.created_at)!,
      createdBy: row.created_by,
      revokedAt: iso(row.revoked_at),
      state: row.revoked_at !== null ? ('revoked' as const) : row.expires_at !== null && row.expires_at <= now ? ('expired' as const) : ('active' as const),
    })),
  };
}

/** Revokes a link of the record: it stops working at once; revoking it again changes nothing. 10007 for an unknown id. */
export async function revokeLink(ctx: ServiceContext, worksheetKey: string, rowId: string, linkId: string): Promise<void> {
  const schema = await loadSchema(ctx, worksheetKey);
  requireSharing(ctx, schema);
  if (!(await repository.revokeLink(ctx.db, schema.id, rowId, linkId, ctx.now()))) {
    throw AppError.notFound(`share link "${linkId}" of record "${rowId}" does not exist`);
  }
}
