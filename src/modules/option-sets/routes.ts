import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { serviceContext } from '../../plugins/service-context.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { administersRoute, reads } from '../../access/index.js';

const tags = ['Option sets'];

/** Option sets of the calling key's application: shared option lists for choice fields. */
export const optionSetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/app/optionsets', {
    config: { access: reads('options:list') },
    schema: { tags, summary: 'List the option sets with the worksheets using them', response: responses(schemas.OptionSetsOut) },
    handler: async (request) => ok(await service.listOptionSets(serviceContext(request))),
  });

  app.post('/app/optionsets', {
    config: { access: administersRoute('options:create') },
    schema: { tags, summary: 'Create an option set', body: schemas.CreateOptionSetBody, response: responses(schemas.CreatedOptionSet) },
    handler: async (request) => ok(await service.createOptionSet(serviceContext(request), request.body)),
  });

  // PUT as the interface says; the public service edits with POST on the same path.
  for (const method of ['PUT', 'POST'] as const) {
    app.route({
      method,
      url: '/app/optionsets/:optionset_id',
      config: { access: administersRoute('options:update') },
      schema: { tags, summary: 'Edit an option set (every field using it changes with it)', params: schemas.OptionSetParams, body: schemas.EditOptionSetBody, response: responses(Type.Null()) },
      handler: async (request) => {
        await service.editOptionSet(serviceContext(request), request.params.optionset_id, request.body);
        return ok(null);
      },
    });
  }

  app.delete('/app/optionsets/:optionset_id', {
    config: { access: administersRoute('options:delete') },
    schema: { tags, summary: 'Delete an option set no field uses', params: schemas.OptionSetParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.deleteOptionSet(serviceContext(request), request.params.optionset_id);
      return ok(null);
    },
  });
};
