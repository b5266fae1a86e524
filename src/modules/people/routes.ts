import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { administersOrganization } from '../../access/index.js';
import { serviceContext } from '../../plugins/service-context.js';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { createDepartment, deleteDepartment, departmentTree, editDepartment, getDepartment } from './departments.js';
import { createGroup, deleteGroup, listGroups, renameGroup, type GroupKind } from './groups.js';
import type { PeopleContext } from './people-context.js';
import * as schemas from './schemas.js';
import { createUser, editUser, getUser, listUsers, resetPassword } from './users.js';

/** The caller's organization, where the admin API acts. */
function peopleContext(request: FastifyRequest): PeopleContext {
  const ctx = serviceContext(request);
  return { db: ctx.db, organizationId: ctx.actor.organizationId, now: ctx.now() };
}

const access = administersOrganization();

/**
 * The admin API (`/admin/…`, outside the V3 namespace): people, departments, jobs and roles of the
 * caller's organization, for its administrators only.
 */
export const peopleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Admin: people'];
  app.get('/admin/users', {
    config: { access },
    schema: { tags, summary: 'List the people of the organization (paged, searchable)', querystring: schemas.ListUsersQuery, response: responses(schemas.UsersPage) },
    handler: async (request) => ok(await listUsers(peopleContext(request), request.query)),
  });
  app.post('/admin/users', {
    config: { access },
    schema: { tags, summary: 'Create a person (or add a known one to the organization)', body: schemas.CreateUserBody, response: responses(schemas.CreatedUser) },
    handler: async (request) => ok(await createUser(peopleContext(request), request.body)),
  });
  app.get('/admin/users/:account_id', {
    config: { access },
    schema: { tags, summary: 'One person with departments, jobs and roles', params: schemas.UserParams, response: responses(schemas.UserOut) },
    handler: async (request) => ok(await getUser(peopleContext(request), request.params.account_id)),
  });
  app.patch('/admin/users/:account_id', {
    config: { access },
    schema: { tags, summary: 'Change a person: profile, status (2 disables), admin flag, memberships', params: schemas.UserParams, body: schemas.EditUserBody, response: responses(schemas.UserOut) },
    handler: async (request) => ok(await editUser(peopleContext(request), request.params.account_id, request.body)),
  });
  app.post('/admin/users/:account_id/password', {
    config: { access },
    schema: { tags, summary: 'Set or generate a new password', params: schemas.UserParams, body: schemas.ResetPasswordBody, response: responses(schemas.PasswordOut) },
    handler: async (request) => ok(await resetPassword(peopleContext(request), request.params.account_id, request.body?.password)),
  });

  const departmentTags = ['Admin: departments'];
  app.get('/admin/departments', {
    config: { access },
    schema: { tags: departmentTags, summary: 'The department tree with paths and managers', response: responses(Type.Array(schemas.DepartmentOut)) },
    handler: async (request) => ok(await departmentTree(peopleContext(request))),
  });
  app.post('/admin/departments', {
    config: { access },
    schema: { tags: departmentTags, summary: 'Create a department', body: schemas.CreateDepartmentBody, response: responses(schemas.DepartmentOut) },
    handler: async (request) => ok(await createDepartment(peopleContext(request), request.body)),
  });
  app.get('/admin/departments/:department_id', {
    config: { access },
    schema: { tags: departmentTags, summary: 'One department with its sub-departments', params: schemas.DepartmentParams, response: responses(schemas.DepartmentOut) },
    handler: async (request) => ok(await getDepartment(peopleContext(request), request.params.department_id)),
  });
  app.patch('/admin/departments/:department_id', {
    config: { access },
    schema: { tags: departmentTags, summary: 'Rename, move, reorder or set the managers of a department', params: schemas.DepartmentParams, body: schemas.EditDepartmentBody, response: responses(schemas.DepartmentOut) },
    handler: async (request) => ok(await editDepartment(peopleContext(request), request.params.department_id, request.body)),
  });
  app.delete('/admin/departments/:department_id', {
    config: { access },
    schema: { tags: departmentTags, summary: 'Delete a department without sub-departments or members', params: schemas.DepartmentParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await deleteDepartment(peopleContext(request), request.params.department_id);
      return ok(null);
    },
  });

  for (const [kind, path, tag] of [['job', 'jobs', 'Admin: jobs'], ['orgRole', 'org-roles', 'Admin: organization roles']] as Array<[GroupKind, string, string]>) {
    const groupTags = [tag];
    app.get(`/admin/${path}`, {
      config: { access },
      schema: { tags: groupTags, summary: `List the ${tag.slice(7)}`, response: responses(Type.Array(schemas.GroupOut)) },
      handler: async (request) => ok(await listGroups(peopleContext(request), kind)),
    });
    app.post(`/admin/${path}`, {
      config: { access },
      schema: { tags: groupTags, summary: 'Create one', body: schemas.GroupBody, response: responses(schemas.GroupOut) },
      handler: async (request) => ok(await createGroup(peopleContext(request), kind, request.body.name)),
    });
    app.patch(`/admin/${path}/:id`, {
      config: { access },
      schema: { tags: groupTags, summary: 'Rename one', params: schemas.GroupParams, body: schemas.GroupBody, response: responses(schemas.GroupOut) },
      handler: async (request) => ok(await renameGroup(peopleContext(request), kind, request.params.id, request.body.name)),
    });
    app.delete(`/admin/${path}/:id`, {
      config: { access },
      schema: { tags: groupTags, summary: 'Delete one (its people no longer hold it)', params: schemas.GroupParams, response: responses(Type.Null()) },
      handler: async (request) => {
        await deleteGroup(peopleContext(request), kind, request.params.id);
        return ok(null);
      },
    });
  }
};
