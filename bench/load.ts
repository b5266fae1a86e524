import autocannon from 'autocannon';

/** One autocannon run: what to send, how hard, for how long. */
export interface LoadSpec {
  baseUrl: string;
  headers: Record<string, string>;
  method: 'GET' | 'POST';
  connections: number;
  /** Run for this many seconds… */
  seconds?: number;
  /** …or send exactly this many requests. */
  amount?: number;
  /** At most this many requests per second over all connections (an open-loop load); as fast as answered when absent. */
  overallRate?: number;
  /** The path and body of request number i (0, 1, 2, … across all connections). */
  request: (i: number) => { path: string; body?: string | Buffer };
  /** Inspects each response body; return false to count it as failed. Costs bench CPU: only for few, large requests. */
  checkBody?: (body: string) => boolean;
  timeoutSeconds?: number;
  /** Samples the server's CPU time, so the run can report what the server spent on it. */
  serverCpuSeconds: () => Promise<number>;
  /** Samples how many statements the server has sent to its database so far, when that is counted (PostgreSQL). */
  serverQueries?: () => Promise<number | undefined>;
}

/** What a run measured. Latencies are in milliseconds. */
export interface LoadOutcome {
  ok: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** 2xx responses whose body `checkBody` rejected. */
  badBodies: number;
  seconds: number;
  perSecond: number;
  latency: { p50: number; p99: number; max: number };
  /** CPU spent during the run by the server and by autocannon (this process). */
  cpu: { serverSeconds: number; benchSeconds: number };
  /** Statements the server sent to its database during the run, when counted. */
  queries?: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadOutcome> {
  let sent = 0;
  let badBodies = 0;
  const queriesBefore = await spec.serverQueries?.();
  const serverCpuBefore = await spec.serverCpuSeconds();
  const benchCpuBefore = process.cpuUsage();
  const started = performance.now();
  let lastResponse = started;
  const result = await autocannon({
    url: spec.baseUrl,
    method: spec.method,
    headers: spec.headers,
    connections: spec.connections,
    ...(spec.amount !== undefined ? { amount: spec.amount } : { duration: spec.seconds ?? 10 }),
    ...(spec.overallRate !== undefined ? { overallRate: spec.overallRate } : {}),
    timeout: spec.timeoutSeconds ?? 10,
    requests: [
      {
        setupRequest: (request) => {
          const next = spec.request(sent++);
          return { ...request, path: next.path, body: next.body };
        },
        onResponse: (status: number, body: string) => {
          lastResponse = performance.now();
          if (spec.checkBody && status >= 200 && status < 300 && !spec.checkBody(body)) badBodies += 1;
        },
      },
    ],
  });
  // An amount-based run ends with its last response: autocannon itself resolves on its next one-second
  // tick, which would round a 1.4 s run up to 2 s. (Its own duration is rounded to 10 ms as well.)
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const serverSeconds = (await spec.serverCpuSeconds()) - serverCpuBefore;
  const queriesAfter = await spec.serverQueries?.();
  const seconds = spec.amount !== undefined ? (lastResponse - started) / 1000 : result.duration;
  return {
    ok: result['2xx'] - badBodies,
    non2xx: result.non2xx,
    errors: result.errors,
    badBodies,
    seconds,
    perSecond: (result['2xx'] - badBodies) / seconds,
    latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    cpu: { serverSeconds, benchSeconds: (benchCpu.user + benchCpu.system) / 1e6 },
    ...(queriesBefore !== undefined && queriesAfter !== undefined ? { queries: queriesAfter - queriesBefore } : {}),
  };
}

/**
 * Runs of one load added up: requests, time and CPU (latencies: the larger of the runs'), for a load
 * measured in parts alternating with another.
 */
export function addOutcomes(outcomes: LoadOutcome[]): LoadOutcome {
  const total = (pick: (o: LoadOutcome) => number) => outcomes.reduce((n, o) => n + pick(o), 0);
  const seconds = total((o) => o.seconds);
  return {
    ok: total((o) => o.ok),
    non2xx: total((o) => o.non2xx),
    errors: total((o) => o.errors),
    badBodies: total((o) => o.badBodies),
    seconds,
    perSecond: total((o) => o.ok) / seconds,
    latency: { p50: Math.max(...outcomes.map((o) => o.latency.p50)), p99: Math.max(...outcomes.map((o) => o.latency.p99)), max: Math.max(...outcomes.map((o) => o.latency.max)) },
    cpu: { serverSeconds: total((o) => o.cpu.serverSeconds), benchSeconds: total((o) => o.cpu.benchSeconds) },
  };
}
