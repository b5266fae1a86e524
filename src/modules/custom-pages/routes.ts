import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { serviceContext } from '../../plugins/service-context.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { administersRoute, reads } from '../../access/index.js';

const tags = ['Custom pages'];

/** Custom pages: their components, read and replaced whole with a version check. */
export const customPageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/app/custom-pages/:page_id', {
    config: { access: reads('app:get') },
    schema: { tags, summary: 'Get a custom page with its components', params: schemas.PageParams, response: responses(schemas.PageOut) },
    handler: async (request) => ok(await service.getPage(serviceContext(request), request.params.page_id)),
  });

  app.put('/app/custom-pages/:page_id', {
    config: { access: administersRoute('custom_page:edit') },
    schema: { tags, summary: 'Replace the components of a custom page (version must be the stored one)', params: schemas.PageParams, body: schemas.PageBody, response: responses(Type.Object({ version: Type.Integer() })) },
    handler: async (request) => ok(await service.savePage(serviceContext(request), request.params.page_id, request.body)),
  });
};
