import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { reads, writes } from '../../access/index.js';
import { serviceContext } from '../../plugins/service-context.js';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { decideBatch } from './batch-input.js';
import { decideOne } from './decisions.js';
import { instanceDetail } from './detail-service.js';
import { revokeInstance, terminateInstance, urgeInstance } from './instance-actions.js';
import { listInstances } from './list-service.js';
import * as schemas from './schemas.js';

const tags = ['Workflow to-dos'];
const base = '/app/workflow/instance';

/** Workflow to-dos: the caller's lists, one instance, deciding in batch, and the instance actions. */
export const workflowInstanceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(`${base}/list`, {
    config: { access: reads('approval:list') },
    schema: { tags, summary: "The caller's to-dos of one type: to approve, to fill in, copied, started, done", querystring: schemas.ListQuery, response: responses(schemas.InstancePage) },
    handler: async (request) => ok(await listInstances(serviceContext(request), request.query)),
  });

  app.get(`${base}/:instance_id`, {
    config: { access: reads('approval:get') },
    schema: { tags, summary: 'One instance as a to-do shows it: the record, the fields to fill, the history of opinions', params: schemas.InstanceParams, querystring: schemas.DetailQuery, response: responses(schemas.InstanceDetail) },
    handler: async (request) => ok(await instanceDetail(serviceContext(request), request.params.instance_id, request.query.workId)),
  });

  app.post(`${base}/batch`, {
    config: { access: writes('approval:batch') },
    schema: { tags, summary: 'Decide many to-dos, each on its own: approve, reject, return, fill in, resubmit', body: schemas.BatchBody, response: responses(schemas.BatchResult) },
    handler: async (request) => ok(await decideBatch(serviceContext(request), request.body)),
  });

  app.post(`${base}/:instance_id/return`, {
    config: { access: writes('approval:return') },
    schema: { tags, summary: 'Return an instance to an earlier step or to its initiator, with an opinion', params: schemas.InstanceParams, body: schemas.ReturnBody, response: responses(Type.Null()) },
    handler: async (request) => {
      await decideOne(serviceContext(request), 'return', { ...request.body, id: request.params.instance_id });
      return ok(null);
    },
  });

  app.post(`${base}/:instance_id/resubmit`, {
    config: { access: writes('approval:batch') },
    schema: { tags, summary: 'The initiator resubmits a returned instance: its approval step starts again', params: schemas.InstanceParams, body: schemas.ResubmitBody, response: responses(Type.Null()) },
    handler: async (request) => {
      await decideOne(serviceContext(request), 'resubmit', { ...request.body, id: request.params.instance_id });
      return ok(null);
    },
  });

  app.post(`${base}/:instance_id/revoke`, {
    config: { access: writes('approval:revoke') },
    schema: { tags, summary: 'The initiator withdraws the instance before anyone acted on it', params: schemas.InstanceParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await revokeInstance(serviceContext(request), request.params.instance_id);
      return ok(null);
    },
  });

  app.post(`${base}/:instance_id/terminate`, {
    config: { access: writes('approval:terminate') },
    schema: { tags, summary: 'The initiator or an administrator ends the instance as aborted', params: schemas.InstanceParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await terminateInstance(serviceContext(request), request.params.instance_id);
      return ok(null);
    },
  });

  app.post(`${base}/:instance_id/urge`, {
    config: { access: writes('approval:urge') },
    schema: { tags, summary: 'Remind the current assignees (at most once an hour per instance)', params: schemas.InstanceParams, response: responses(schemas.UrgeResult) },
    handler: async (request) => ok(await urgeInstance(serviceContext(request), request.params.instance_id)),
  });
};
