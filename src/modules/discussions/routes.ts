import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { serviceContext } from '../../plugins/service-context.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { reads, writes } from '../../access/index.js';

const tags = ['Discussions'];

/** Discussions of a record: list, post, delete. */
export const discussionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/app/worksheets/:worksheet_id/rows/:row_id/discussions', {
    config: { access: reads('record:get_discussions') },
    schema: { tags, summary: "List a record's discussions, newest first", params: schemas.RowParams, querystring: schemas.ListQuery, response: responses(schemas.DiscussionPage) },
    handler: async (request) => ok(await service.listDiscussions(serviceContext(request), request.params.worksheet_id, request.params.row_id, request.query)),
  });

  app.post('/app/worksheets/:worksheet_id/rows/:row_id/discussions', {
    config: { access: writes('record:get_discussions') },
    schema: { tags, summary: 'Post a discussion on a record: message, mentions, reply, files', params: schemas.RowParams, body: schemas.PostBody, response: responses(Type.Object({ id: Type.String() })) },
    handler: async (request) => ok(await service.postDiscussion(serviceContext(request), request.params.worksheet_id, request.params.row_id, request.body)),
  });

  app.delete('/app/worksheets/:worksheet_id/rows/:row_id/discussions/:discussion_id', {
    config: { access: writes('record:get_discussions') },
    schema: { tags, summary: 'Delete a discussion (its author or an administrator), with its files', params: schemas.DiscussionParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.deleteDiscussion(serviceContext(request), request.params.worksheet_id, request.params.row_id, request.params.discussion_id);
      return ok(null);
    },
  });
};
