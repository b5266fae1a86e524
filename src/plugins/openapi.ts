import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/**
 * OpenAPI 3 generated from the route schemas, at `/openapi.json`, and the interactive page at
 * `/docs`. Routes under `/api/v3` duplicate `/v3` and are left out of the document.
 */
export const openApiPlugin = fp(async (app: FastifyInstance, options: { publicUrl: string; headerPrefix: string; version: string }) => {
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && route.schema) route.schema = { ...route.schema, hide: true };
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Tabularium',
        description:
          'Record, Workflow and Application Management REST interface, version 3. Every response is the envelope ' +
          '`{success, error_code, error_msg, data}`; `error_code` 1 means success. Paths are also served under `/api/v3`.',
        version: options.version,
      },
      servers: [{ url: options.publicUrl }],
      components: {
        securitySchemes: {
          appKey: { type: 'apiKey', in: 'header', name: `${options.headerPrefix}-Appkey` },
          sign: { type: 'apiKey', in: 'header', name: `${options.headerPrefix}-Sign` },
        },
      },
      security: [{ appKey: [], sign: [] }],
    },
  });
  app.get('/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, { routePrefix: '/docs' });
});
