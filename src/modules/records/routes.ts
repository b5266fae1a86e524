import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { serviceContext } from '../../plugins/service-context.js';
import { chunkedRowsSerializer } from '../../plugins/chunked-rows-serializer.js';
import { jsonTextDataSerializer } from '../../plugins/json-text-data-serializer.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import * as pivotSchemas from './pivot-schemas.js';
import { pivotRecords } from './pivot-service.js';
import { listRelated } from './relations-service.js';
import { submitDraft } from './drafts/service.js';
import { reads, writes } from '../../access/index.js';

const tags = ['Records'];

/** Records of a worksheet: single and batch writes, reads and the paged list. */
export const recordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/app/worksheets/:worksheet_id/rows/list', {
    config: { access: reads('record:list') },
    serializerCompiler: chunkedRowsSerializer(schemas.RecordItem),
    schema: { tags, summary: 'List records: paged, sorted, projected', params: schemas.WorksheetParams, body: schemas.ListBody, response: responses(schemas.RecordPage) },
    handler: async (request) => ok(await service.listRecords(serviceContext(request), request.params.worksheet_id, request.body ?? {}, true)),
  });

  app.post('/app/worksheets/:worksheet_id/rows/pivot', {
    config: { access: reads('record:get_pivot') },
    schema: { tags, summary: 'Pivot records: group by fields and date periods, aggregate values', params: schemas.WorksheetParams, body: pivotSchemas.PivotBody, response: responses(pivotSchemas.PivotResult) },
    handler: async (request) => ok(await pivotRecords(serviceContext(request), request.params.worksheet_id, request.body)),
  });

  app.post('/app/worksheets/:worksheet_id/rows/batch', {
    config: { access: writes('record:batch_create') },
    schema: { tags, summary: 'Create up to 1000 records, all or none', params: schemas.WorksheetParams, body: schemas.BatchCreateBody, response: responses(Type.Object({ rowIds: Type.Array(Type.String()) })) },
    handler: async (request) => ok(await service.createRecords(serviceContext(request, request.body), request.params.worksheet_id, request.body.rows, request.body.isDraft === true)),
  });

  app.patch('/app/worksheets/:worksheet_id/rows/batch', {
    config: { access: writes('record:batch_update') },
    schema: { tags, summary: 'Update up to 1000 records: the same values (rowIds + fields) or per-record values (rows)', params: schemas.WorksheetParams, body: schemas.BatchUpdateBody, response: responses(schemas.BatchOutcome) },
    handler: async (request) => ok(await service.updateRecords(serviceContext(request, request.body), request.params.worksheet_id, request.body)),
  });

  app.delete('/app/worksheets/:worksheet_id/rows/batch', {
    config: { access: writes('record:batch_delete') },
    schema: { tags, summary: 'Delete up to 1000 records', params: schemas.WorksheetParams, body: schemas.BatchDeleteBody, response: responses(schemas.BatchOutcome) },
    handler: async (request) =>
      ok(await service.deleteRecords(serviceContext(request, request.body), request.params.worksheet_id, request.body.rowIds, request.body.permanent === true)),
  });

  app.post('/app/worksheets/:worksheet_id/rows/batch/restore', {
    config: { access: writes('record:batch_delete') },
    schema: { tags, summary: 'Bring up to 1000 records back from the recycle bin, with their relations', params: schemas.WorksheetParams, body: schemas.BatchRestoreBody, response: responses(schemas.BatchOutcome) },
    handler: async (request) => ok(await service.restoreRecords(serviceContext(request), request.params.worksheet_id, request.body.rowIds)),
  });

  app.post('/app/worksheets/:worksheet_id/rows/:row_id/restore', {
    config: { access: writes('record:delete') },
    schema: { tags, summary: 'Bring a record back from the recycle bin, with its relations', params: schemas.RowParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.restoreRecord(serviceContext(request), request.params.worksheet_id, request.params.row_id);
      return ok(null);
    },
  });

  app.post('/app/worksheets/:worksheet_id/rows', {
    config: { access: writes('record:create') },
    schema: { tags, summary: "Create a record (or, with isDraft, a draft in the caller's draft box)", params: schemas.WorksheetParams, body: schemas.CreateRecordBody, response: responses(Type.Object({ id: Type.String() })) },
    handler: async (request) => ok(await service.createRecord(serviceContext(request, request.body), request.params.worksheet_id, request.body.fields, request.body.isDraft === true)),
  });

  app.post('/app/worksheets/:worksheet_id/rows/:row_id/submit', {
    config: { access: writes('record:create') },
    schema: { tags, summary: 'Submit a draft of the caller: checked in full, it becomes a record with the same id', params: schemas.RowParams, body: schemas.SubmitDraftBody, response: responses(Type.Object({ id: Type.String() })) },
    handler: async (request) => ok(await submitDraft(serviceContext(request, request.body), request.params.worksheet_id, request.params.row_id)),
  });

  app.get('/app/worksheets/:worksheet_id/rows/:row_id', {
    config: { access: reads('record:get') },
    serializerCompiler: jsonTextDataSerializer(),
    schema: { tags, summary: 'Get a record', params: schemas.RowParams, querystring: schemas.RowQuery, response: responses(schemas.RecordItemOrText) },
    handler: async (request) => ok(await service.getRecord(serviceContext(request), request.params.worksheet_id, request.params.row_id, request.query, true)),
  });

  app.get('/app/worksheets/:worksheet_id/rows/:row_id/relations/:field', {
    config: { access: reads('record:get_relations') },
    serializerCompiler: chunkedRowsSerializer(schemas.RecordItem),
    schema: { tags, summary: 'List the records a record relates to through a relation field', params: schemas.RelationParams, querystring: schemas.RelationQuery, response: responses(schemas.RecordPage) },
    handler: async (request) => ok(await listRelated(serviceContext(request), request.params.worksheet_id, request.params.row_id, request.params.field, request.query)),
  });

  app.patch('/app/worksheets/:worksheet_id/rows/:row_id', {
    config: { access: writes('record:edit') },
    schema: { tags, summary: 'Update a record: only the sent fields change', params: schemas.RowParams, body: schemas.UpdateRecordBody, response: responses(Type.Object({ id: Type.String() })) },
    handler: async (request) =>
      ok(await service.updateRecord(serviceContext(request, request.body), request.params.worksheet_id, request.params.row_id, request.body.fields)),
  });

  app.delete('/app/worksheets/:worksheet_id/rows/:row_id', {
    config: { access: writes('record:delete') },
    schema: { tags, summary: 'Delete a record (to the recycle bin unless permanent)', params: schemas.RowParams, body: schemas.DeleteRecordBody, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.deleteRecord(serviceContext(request, request.body), request.params.worksheet_id, request.params.row_id, request.body?.permanent === true);
      return ok(null);
    },
  });
};
