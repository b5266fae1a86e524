import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../shared/envelope.js';
import { responses } from '../../../shared/wire-schemas.js';
import { serviceContext } from '../../../plugins/service-context.js';
import { RowParams } from '../schemas.js';
import { LogPage, LogQuery } from './log-schemas.js';
import { listRecordLogs } from './log-service.js';
import { reads } from '../../../access/index.js';

/** A record's log: who changed what, when, from where. */
export const recordLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/app/worksheets/:worksheet_id/rows/:row_id/logs', {
    config: { access: reads('record:get_logs') },
    schema: { tags: ['Records'], summary: 'The log of a record: every change, newest first', params: RowParams, querystring: LogQuery, response: responses(LogPage) },
    handler: async (request) => {
      const q = request.query;
      const operatorIds = [...(q.operatorIds ?? []), ...(q['operatorIds[]'] ?? []), ...(q.opeartorIds ?? []), ...(q['opeartorIds[]'] ?? [])];
      return ok(await listRecordLogs(serviceContext(request), request.params.worksheet_id, request.params.row_id, { ...q, operatorIds }));
    },
  });
};
