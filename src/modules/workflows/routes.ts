import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { administersRoute, reads } from '../../access/index.js';
import { serviceContext } from '../../plugins/service-context.js';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import * as nodes from './nodes.js';
import * as publication from './publication.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['Workflows'];
const params = schemas.WorkflowParams;

/**
 * Workflow definitions (public V3 facts §7.2–7.5): the draft, its trigger and nodes, validation,
 * publication into versions, closing. Administrators change them; read-only keys read them.
 */
export const workflowDefinitionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/app/workflows', {
    config: { access: administersRoute('workflow:create') },
    schema: { tags, summary: 'Create a workflow with its trigger (a draft)', body: schemas.CreateWorkflowBody, response: responses(schemas.CreatedWorkflow) },
    handler: async (request) => ok(await service.createWorkflow(serviceContext(request), request.body)),
  });

  app.get('/app/workflows/list', {
    config: { access: reads('workflow:get') },
    schema: { tags, summary: 'List the workflows of the application', querystring: schemas.ListWorkflowsQuery, response: responses(schemas.WorkflowListOut) },
    handler: async (request) => ok(await service.listWorkflows(serviceContext(request), request.query)),
  });

  app.get('/app/workflows/:workflow_id', {
    config: { access: reads('workflow:get') },
    schema: { tags, summary: 'Get a workflow: its draft structure, or a published version', params, querystring: schemas.GetWorkflowQuery, response: responses(schemas.WorkflowOut) },
    handler: async (request) => ok(await service.getWorkflow(serviceContext(request), request.params.workflow_id, request.query.version)),
  });

  app.patch('/app/workflows/:workflow_id', {
    config: { access: administersRoute('workflow:create') },
    schema: { tags, summary: "Change a workflow's name, description or draft trigger", params, body: schemas.UpdateWorkflowBody, response: responses(schemas.WorkflowOut) },
    handler: async (request) => ok(await service.updateWorkflow(serviceContext(request), request.params.workflow_id, request.body)),
  });

  app.delete('/app/workflows/:workflow_id', {
    config: { access: administersRoute('workflow:delete') },
    schema: { tags, summary: 'Delete a workflow (runs in flight finish on their version)', params, response: responses(schemas.Nothing) },
    handler: async (request) => {
      await service.deleteWorkflow(serviceContext(request), request.params.workflow_id);
      return ok(null);
    },
  });

  app.post('/app/workflows/:workflow_id/nodes/batch', {
    config: { access: administersRoute('workflow:batch_create_nodes') },
    schema: { tags, summary: 'Add nodes to the draft, all or none', params, body: schemas.NodesBatchBody, response: responses(schemas.CreatedNodes) },
    handler: async (request) => ok(await nodes.addNodes(serviceContext(request), request.params.workflow_id, request.body.nodes)),
  });

  app.delete('/app/workflows/:workflow_id/nodes/:node_id', {
    config: { access: administersRoute('workflow:delete_node') },
    schema: { tags, summary: 'Delete a node (and what is inside it) from the draft', params: schemas.NodeParams, response: responses(schemas.DeletedNodes) },
    handler: async (request) => ok(await nodes.deleteNodes(serviceContext(request), request.params.workflow_id, [request.params.node_id])),
  });

  app.delete('/app/workflows/:workflow_id/nodes', {
    config: { access: administersRoute('workflow:delete_node') },
    schema: { tags, summary: 'Delete nodes from the draft, all or none', params, body: schemas.DeleteNodesBody, response: responses(schemas.DeletedNodes) },
    handler: async (request) => ok(await nodes.deleteNodes(serviceContext(request), request.params.workflow_id, request.body.nodeIds)),
  });

  app.post('/app/workflows/:workflow_id/validate', {
    config: { access: reads('workflow:validate') },
    schema: { tags, summary: 'Check the draft as publishing would', params, response: responses(schemas.Validation) },
    handler: async (request) => ok(await publication.validateWorkflow(serviceContext(request), request.params.workflow_id)),
  });

  app.post('/app/workflows/:workflow_id/publish', {
    config: { access: administersRoute('workflow:publish') },
    schema: { tags, summary: 'Publish the draft as a new version', params, response: responses(schemas.Published) },
    handler: async (request) => ok(await publication.publishWorkflow(serviceContext(request), request.params.workflow_id)),
  });

  app.post('/app/workflows/:workflow_id/discard-draft', {
    config: { access: administersRoute('workflow:publish') },
    schema: { tags, summary: 'Drop the draft edits: back to the published version', params, response: responses(schemas.WorkflowOut) },
    handler: async (request) => ok(await publication.discardDraft(serviceContext(request), request.params.workflow_id)),
  });

  app.post('/app/workflows/:workflow_id/close', {
    config: { access: administersRoute('workflow:publish') },
    schema: { tags, summary: 'Close (disable) a published workflow', params, response: responses(schemas.Closed) },
    handler: async (request) => ok(await publication.closeWorkflow(serviceContext(request), request.params.workflow_id)),
  });
};
