import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { reads, writes } from '../../access/index.js';
import { serviceContext } from '../../plugins/service-context.js';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['Notifications'];

/** The calling person's in-app notifications (to-dos, urges, copies, mentions). Above applications: no Appid needed. */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/notifications', {
    config: { access: reads('user:me') },
    schema: { tags, summary: "The caller's notifications, newest first, with the unread count", querystring: schemas.ListQuery, response: responses(schemas.NotificationPage) },
    handler: async (request) => ok(await service.listNotifications(serviceContext(request), request.query)),
  });

  app.post('/notifications/read', {
    config: { access: writes('user:me') },
    schema: { tags, summary: 'Mark notifications read: some by id, or all', body: schemas.ReadBody, response: responses(schemas.ReadResult) },
    handler: async (request) => ok(await service.markNotificationsRead(serviceContext(request), request.body)),
  });

  app.get('/notifications/settings', {
    config: { access: reads('user:me') },
    schema: { tags, summary: "The caller's notification settings: whether their notifications are mailed to them", response: responses(schemas.Settings) },
    handler: async (request) => ok(await service.notificationSettings(serviceContext(request))),
  });

  app.patch('/notifications/settings', {
    config: { access: writes('user:me') },
    schema: { tags, summary: "Change the caller's notification settings: mail false stops their notification mail", body: schemas.SettingsBody, response: responses(schemas.Settings) },
    handler: async (request) => ok(await service.editNotificationSettings(serviceContext(request), request.body)),
  });
};
