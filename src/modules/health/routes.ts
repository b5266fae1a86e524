import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { ok } from '../../shared/envelope.js';
import { responses } from '../../shared/wire-schemas.js';

const Status = Type.Union([Type.Literal('ok'), Type.Literal('down'), Type.Literal('not configured')]);

/** Liveness and dependencies, without credentials: for load balancers and operators. */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/health', {
    config: { access: 'public' },
    schema: {
      tags: ['Operations'],
      summary: 'Health of the server, its database and its Redis',
      response: responses(Type.Object({ status: Status, database: Status, redis: Status, engine: Type.String() })),
    },
    handler: async (_request, reply) => {
      const database = await sql`SELECT 1 AS one`.execute(app.database.db).then(() => 'ok' as const, () => 'down' as const);
      const redis = app.redis ? await app.redis.ping().then(() => 'ok' as const, () => 'down' as const) : ('not configured' as const);
      const status = database === 'ok' && redis !== 'down' ? ('ok' as const) : ('down' as const);
      if (status !== 'ok') reply.status(503);
      return ok({ status, database, redis, engine: app.database.dialect.label });
    },
  });
};
