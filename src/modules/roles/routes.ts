import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { administersRoute, reads } from '../../access/index.js';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { serviceContext } from '../../plugins/service-context.js';
import * as schemas from './schemas.js';
import * as service from './service.js';

const tags = ['Roles'];

/** Roles of the caller's application and their members; changing them is for its administrators. */
export const roleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/app/roles', {
    config: { access: reads('role:list') },
    schema: { tags, summary: 'List the roles with their members', response: responses(schemas.RoleList) },
    handler: async (request) => ok(await service.listRoles(serviceContext(request))),
  });

  app.post('/app/roles', {
    config: { access: administersRoute('role:create') },
    schema: { tags, summary: 'Create a role', body: schemas.RoleBody, response: responses(schemas.CreatedRole) },
    handler: async (request) => ok(await service.createRole(serviceContext(request), request.body as Record<string, unknown>)),
  });

  app.delete('/app/roles/users/:user_id', {
    config: { access: administersRoute('role:leave_all') },
    schema: { tags, summary: 'Take a person out of every role of the application', params: schemas.UserParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.removeUserFromAllRoles(serviceContext(request), request.params.user_id);
      return ok(null);
    },
  });

  app.get('/app/roles/:role_id', {
    config: { access: reads('role:get') },
    schema: { tags, summary: 'Get a role with its permissions and members', params: schemas.RoleParams, response: responses(schemas.RoleDetail) },
    handler: async (request) => ok(await service.getRole(serviceContext(request), request.params.role_id)),
  });

  app.delete('/app/roles/:role_id', {
    config: { access: administersRoute('role:delete') },
    schema: { tags, summary: 'Delete a role', params: schemas.RoleParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.deleteRole(serviceContext(request), request.params.role_id);
      return ok(null);
    },
  });

  app.post('/app/roles/:role_id/members', {
    config: { access: administersRoute('role:add_member') },
    schema: { tags, summary: 'Add members to a role', params: schemas.RoleParams, body: schemas.MembersBody, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.addRoleMembers(serviceContext(request), request.params.role_id, request.body);
      return ok(null);
    },
  });

  app.delete('/app/roles/:role_id/members', {
    config: { access: administersRoute('role:remove_member') },
    schema: { tags, summary: 'Remove members from a role (the members in the body)', params: schemas.RoleParams, body: schemas.MembersBody, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.removeRoleMembers(serviceContext(request), request.params.role_id, request.body);
      return ok(null);
    },
  });
};
