import type { Executor } from '../../db/connection.js';
import { inTransaction } from '../../db/transaction.js';
import { readFileItems, type PendingUpload } from '../../fields/types/attachment.js';
import { containsText } from '../../query/index.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { newObjectId, newRowId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { checkReferencesExist, deleteFilesOfOwner, emptyReferenceSet, forgetUploads, insertFileRows, removeUnreferenced, visibleLiveIds, callerScope, uploadFiles } from '../records/index.js';
import { loadSchema, type WorksheetSchema } from '../worksheets/index.js';
import { notify } from '../notifications/index.js';
import { mentionedIds } from './mentions.js';
import { mayDeleteDiscussion } from './permissions.js';
import { presentDiscussions } from './presenter.js';
import * as repository from './repository.js';
import { forbidden, requireWorksheetRight, rowsFor, worksheetGrant } from '../../access/index.js';

/** Longest message, in characters. */
export const MAX_MESSAGE_LENGTH = 10_000;

/** How much of a message a mention's notification shows. */
const MENTION_EXCERPT = 200;

export interface ListInput {
  pageIndex?: number;
  pageSize?: number;
  search?: string;
  onlyWithAttachments?: boolean;
}

export interface PostInput {
  message: string;
  replyToId?: string | null;
  mentions?: unknown[];
  attachments?: unknown;
}

/** The `field_id` of a discussion's files in `files`. */
export function fileOwnerOf(discussionId: string): string {
  return `discussion:${discussionId}`;
}

/** The record, which must be live and readable by the caller (10007 as `GET rows/{id}` answers otherwise). */
async function liveRecord(db: Executor, ctx: ServiceContext, schema: WorksheetSchema, rowId: string): Promise<repository.RecordRef> {
  requireWorksheetRight(ctx.actor, schema, 'read');
  if (!worksheetGrant(ctx.actor, schema.id).actions.discuss) throw forbidden(ctx.actor, `you may not discuss records of the worksheet "${schema.name}"`);
  if (!(await visibleLiveIds(db, schema.table, [rowId], rowsFor(ctx.actor, callerScope(ctx, schema), 'read'))).has(rowId)) throw AppError.notFound(`record "${rowId}" does not exist or was deleted`);
  return { worksheetId: schema.id, rowId };
}

/** The message, trimmed: required, at most MAX_MESSAGE_LENGTH characters (10002 naming `message`). */
function checkMessage(message: string): string {
  const text = message.trim();
  if (text === '') throw AppError.invalidValue('message: must not be empty');
  const length = text.length > MAX_MESSAGE_LENGTH ? [...text].length : text.length;
  if (length > MAX_MESSAGE_LENGTH) throw AppError.invalidValue(`message: at most ${MAX_MESSAGE_LENGTH} characters, got ${length}`);
  return text;
}

/** The files to upload with a discussion: new files only, at most as many as a record's field may hold (100007). */
function uploadsOf(ctx: ServiceContext, attachments: unknown): PendingUpload[] {
  if (attachments === undefined || attachments === null) return [];
  const edit = readFileItems(attachments, 'attachments', 'replace');
  if (edit.keep.length > 0) throw AppError.invalidValue('attachments: a discussion takes new files as {name, url}, not the id of a file');
  const most = ctx.files.limits.perRecord;
  if (edit.uploads.length > most) throw new AppError(ErrorCode.AttachmentLimitExceeded, 400, `attachments: a discussion holds at most ${most} files, got ${edit.uploads.length}`);
  return edit.uploads;
}

/** The discussion replied to, which must be one of the same record's (10002 naming `replyToId`). */
async function replyTarget(db: Executor, record: repository.RecordRef, replyToId: string | null | undefined): Promise<repository.DiscussionRow | null> {
  if (replyToId === undefined || replyToId === null || replyToId === '') return null;
  const target = await repository.findDiscussion(db, record, replyToId);
  if (!target) throw AppError.invalidValue(`replyToId: no discussion "${replyToId.slice(0, 60)}" on this record`);
  return target;
}

/**
 * A page of a record's discussions, newest first: `{discussions, total}`. `search` keeps those whose
 * message contains the text (case-insensitively), `onlyWithAttachments` those with files.
 */
