// Loaded into the server process by the bench on PostgreSQL (`node --import ./bench/pg-query-counter.mjs
// dist/main.js`): counts the statements the server sends, i.e. its database round trips (node-postgres
// sends one query per round trip; a transaction's BEGIN and COMMIT count as their own). The bench asks
// for the count over the IPC channel: {type: 'bench:query-count'} is answered with {type, queries}.
// src/ is left alone: this patches the one `pg` module instance the server also loads.
import pg from 'pg';

let queries = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  queries += 1;
  return query.apply(this, args);
};

if (process.send) {
  process.on('message', (message) => {
    if (message && message.type === 'bench:query-count') process.send({ type: 'bench:query-count', queries });
  });
  // The channel must not keep the server alive when it shuts down.
  process.channel?.unref();
}
