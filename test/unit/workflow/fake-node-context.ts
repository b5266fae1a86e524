import type { FastifyBaseLogger } from 'fastify';
import type { NodeCheckContext, NodeContext, NodeOutcome, TodoPort } from '../../../src/workflow/node-type.js';

export const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);

const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => silent, level: 'silent' } as unknown as FastifyBaseLogger;

/**
 * Resolves recipients as if everyone named were an active member (pseudo-users left out), each
 * once: the people and the initiator; groups (roles, departments…) are not part of these tests.
 */
function everyoneNamed(initiatorId: string): TodoPort['resolve'] {
  return (query) => {
    const groups = [...query.roles, ...query.departments, ...query.jobs, ...query.orgRoles];
    if (groups.length > 0 || query.initiatorManager) return Promise.reject(new Error('groups are not part of this test'));
    const named = [...query.users, ...(query.initiator ? [initiatorId] : [])];
    return Promise.resolve([...new Set(named)].filter((id) => !id.startsWith('user-')));
  };
}

/** A node context over fixed outputs, whose ports fail unless a test gives them (recipients resolve to whom they name). */
export function fakeContext(outputs: Record<string, Record<string, unknown>>, overrides: Partial<NodeContext> = {}, run: Partial<NodeContext['run']> = {}): NodeContext {
  const missing = (what: string) => () => Promise.reject(new Error(`${what} is not part of this test`));
  return {
    values: { outputs, triggeredAt: NOW - 60_000, triggeredBy: 'acc-initiator', now: () => NOW },
    records: { get: missing('records'), list: missing('records'), related: missing('records'), create: missing('records'), update: missing('records'), delete: missing('records') },
    mail: null,
    http: { request: missing('http') },
    people: { emailsOf: (ids) => Promise.resolve(ids.map((id) => `${id}@example.com`)) },
    notices: null,
    workflows: { startRun: missing('workflows') },
    todos: { resolve: everyoneNamed(run.initiatorId ?? 'acc-initiator'), open: missing('todos'), items: missing('todos'), close: missing('todos'), notify: missing('todos') },
    now: () => NOW,
    timeZone: 'UTC',
    log: silent,
    run: { id: 'run-1', workflowId: 'wf-1', appId: 'app-1', initiatorId: 'acc-initiator', nodeAlias: 'node', nodeName: 'node', seq: 2, worksheetId: null, rowId: null, attempt: 1, maxAttempts: 5, ...run },
    ...overrides,
  };
}

/** A check context where `earlier` nodes run before, and one worksheet `ws` with fields `f1`, `f2`, `rel`. */
export function fakeCheck(earlier: Record<string, string> = {}): NodeCheckContext {
  return {
    appId: 'app-1',
    earlier: new Map(Object.entries(earlier)),
    worksheet: (key) => Promise.resolve(key === 'ws' ? { id: 'ws', name: 'Orders', fields: new Map([['f1', '6'], ['f2', '2'], ['rel', '29']]) } : null),
  };
}

/** The output of an outcome that left by an exit (fails the test on a wait). */
export function outputOf(outcome: NodeOutcome): Record<string, unknown> | undefined {
  if ('wait' in outcome) throw new Error('the node waits');
  return outcome.output;
}
