import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import type { AssigneeQuery } from '../../../src/workflow/node-type.js';
import { nodeTypeOf } from '../../../src/workflow/registry.js';
import { peopleOnly, Recipient, recipientReferences, resolveRecipients, type Recipient as RecipientType } from '../../../src/workflow/recipients.js';
import { fakeCheck, fakeContext } from './fake-node-context.js';

const outputs = { start: { rowId: 'r1', fields: { owner: [{ accountId: 'acc-7', fullname: 'Ann' }], team: [{ departmentId: 'dep-1' }], mails: 'a@x.io; b@y.io' } } };
const field = (fieldId: string) => ({ kind: 'field' as const, node: 'start', fieldId });
const type = (name: string) => nodeTypeOf(name)!;

describe('recipients: one form for every node', () => {
  it('resolves people and addresses, each once, without pseudo-users', async () => {
    const recipients: RecipientType[] = [{ kind: 'triggerUser' }, { kind: 'user', id: 'acc-7' }, field('owner'), field('mails'), { kind: 'email', address: 'a@x.io' }, { kind: 'user', id: 'user-workflow' }];
    expect(await resolveRecipients(recipients, fakeContext(outputs))).toEqual({ accountIds: ['acc-7', 'acc-initiator'], emails: ['a@x.io', 'b@y.io'] });
  });

  it('reads the message nodes\' earlier forms ({kind: user, accountId}, {kind: value}) as their new ones', async () => {
    const old: RecipientType[] = [{ kind: 'user', accountId: 'acc-9' }, { kind: 'value', value: field('owner') }, { kind: 'value', value: { kind: 'template', value: '$start-mails$' } }];
    const current: RecipientType[] = [{ kind: 'user', id: 'acc-9' }, field('owner'), field('mails')];
    expect(old.every((r) => Value.Check(Recipient, r))).toBe(true);
    const ctx = fakeContext(outputs);
    expect(await resolveRecipients(old, ctx)).toEqual(await resolveRecipients(current, ctx));
    expect(await resolveRecipients(old, ctx)).toEqual({ accountIds: ['acc-9', 'acc-7'], emails: ['a@x.io', 'b@y.io'] });
  });

  it('hands groups, departments in fields and the supervisor to the to-do port, and reads the owner from the record', async () => {
    let asked: AssigneeQuery | null = null;
    const ctx = fakeContext(outputs, {}, { worksheetId: 'ws', rowId: 'r1' });
    ctx.todos.resolve = (query) => ((asked = query), Promise.resolve(['acc-1']));
    ctx.records.get = (worksheetId, rowId) => Promise.resolve({ worksheetId, rowId, fields: { _owner: { accountId: 'acc-owner' } } });
    const all: RecipientType[] = [{ kind: 'role', id: 'r' }, { kind: 'department', id: 'd' }, { kind: 'job', id: 'j' }, { kind: 'orgRole', id: 'o' }, field('team'), { kind: 'owner' }, { kind: 'supervisor' }];
    expect(await resolveRecipients(all, ctx)).toEqual({ accountIds: ['acc-1'], emails: [] });
    expect(asked).toEqual({ users: ['acc-owner'], roles: ['r'], departments: ['d', 'dep-1'], jobs: ['j'], orgRoles: ['o'], initiator: false, initiatorManager: true });
  });

  it('refuses what is no recipient, and an address where only people may be', async () => {
    expect(Value.Check(Recipient, { kind: 'user' })).toBe(false);
    expect(Value.Check(Recipient, { kind: 'email', address: 'nobody' })).toBe(false);
    expect(Value.Check(Recipient, { kind: 'everyone' })).toBe(false);
    const email = { kind: 'email' as const, address: 'a@b.c' };
    expect(peopleOnly([{ kind: 'owner' }, email], 'to', 'a copy')).toEqual([{ path: 'to[1]', message: 'a copy goes to people: an email address is no recipient here' }]);
    expect(await type('approve').check!({ approvers: [email] }, fakeCheck())).toEqual([{ path: 'approvers[0]', message: 'an approval goes to people: an email address is no recipient here' }]);
    expect(await type('fill_in').check!({ assignees: [email], fields: [{ fieldId: 'f1' }] }, fakeCheck())).toEqual([{ path: 'assignees[0]', message: 'a fill-in goes to people: an email address is no recipient here' }]);
    expect(await type('cc').check!({ recipients: [email] }, fakeCheck())).toEqual([{ path: 'recipients[0]', message: 'a copy goes to people: an email address is no recipient here' }]);
    expect(await type('send_email').check!({ to: [email, { kind: 'supervisor' }], subject: 's', body: 'b' }, fakeCheck())).toEqual([]);
  });

  it('names the references they read, in either form, for the check that their nodes run earlier', () => {
    expect(recipientReferences([{ kind: 'owner' }, field('owner'), { kind: 'value', value: { kind: 'template', value: '$later-x$' } }], 'to')).toEqual([
      { ref: field('owner'), path: 'to[1]' },
      { ref: { kind: 'template', value: '$later-x$' }, path: 'to[2].value' },
    ]);
  });
});
