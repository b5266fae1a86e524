import { Type } from '@sinclair/typebox';
import { LenientBoolean } from '../../shared/wire-schemas.js';

/** Wire schemas of the discussion endpoints. */

export const RowParams = Type.Object({ worksheet_id: Type.String({ description: 'Worksheet id or alias' }), row_id: Type.String({ description: 'Record id' }) });
export const DiscussionParams = Type.Object({ worksheet_id: Type.String(), row_id: Type.String(), discussion_id: Type.String({ description: 'Discussion id' }) });

export const ListQuery = Type.Object({
  pageIndex: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
  search: Type.Optional(Type.String({ description: 'Only discussions whose message contains this text (case-insensitive)' })),
  onlyWithAttachments: Type.Optional(LenientBoolean({ description: 'Only discussions with files (default false)', default: false })),
});

export const PostBody = Type.Object({
  message: Type.String({ description: 'The text, at most 10,000 characters; `@[name](accountId)` mentions a member' }),
  replyToId: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'A discussion of the same record this one answers' })),
  mentions: Type.Optional(Type.Array(Type.Unknown(), { description: 'accountIds (or {accountId}) of members to mention, besides those in the text' })),
  attachments: Type.Optional(Type.Unknown({ description: 'Files as an Attachment value takes them: [{name, url}] with an http(s) or data: URL' })),
});

const User = Type.Object({ accountId: Type.String(), fullname: Type.String(), avatar: Type.String() });

const DiscussionFile = Type.Object({
  id: Type.String({ description: 'The file id (GET /v3/app/files/{id})' }),
  originalFilename: Type.String(),
  ext: Type.String({ description: 'The extension of the name with its dot (".pdf"), or ""' }),
  filesize: Type.Integer({ description: 'Bytes' }),
  mimeType: Type.String(),
  downloadUrl: Type.String({ description: 'A signed link, valid for at least DOWNLOAD_LINK_TTL seconds' }),
});

export const Discussion = Type.Object({
  id: Type.String(),
  message: Type.String(),
  _createdAt: Type.String(),
  _createdBy: User,
  replyToId: Type.Union([Type.String(), Type.Null()]),
  replyToAuthor: Type.Union([User, Type.Null()]),
  mentions: Type.Array(User),
  attachments: Type.Array(DiscussionFile),
});

export const DiscussionPage = Type.Object({ discussions: Type.Array(Discussion), total: Type.Integer() });
