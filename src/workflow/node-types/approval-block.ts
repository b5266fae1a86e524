import { Type } from '@sinclair/typebox';
import { defineNodeType } from '../node-type.js';

/**
 * Approval block (public type 26, "approval process"): a container whose steps (approve, fill in)
 * run in order on the run's record. Its exit is `approved` once an approve step inside passes and
 * `rejected` when one rejects, so a later branch can route on it. A rejection ends the run as
 * `refused` (the default, `onReject: 'refuse'`), or with `onReject: 'exit'` leaves the block by
 * `rejected` and the run goes on after it.
 */
export const approvalBlockNode = defineNodeType({
  type: 'approval_block',
  code: 26,
  config: Type.Object({
    name: Type.Optional(Type.String({ maxLength: 100 })),
    onReject: Type.Optional(Type.Union([Type.Literal('refuse'), Type.Literal('exit')], { default: 'refuse' })),
  }),
  exits: ['approved', 'rejected'],
  effects: 'none',
  showsProcess: true,
  containers: (_config, alias) => [alias],
  run: () => Promise.resolve({ exit: 'approved' }),
  enter: (_config, ctx) => Promise.resolve(ctx.run.nodeAlias),
});
