import { Type } from '@sinclair/typebox';
import { LenientBoolean } from '../../shared/wire-schemas.js';

/** Wire schemas of the notification endpoints. */

export const ListQuery = Type.Object({
  pageIndex: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
  unreadOnly: Type.Optional(LenientBoolean({ description: 'Only unread notifications (default false)', default: false })),
});

export const Notification = Type.Object({
  id: Type.String(),
  kind: Type.String({ description: 'todo, urge, cc, returned, deadline, mention…' }),
  title: Type.String(),
  body: Type.String(),
  link: Type.String({ description: 'An API path to what it is about' }),
  appId: Type.Union([Type.String(), Type.Null()]),
  read: Type.Boolean(),
  readAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});

export const NotificationPage = Type.Object({ notifications: Type.Array(Notification), total: Type.Integer(), unread: Type.Integer({ description: 'Unread notifications in all' }) });

export const ReadBody = Type.Object({
  ids: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { description: 'The notifications to mark read (at most 1,000)' })),
  all: Type.Optional(LenientBoolean({ description: 'Mark every notification read' })),
});

export const ReadResult = Type.Object({ updated: Type.Integer(), unread: Type.Integer() });

export const Settings = Type.Object({
  mail: Type.Boolean({ description: 'Whether your notifications are also mailed to you (default true)' }),
  mailAvailable: Type.Boolean({ description: 'Whether this server mails notifications at all (SMTP_URL is set, NOTIFY_MAIL is not false)' }),
});

export const SettingsBody = Type.Object({
  mail: Type.Optional(LenientBoolean({ description: 'false: stop mailing your notifications to you; true: mail them again' })),
});
