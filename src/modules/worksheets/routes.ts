import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { serviceContext } from '../../plugins/service-context.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { worksheetListMarkdown, worksheetMarkdown } from './markdown.js';
import { administersRoute, reads } from '../../access/index.js';

const ResponseFormatQuery = Type.Object({
  responseFormat: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('md')])),
});

/** Worksheets: list, create, read, change the structure, delete. */
export const worksheetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/app/worksheets/list', {
    config: { access: reads('worksheet:list') },
    schema: {
      tags: ['Worksheets'],
      summary: 'List the worksheets of the application',
      body: schemas.ListWorksheetsBody,
      response: responses(Type.Union([Type.Array(schemas.WorksheetListItem), Type.String()])),
    },
    handler: async (request) => {
      const rows = await service.listWorksheets(serviceContext(request), request.body?.worksheets);
      return ok(request.body?.responseFormat === 'md' ? worksheetListMarkdown(rows) : rows);
    },
  });

  app.post('/app/worksheets', {
    config: { access: administersRoute('worksheet:create') },
    schema: {
      tags: ['Worksheets'],
      summary: 'Create a worksheet with its fields',
      body: schemas.CreateWorksheetBody,
      response: responses(Type.Object({ worksheetId: Type.String() })),
    },
    handler: async (request) => ok(await service.createWorksheet(serviceContext(request), request.body)),
  });

  app.get('/app/worksheets/:worksheet_id', {
    config: { access: reads('worksheet:get') },
    schema: {
      tags: ['Worksheets'],
      summary: 'Get the schema of a worksheet (fields and views)',
      params: schemas.WorksheetParams,
      querystring: ResponseFormatQuery,
      response: responses(Type.Union([schemas.WorksheetOut, Type.String()])),
    },
    handler: async (request) => {
      const worksheet = await service.getWorksheet(serviceContext(request), request.params.worksheet_id);
      return ok(request.query.responseFormat === 'md' ? worksheetMarkdown(worksheet) : worksheet);
    },
  });

  for (const path of ['/app/worksheets/:worksheet_id/structure', '/app/worksheets/:worksheet_id']) {
    app.post(path, {
      config: { access: administersRoute('worksheet:edit') },
      schema: {
        tags: ['Worksheets'],
        summary: 'Change the worksheet: name, alias, remark, add, edit and remove fields',
        params: schemas.WorksheetParams,
        body: schemas.UpdateStructureBody,
        response: responses(Type.Null()),
      },
      handler: async (request) => {
        await service.updateStructure(serviceContext(request), request.params.worksheet_id, request.body);
        return ok(null);
      },
    });
  }

  app.delete('/app/worksheets/:worksheet_id', {
    config: { access: administersRoute('worksheet:delete') },
    schema: {
      tags: ['Worksheets'],
      summary: 'Delete a worksheet and all its records',
      params: schemas.WorksheetParams,
      response: responses(Type.Null()),
    },
    handler: async (request) => {
      await service.deleteWorksheet(serviceContext(request), request.params.worksheet_id);
      return ok(null);
    },
  });
};
