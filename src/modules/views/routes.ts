import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { serviceContext } from '../../plugins/service-context.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { administersRoute, reads } from '../../access/index.js';

const tags = ['Views'];

/** Views of a worksheet: create a batch (the public interface), read, change, delete (Tabularium's own). */
export const viewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/app/worksheets/:worksheet_id/views/batch', {
    config: { access: administersRoute('view:create') },
    schema: { tags, summary: 'Create views, all or none', params: schemas.WorksheetParams, body: schemas.CreateViewsBody, response: responses(Type.Object({ views: Type.Array(schemas.ViewOut) })) },
    handler: async (request) => ok(await service.createViews(serviceContext(request), request.params.worksheet_id, request.body.views)),
  });

  app.get('/app/worksheets/:worksheet_id/views/:view_id', {
    config: { access: reads('worksheet:get') },
    schema: { tags, summary: 'Get a view with its settings', params: schemas.ViewParams, response: responses(schemas.ViewOut) },
    handler: async (request) => ok(await service.getView(serviceContext(request), request.params.worksheet_id, request.params.view_id)),
  });

  app.patch('/app/worksheets/:worksheet_id/views/:view_id', {
    config: { access: administersRoute('view:create') },
    schema: { tags, summary: 'Change a view: the keys sent replace the stored ones', params: schemas.ViewParams, body: schemas.ViewPatch, response: responses(schemas.ViewOut) },
    handler: async (request) => ok(await service.updateView(serviceContext(request), request.params.worksheet_id, request.params.view_id, request.body)),
  });

  app.delete('/app/worksheets/:worksheet_id/views/:view_id', {
    config: { access: administersRoute('view:create') },
    schema: { tags, summary: 'Delete a view (the records stay)', params: schemas.ViewParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.deleteView(serviceContext(request), request.params.worksheet_id, request.params.view_id);
      return ok(null);
    },
  });
};
