import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { serviceContext } from '../../plugins/service-context.js';
import { reads, writes } from '../../access/index.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { createOwnApp, listApps } from './own-apps.js';

const tags = ['Organizations and people'];

/**
 * The user's own view and the lookups, above applications: a personal access token needs no
 * `{prefix}-Appid` here, and names the organization with `orgId` (or `org_id`) in the query.
 */
export const directoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/orgs/list', {
    config: { access: reads('org:list') },
    schema: { tags, summary: 'The organizations the caller belongs to', response: responses(schemas.OrganizationsOut) },
    handler: async (request) => ok(await service.listOrganizations(serviceContext(request))),
  });

  app.get('/users/me', {
    config: { access: reads('user:me') },
    schema: { tags, summary: 'The calling person', querystring: schemas.OrganizationQuery, response: responses(schemas.MeOut) },
    handler: async (request) => ok(await service.me(serviceContext(request))),
  });

  app.get('/apps/list', {
    config: { access: reads('app:list') },
    schema: { tags, summary: 'The applications of the organization the caller works in', querystring: schemas.OrganizationQuery, response: responses(schemas.AppsOut) },
    handler: async (request) => ok(await listApps(serviceContext(request), request.query)),
  });

  app.post('/apps', {
    config: { access: writes('app:create') },
    schema: { tags, summary: 'Create an application in an organization the caller administers', querystring: schemas.OrganizationQuery, body: schemas.CreateAppBody, response: responses(schemas.CreatedAppOut) },
    handler: async (request) => ok(await createOwnApp(serviceContext(request), request.body, request.query)),
  });

  app.get('/users/lookup', {
    config: { access: reads('public:find_member') },
    schema: { tags, summary: 'Find the members with exactly this name', querystring: schemas.LookupQuery, response: responses(schemas.MembersOut) },
    handler: async (request) => ok(await service.lookUpMembers(serviceContext(request), request.query)),
  });

  app.get('/departments/lookup', {
    config: { access: reads('public:find_department') },
    schema: { tags, summary: 'Find the departments with exactly this name', querystring: schemas.LookupQuery, response: responses(schemas.DepartmentsOut) },
    handler: async (request) => ok(await service.lookUpDepartments(serviceContext(request), request.query)),
  });
};
