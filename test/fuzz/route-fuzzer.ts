import fc from 'fast-check';
import type { ApiContext } from '../helpers/api-harness.js';
import { envelopeProblems } from './envelope-check.js';
import { fixtureFingerprint } from './fixture-snapshot.js';
import { describeSent, toInject, type FuzzRequest } from './fuzz-request.js';
import { fuzzSettings, replayHint } from './fuzz-settings.js';
import type { FuzzWorld } from './fuzz-world.js';
import { operationsOf } from './openapi-operations.js';
import { requestArbitrary } from './request-arbitrary.js';
import { isAppLevel } from './request-policy.js';

/**
 * Sends fast-check's requests to the app, one per run, and fails a run on a 5xx, on anything but
 * the envelope, and on a change to the fixture (checked cheaply after every accepted write, so
 * the failing request is the one reported and shrunk).
 */

export interface FuzzOutcome {
  requests: number;
  operations: number;
  milliseconds: number;
  statuses: Record<number, number>;
  interrupted: boolean;
  /** fast-check's report (seed, path, counterexample, the error) when a run failed; null otherwise. */
  failure: string | null;
}

function shorten(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…(${text.length} chars)` : text;
}

export async function fuzzRoutes(ctx: ApiContext, world: FuzzWorld): Promise<FuzzOutcome> {
  const { operations, resolve } = operationsOf(ctx.app);
  const statuses: Record<number, number> = {};
  let requests = 0;
  // The fixture as last seen: a change is reported once, by the request that made it, so that shrinking does not chase it.
  let fingerprint = await fixtureFingerprint(ctx, world);
  const prefix = ctx.config.headerPrefix;

  const property = fc.asyncProperty(fc.limitShrink(requestArbitrary(operations, resolve), fuzzSettings.maxShrinks), async (request: FuzzRequest) => {
    const appLevel = isAppLevel(request.method, request.template);
    const headers =
      typeof request.credentials === 'string'
        ? world.headersFor(request.credentials, appLevel)
        : { [`${prefix}-Appkey`]: request.credentials.appKey, [`${prefix}-Sign`]: request.credentials.sign };
    const options = toInject(request, world, headers);
    const response = await ctx.app.inject(options).catch((error: unknown) => {
      throw new Error(`the request did not complete: ${error instanceof Error ? error.message : String(error)}\n--- sent\n${describeSent(options)}`);
    });
    requests += 1;
    statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
    const problems = envelopeProblems(response.statusCode, response.body, request.template.startsWith('/oauth/'));
    // Only an accepted write may change anything (a refused one applies nothing, house rule 6); the
    // final snapshot comparison catches a refused request that wrote all the same.
    const accepted = request.method !== 'GET' && response.statusCode < 400;
    if (accepted) {
      const now = await fixtureFingerprint(ctx, world);
      if (now !== fingerprint) problems.push('the fixture worksheet changed (its first page of records or its structure)');
      fingerprint = now;
      if (appLevel) {
        const changed = await world.secondAppRowProblem();
        if (changed) problems.push(changed);
      }
    }
    await world.afterRequest(accepted);
    if (problems.length > 0) {
      throw new Error(`${problems.join('; ')}\n--- sent\n${describeSent(options)}\n--- answered HTTP ${response.statusCode}\n${shorten(response.body, 600)}`);
    }
  });

  const started = Date.now();
  const details = await fc.check(property, {
    seed: fuzzSettings.seed,
    path: fuzzSettings.path,
    numRuns: fuzzSettings.numRuns,
    verbose: fc.VerbosityLevel.Verbose,
    plugins: [fc.interruptAfterTimeLimit(fuzzSettings.timeLimitMs)],
  });
  const report = details.failed
    ? [
        fc.defaultReportMessage(details) ?? 'the property failed',
        `The counterexample's failure: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
        `Replay: ${replayHint(ctx.engine, details.counterexamplePath ?? undefined)}`,
      ].join('\n\n')
    : null;
  return { requests, operations: operations.length, milliseconds: Date.now() - started, statuses, interrupted: details.interrupted, failure: report };
}
