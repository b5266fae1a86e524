import { Type } from '@sinclair/typebox';
import { defineNodeType } from '../node-type.js';
import { peopleOnly, recipientReferences, Recipients, resolveRecipients } from '../recipients.js';
import { resolveValue } from '../value-refs.js';
import { checkReferences } from './record-checks.js';

/**
 * Copy to (cc, public type 5): the recipients (resolved now) each get a to-view to-do (status 0
 * unread, 1 once they open it) and a notification; the run does not wait.
 */
export const ccNode = defineNodeType({
  type: 'cc',
  code: 5,
  config: Type.Object({
    recipients: Recipients,
    /** A note shown with the copy: a text template with `$alias-fieldId$` placeholders. */
    message: Type.Optional(Type.String({ maxLength: 2000 })),
    /** The fields of the record the recipients see (ids); every field when absent. */
    visibleFields: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  }),
  exits: ['next'],
  effects: 'database',
  check: (config, at) => [
    ...peopleOnly(config.recipients, 'recipients', 'a copy'),
    ...checkReferences([...recipientReferences(config.recipients, 'recipients'), ...(config.message ? [{ ref: { kind: 'template' as const, value: config.message }, path: 'message' }] : [])], at),
  ],
  async run(config, ctx) {
    const { accountIds: recipients } = await resolveRecipients(config.recipients, ctx);
    const note = config.message ? String(resolveValue({ kind: 'template', value: config.message }, ctx.values)) : undefined;
    await ctx.todos.open(5, recipients, note ? { note } : {});
    return { exit: 'next', output: { recipients } };
  },
});
