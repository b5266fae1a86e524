import { Type } from '@sinclair/typebox';
import { defineNodeType } from '../node-type.js';
import { peopleOnly, recipientReferences, Recipients, resolveRecipients } from '../recipients.js';
import { resolveValue } from '../value-refs.js';
import { checkReferences } from './record-checks.js';

/**
 * Send internal notice (public type 27): an in-app notice (title and body templates) to people
 * (`to`: recipients; addresses are not people, so `email` recipients are refused), about the run's
 * record. Stored in the step's transaction by the notifications module, so it is sent exactly once.
 * Nobody to notify: the run goes on (`accountIds: []`).
 */
export const sendInternalNoticeNode = defineNodeType({
  type: 'send_internal_notice',
  code: 27,
  config: Type.Object({
    to: Recipients,
    title: Type.String({ minLength: 1, maxLength: 500 }),
    body: Type.Optional(Type.String({ maxLength: 10_000 })),
  }),
  exits: ['next'],
  effects: 'database',
  check(config, at) {
    return [
      ...peopleOnly(config.to, 'to', 'an in-app notice'),
      ...checkReferences(
        [...recipientReferences(config.to, 'to'), { ref: { kind: 'template', value: config.title }, path: 'title' }, { ref: { kind: 'template', value: config.body ?? '' }, path: 'body' }],
        at,
      ),
    ];
  },
  async run(config, ctx) {
    if (!ctx.notices) throw new Error('in-app notices are not available here');
    const { accountIds } = await resolveRecipients(config.to, ctx);
    if (accountIds.length === 0) return { exit: 'next', output: { accountIds } };
    const title = String(resolveValue({ kind: 'template', value: config.title }, ctx.values));
    const body = String(resolveValue({ kind: 'template', value: config.body ?? '' }, ctx.values));
    await ctx.notices.notify({ accountIds, title, body, appId: ctx.run.appId, runId: ctx.run.id, worksheetId: ctx.run.worksheetId, rowId: ctx.run.rowId });
    return { exit: 'next', output: { accountIds, title } };
  },
});
