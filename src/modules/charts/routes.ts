import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { serviceContext } from '../../plugins/service-context.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { chartSvg } from './chart-svg.js';
import { administersRoute, reads } from '../../access/index.js';

const tags = ['Charts'];

/** Charts of worksheets: saved, read, computed as data and drawn as SVG. */
export const chartRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/app/worksheets/:worksheet_id/charts', {
    config: { access: administersRoute('chart:create') },
    schema: { tags, summary: 'Create a chart of a worksheet', params: schemas.WorksheetParams, body: schemas.ChartBody, response: responses(Type.Object({ id: Type.String() })) },
    handler: async (request) => ok(await service.createChart(serviceContext(request), request.params.worksheet_id, request.body)),
  });

  app.get('/app/charts/:chart_id', {
    config: { access: reads('record:get_pivot') },
    schema: { tags, summary: 'Get a chart', params: schemas.ChartParams, response: responses(schemas.ChartOut) },
    handler: async (request) => ok(await service.getChart(serviceContext(request), request.params.chart_id)),
  });

  app.delete('/app/charts/:chart_id', {
    config: { access: administersRoute('chart:create') },
    schema: { tags, summary: 'Delete a chart', params: schemas.ChartParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.deleteChart(serviceContext(request), request.params.chart_id);
      return ok(null);
    },
  });

  app.get('/app/charts/:chart_id/data', {
    config: { access: reads('record:get_pivot') },
    schema: { tags, summary: "A chart's numbers now, through the pivot engine", params: schemas.ChartParams, response: responses(schemas.ChartData) },
    handler: async (request) => ok(await service.chartData(serviceContext(request), request.params.chart_id)),
  });

  app.get('/app/charts/:chart_id/image.svg', {
    config: { access: reads('record:get_pivot') },
    schema: { tags, summary: 'A chart drawn as SVG on the server (Vega-Lite)', params: schemas.ChartParams },
    handler: async (request, reply) => {
      const svg = await chartSvg(await service.chartData(serviceContext(request), request.params.chart_id));
      return reply.type('image/svg+xml; charset=utf-8').header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'no-store').send(svg);
    },
  });
};