export async function listDiscussions(ctx: ServiceContext, worksheetKey: string, rowId: string, input: ListInput) {
  const schema = await loadSchema(ctx, worksheetKey);
  const search = input.search?.trim() ?? '';
  const filter: repository.DiscussionFilter = {
    message: search === '' ? null : containsText(ctx.dialect, repository.MESSAGE, search, 'search'),
    onlyWithAttachments: input.onlyWithAttachments === true,
  };
  const record = await liveRecord(ctx.db, ctx, schema, rowId);
  const pageSize = input.pageSize ?? 20;
  const { rows, total } = await repository.listDiscussions(ctx.db, record, filter, pageSize, ((input.pageIndex ?? 1) - 1) * pageSize);
  return { discussions: await presentDiscussions(ctx, rows), total };
}

/**
 * Posts a discussion on a live record: the message, whom it mentions (in the text and in
 * `mentions`; each a member of the organization), the discussion it replies to, and files put
 * through the file store (fetched and checked before the transaction; removed again if it fails).
 */
export async function postDiscussion(ctx: ServiceContext, worksheetKey: string, rowId: string, input: PostInput): Promise<{ id: string }> {
  const schema = await loadSchema(ctx, worksheetKey);
  const message = checkMessage(input.message);
  const mentions = mentionedIds(message, input.mentions);
  const uploads = uploadsOf(ctx, input.attachments);
  const record = await liveRecord(ctx.db, ctx, schema, rowId);
  const replyTo = await replyTarget(ctx.db, record, input.replyToId);
  const refs = emptyReferenceSet();
  for (const id of mentions) refs.account.add(id);
  await checkReferencesExist(ctx.db, ctx.actor.organizationId, refs, 'mentions: ');
  const id = newRowId();
  const uploaded = await uploadFiles(ctx, schema.appId, uploads.map((upload) => ({ upload, label: `attachments file "${upload.name}"` })));
  const files = uploads.map((upload) => ({ id: newObjectId(), stored: uploaded.get(upload)! }));
  await inTransaction(ctx.db, async (trx) => {
    // The record may have been deleted while the files were fetched.
    await liveRecord(trx, ctx, schema, rowId);
    await repository.insertDiscussion(trx, {
      id,
      app_id: schema.appId,
      worksheet_id: schema.id,
      row_id: rowId,
      message,
      reply_to_id: replyTo?.id ?? null,
      reply_to_author: replyTo?.created_by ?? null,
      mentions: JSON.stringify(mentions),
      attachments: JSON.stringify(files.map((file) => file.id)),
      created_by: ctx.actor.accountId,
      created_at: ctx.now(),
    });
    await insertFileRows(trx, ctx, { appId: schema.appId, worksheetId: schema.id, fieldId: fileOwnerOf(id), rowId }, files);
    await notify(trx, {
      accountIds: mentions.filter((accountId) => accountId !== ctx.actor.accountId),
      kind: 'mention',
      title: `You were mentioned in a discussion of "${schema.name}"`,
      body: message.length > MENTION_EXCERPT ? `${message.slice(0, MENTION_EXCERPT)}…` : message,
      link: `/v3/app/worksheets/${schema.id}/rows/${rowId}/discussions`,
      appId: schema.appId,
      at: ctx.now(),
    }, { mail: ctx.notificationMail });
  }).catch(async (error: unknown) => {
    await forgetUploads(ctx, uploaded);
    throw error;
  });
  return { id };
}

/**
 * Deletes a discussion of a live record, by its author or an administrator (10005 otherwise), with
 * its files (their bytes leave the store after commit unless something else refers to them).
 * Replies to it keep their `replyToId` and `replyToAuthor`.
 */
export async function deleteDiscussion(ctx: ServiceContext, worksheetKey: string, rowId: string, discussionId: string): Promise<void> {
  const schema = await loadSchema(ctx, worksheetKey);
  const record = await liveRecord(ctx.db, ctx, schema, rowId);
  const discussion = await repository.findDiscussion(ctx.db, record, discussionId);
  if (!discussion) throw AppError.notFound(`discussion "${discussionId}" does not exist on record "${rowId}"`);
  if (!mayDeleteDiscussion(ctx.actor, discussion.created_by)) throw AppError.permissionDenied('only the author of a discussion or an administrator may delete it');
  const removedKeys = await inTransaction(ctx.db, async (trx) => {
    await repository.deleteDiscussion(trx, discussion.id);
    return deleteFilesOfOwner(trx, rowId, fileOwnerOf(discussion.id));
  });
  await removeUnreferenced(ctx, removedKeys);
}
