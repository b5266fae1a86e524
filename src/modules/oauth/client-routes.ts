import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { administersOrganization } from '../../access/index.js';
import { serviceContext } from '../../plugins/service-context.js';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';
import { createClient, listClients, setClientEnabled } from './clients.js';

const ClientOut = Type.Object({
  clientId: Type.String(),
  name: Type.String(),
  organizationId: Type.String(),
  redirectUris: Type.Array(Type.String()),
  scopes: Type.Array(Type.String()),
  allowedIps: Type.Array(Type.String()),
  public: Type.Boolean(),
  enabled: Type.Boolean(),
  createdAt: Type.String(),
  clientSecret: Type.Optional(Type.String({ description: 'Shown once, when the client is created' })),
});
const CreateClientBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  redirectUris: Type.Array(Type.String({ maxLength: 2000 }), { minItems: 1, maxItems: 20 }),
  scopes: Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 200 }),
  allowedIps: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 200 })),
  public: Type.Optional(Type.Boolean({ description: 'No secret: the client must use PKCE S256' })),
});
const ClientParams = Type.Object({ client_id: Type.String({ maxLength: 100 }) });
const EnabledBody = Type.Object({ enabled: Type.Boolean() });

const access = administersOrganization();

/** `/admin/oauth-clients`: the organization's OAuth clients, for its administrators. */
export const oauthClientRoutes: FastifyPluginAsyncTypebox<{ onClientChanged(): void }> = async (app, options) => {
  const tags = ['Admin: OAuth clients'];
  app.get('/admin/oauth-clients', {
    config: { access },
    schema: { tags, summary: 'List the OAuth clients of the organization', response: responses(Type.Array(ClientOut)) },
    handler: async (request) => ok(await listClients(serviceContext(request).db, serviceContext(request).actor.organizationId)),
  });
  app.post('/admin/oauth-clients', {
    config: { access },
    schema: { tags, summary: 'Register an OAuth client (its secret is shown once)', body: CreateClientBody, response: responses(ClientOut) },
    handler: async (request) => {
      const ctx = serviceContext(request);
      return ok(await createClient(ctx.db, ctx.actor.organizationId, request.body, ctx.now()));
    },
  });
  app.patch('/admin/oauth-clients/:client_id', {
    config: { access },
    schema: { tags, summary: 'Enable or disable an OAuth client', params: ClientParams, body: EnabledBody, response: responses(ClientOut) },
    handler: async (request) => {
      const ctx = serviceContext(request);
      const client = await setClientEnabled(ctx.db, ctx.actor.organizationId, request.params.client_id, request.body.enabled);
      options.onClientChanged();
      return ok(client);
    },
  });
};
