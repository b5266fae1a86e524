import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { reads, writes } from '../../access/index.js';
import { serviceContext } from '../../plugins/service-context.js';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { triggerHook } from './hook-service.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['Workflow runs'];

/**
 * Processes the API can start and their hooks (facts §7.1), and the run history of workflows:
 * each run with its steps.
 */
export const workflowRunRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/app/workflow/processes', {
    config: { access: reads('process:list') },
    schema: { tags, summary: 'List the processes that can be triggered through the API (webhooks and API processes)', response: responses(schemas.ProcessList) },
    handler: async (request) => ok(await service.listProcesses(serviceContext(request))),
  });

  app.get('/app/workflow/processes/:process_id', {
    config: { access: reads('process:get') },
    schema: { tags, summary: "Get a process's input and output parameters", params: schemas.ProcessParams, response: responses(schemas.ProcessDetail) },
    handler: async (request) => ok(await service.getProcess(serviceContext(request), request.params.process_id)),
  });

  app.post('/app/workflow/hooks/:process_id', {
    config: { access: writes('process:trigger') },
    schema: { tags, summary: 'Trigger a process with its inputs; answers its outputs when it ends in time, else the run id', params: schemas.ProcessParams, body: schemas.HookBody, response: responses(schemas.HookResult) },
    handler: async (request) => ok(await triggerHook(serviceContext(request), request.params.process_id, request.body, app.config.workflowHookWaitMs)),
  });

  app.get('/app/workflows/:workflow_id/runs', {
    config: { access: reads('workflow:get') },
    schema: { tags, summary: "List a workflow's runs, newest first", params: schemas.WorkflowParams, querystring: schemas.RunsQuery, response: responses(schemas.RunList) },
    handler: async (request) => ok(await service.listRuns(serviceContext(request), request.params.workflow_id, request.query)),
  });

  app.get('/app/workflows/:workflow_id/runs/:run_id', {
    config: { access: reads('workflow:get') },
    schema: { tags, summary: 'Get a run with each step: input, output, exit, timing and error', params: schemas.RunParams, response: responses(schemas.RunDetail) },
    handler: async (request) => ok(await service.getRun(serviceContext(request), request.params.workflow_id, request.params.run_id)),
  });
};
