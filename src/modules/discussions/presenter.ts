import type { ResolvedReferences } from '../../fields/field-type.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { emptyReferenceSet, resolveReferences } from '../records/index.js';
import * as repository from './repository.js';

/** A member as a discussion shows it (the public service's user object). */
function user(id: string, refs: ResolvedReferences) {
  const account = refs.accounts.get(id);
  return { accountId: id, fullname: account?.fullname ?? '', avatar: account?.avatar ?? '' };
}

/** The extension of a file name with its dot (`.pdf`), or `""` when it has none. */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot) : '';
}

/**
 * Discussions as the wire shows them: authors and mentioned members with their names (one query
 * for the page), files with signed download links.
 */
export async function presentDiscussions(ctx: ServiceContext, rows: repository.DiscussionRow[]) {
  const refs = emptyReferenceSet();
  const parsed = rows.map((row) => ({ row, mentions: JSON.parse(row.mentions) as string[], fileIds: JSON.parse(row.attachments) as string[] }));
  for (const { row, mentions } of parsed) {
    refs.account.add(row.created_by);
    if (row.reply_to_author) refs.account.add(row.reply_to_author);
    for (const id of mentions) refs.account.add(id);
  }
  const [resolved, files] = await Promise.all([resolveReferences(ctx.db, refs), repository.filesByIds(ctx.db, parsed.flatMap((p) => p.fileIds))]);
  const byId = new Map(files.map((file) => [file.id, file]));
  const now = ctx.now();
  return parsed.map(({ row, mentions, fileIds }) => ({
    id: row.id,
    message: row.message,
    _createdAt: new Date(row.created_at).toISOString(),
    _createdBy: user(row.created_by, resolved),
    replyToId: row.reply_to_id,
    replyToAuthor: row.reply_to_author === null ? null : user(row.reply_to_author, resolved),
    mentions: mentions.map((id) => user(id, resolved)),
    attachments: fileIds.flatMap((id) => {
      const file = byId.get(id);
      if (!file) return [];
      return [{ id, originalFilename: file.name, ext: extensionOf(file.name), filesize: file.size, mimeType: file.mime_type, downloadUrl: ctx.files.links.linkFor(id, now) }];
    }),
  }));
}
