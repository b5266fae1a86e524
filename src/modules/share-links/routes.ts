import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { serviceContext } from '../../plugins/service-context.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { reads, writes } from '../../access/index.js';

const tags = ['Records'];

/** Share links of a record, under the API prefixes: make, list, revoke. The page they open is `page-routes.ts`. */
export const shareLinkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/app/worksheets/:worksheet_id/rows/:row_id/share-link', {
    config: { access: writes('record:get_share_link') },
    schema: { tags, summary: 'Make a share link: a read-only public page of the record', params: schemas.RowParams, body: schemas.CreateBody, response: responses(schemas.CreatedLink) },
    handler: async (request) => ok(await service.createLink(serviceContext(request), request.params.worksheet_id, request.params.row_id, request.body, app.config.publicUrl)),
  });

  app.get('/app/worksheets/:worksheet_id/rows/:row_id/share-links', {
    config: { access: reads('record:get_share_link') },
    schema: { tags, summary: 'List the share links of a record (without their tokens)', params: schemas.RowParams, response: responses(schemas.LinkList) },
    handler: async (request) => ok(await service.listLinks(serviceContext(request), request.params.worksheet_id, request.params.row_id)),
  });

  app.delete('/app/worksheets/:worksheet_id/rows/:row_id/share-links/:id', {
    config: { access: writes('record:get_share_link') },
    schema: { tags, summary: 'Revoke a share link: it stops working at once', params: schemas.LinkParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.revokeLink(serviceContext(request), request.params.worksheet_id, request.params.row_id, request.params.id);
      return ok(null);
    },
  });
};
