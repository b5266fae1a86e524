import { Type } from '@sinclair/typebox';

/** Wire schemas of the share-link endpoints. */

export const RowParams = Type.Object({ worksheet_id: Type.String({ description: 'Worksheet id or alias' }), row_id: Type.String({ description: 'Record id' }) });
export const LinkParams = Type.Object({ worksheet_id: Type.String(), row_id: Type.String(), id: Type.String({ description: 'Share link id (from the list)' }) });

export const CreateBody = Type.Object({
  visibleFields: Type.Optional(Type.Array(Type.String(), { maxItems: 1000, description: 'Field ids or aliases the page shows; absent or empty: every field' })),
  expiredIn: Type.Optional(Type.Integer({ description: 'Seconds the link works for; absent or 0: no expiry' })),
  validTime: Type.Optional(Type.String({ description: 'V2 style: works until "YYYY-MM-DD HH:mm:ss" in TIME_ZONE; empty: no expiry' })),
  password: Type.Optional(Type.String({ description: 'Viewers must give it; empty: none' })),
});

export const CreatedLink = Type.Object({
  url: Type.String({ description: 'PUBLIC_URL/share/records/{token}; the token is shown only here' }),
  id: Type.String(),
  expiresAt: Type.Union([Type.String(), Type.Null()]),
});

export const ShareLinkItem = Type.Object({
  id: Type.String(),
  visibleFields: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'Field ids; null: every field' }),
  hasPassword: Type.Boolean(),
  expiresAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  createdBy: Type.String({ description: 'Account id of the creator (user-api for app keys)' }),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
  state: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
});

export const LinkList = Type.Object({ links: Type.Array(ShareLinkItem) });
