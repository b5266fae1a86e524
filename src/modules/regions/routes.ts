import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { serviceContext } from '../../plugins/service-context.js';
import { reads } from '../../access/index.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['Regions'];

/** Region lookups: China's provinces, cities and counties, and the world's countries under 910000 海外. */
export const regionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // `/regions` as the public service answers it, `/regions/lookup` as the interface lists it: the same lookup.
  for (const url of ['/regions', '/regions/lookup']) {
    app.get(url, {
      config: { access: reads('public:get_regions') },
      schema: { tags, summary: 'List the regions below a region, or search them by name', querystring: schemas.RegionsQuery, response: responses(schemas.RegionsOut) },
      handler: async (request) => ok(await service.listRegions(serviceContext(request), request.query)),
    });
  }
};
