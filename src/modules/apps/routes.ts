import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { serviceContext } from '../../plugins/service-context.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { administersRoute, reads } from '../../access/index.js';

const tags = ['Application'];

/** The application of the calling key: read, change, delete, and its navigation. */
export const appRoutes: FastifyPluginAsyncTypebox<{ onAppDeleted: (appId: string) => void }> = async (app, options) => {
  app.get('/app', {
    config: { access: reads('app:get') },
    schema: { tags, summary: 'Get the application with its sections and items', response: responses(schemas.AppOut) },
    handler: async (request) => ok(await service.getApp(serviceContext(request))),
  });

  app.post('/app', {
    config: { access: administersRoute('app:edit') },
    schema: { tags, summary: 'Change name, description, icon or color', body: schemas.UpdateAppBody, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.updateApp(serviceContext(request), request.body);
      return ok(null);
    },
  });

  app.delete('/app', {
    config: { access: administersRoute('app:delete') },
    schema: { tags, summary: 'Delete the application and everything in it', response: responses(Type.Null()) },
    handler: async (request) => {
      await service.deleteApp(serviceContext(request), options.onAppDeleted);
      return ok(null);
    },
  });

  app.post('/app/sections/batch', {
    config: { access: administersRoute('app:create_section') },
    schema: { tags, summary: 'Create sections (item groups)', body: schemas.SectionsBody, response: responses(schemas.SectionsOut) },
    handler: async (request) => ok(await service.addSections(serviceContext(request), request.body.sections)),
  });

  app.post('/app/items/batch', {
    config: { access: administersRoute('app:batch_create_item') },
    schema: { tags, summary: 'Create empty worksheets and custom pages', body: schemas.ItemsBody, response: responses(schemas.ItemsOut) },
    handler: async (request) =>
      ok(await service.addItems(serviceContext(request), request.body.items.map((i) => ({ ...i, sectionId: i.sectionId ?? '' })))),
  });
};
