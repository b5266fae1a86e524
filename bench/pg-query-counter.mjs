// Loaded into the server process by the bench on PostgreSQL (`node --import ./bench/pg-query-counter.mjs
// dist/main.js`): counts the statements the server sends, i.e. its database round trips (node-postgres
// sends one query per round trip; a transaction's BEGIN and COMMIT count as their own). The bench asks
// for the count over the IPC channel: {type: 'bench:query-count'} is answered with {type, queries}.
// With HTTP_PROCESSES > 1 the flag reaches every server process (cluster workers inherit the Node
// flags), and the supervisor answers with their counts added up, asked over the cluster's channel.
// src/ is left alone: this patches the one `pg` module instance the server also loads.
import cluster from 'node:cluster';
import { clearTimeout, setTimeout } from 'node:timers';
import pg from 'pg';

const ASK = 'bench:query-count';
let queries = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  queries += 1;
  return query.apply(this, args);
};

/** One server process's count, asked by its supervisor; 0 if it does not answer within 2 s (it died). */
function countOf(worker) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      worker.off('message', onMessage);
      resolve(0);
    }, 2_000);
    function onMessage(answer) {
      if (answer?.type !== ASK) return;
      clearTimeout(timer);
      worker.off('message', onMessage);
      resolve(answer.queries);
    }
    worker.on('message', onMessage);
    worker.send({ type: ASK });
  });
}

if (cluster.isWorker) {
  process.on('message', (message) => {
    if (message?.type === ASK) process.send({ type: ASK, queries });
  });
} else if (process.send) {
  process.on('message', async (message) => {
    if (message?.type !== ASK) return;
    const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected());
    const counts = await Promise.all(workers.map(countOf));
    process.send({ type: ASK, queries: counts.reduce((sum, count) => sum + count, queries) });
  });
  // The channel must not keep the server alive when it shuts down.
  process.channel?.unref();
}
