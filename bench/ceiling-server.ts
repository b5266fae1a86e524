import Fastify from 'fastify';

/**
 * The ceiling of this machine for W3: a bare Fastify route, in its own process, that answers the
 * path W3 asks with one stored record's JSON (the server's whole response body, taken from it once
 * and passed in as CEILING_BODY) as a constant. No authentication, no database, no serialisation.
 * Started by bench/ceiling.ts with `node --import tsx`.
 */
const body = process.env.CEILING_BODY;
const port = Number(process.env.CEILING_PORT);
if (!body || !Number.isInteger(port)) throw new Error('ceiling-server needs CEILING_BODY and CEILING_PORT');

const app = Fastify({ logger: false });
app.get('/v3/app/worksheets/:worksheetId/rows/:rowId', (_request, reply) => {
  void reply.type('application/json; charset=utf-8').send(body);
});
app.get('/health', (_request, reply) => {
  void reply.type('application/json; charset=utf-8').send('{"status":"ok"}');
});
await app.listen({ host: '127.0.0.1', port });
