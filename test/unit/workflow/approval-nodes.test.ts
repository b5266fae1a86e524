import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { nodeTypeOf } from '../../../src/workflow/registry.js';
import type { NodeCheckContext } from '../../../src/workflow/node-type.js';

const at: NodeCheckContext = { appId: 'app', earlier: new Map([['start', 'trigger']]), worksheet: () => Promise.resolve(null) };
const type = (name: string) => nodeTypeOf(name)!;

describe('approval node types', () => {
  it('are registered with their public codes, exits and the containers they may sit in', () => {
    expect(['approval_block', 'approve', 'fill_in', 'cc'].map((name) => [type(name).code, type(name).exits, type(name).onlyInside ?? null])).toEqual([
      [26, ['approved', 'rejected'], null],
      [4, ['approved', 'rejected', 'returned'], ['approval_block']],
      [3, ['next'], ['approval_block']],
      [5, ['next'], null],
    ]);
    expect(type('approval_block').containers!({}, 'approval_1')).toEqual(['approval_1']);
  });

  it('check their configs: recipients of every kind, modes, deadlines; refuse what is not one', () => {
    const approve = type('approve').config;
    expect(Value.Check(approve, { approvers: [{ kind: 'user', id: 'a' }, { kind: 'role', id: 'r' }, { kind: 'field', node: 'start', fieldId: 'f' }, { kind: 'supervisor' }], mode: 'inOrder', deadline: { hours: 24, action: 'notify' } })).toBe(true);
    expect(Value.Check(approve, { approvers: [] })).toBe(false);
    expect(Value.Check(approve, { approvers: [{ kind: 'user', id: 'a' }], mode: 'some' })).toBe(false);
    expect(Value.Check(approve, { approvers: [{ kind: 'user', id: 'a' }], deadline: { hours: 0, action: 'approve' } })).toBe(false);
    expect(Value.Check(approve, { approvers: [{ kind: 'email', id: 'a@b.c' }] })).toBe(false);
    expect(Value.Check(type('fill_in').config, { assignees: [{ kind: 'triggerUser' }], fields: [] })).toBe(false);
    expect(Value.Check(type('approval_block').config, { onReject: 'exit' })).toBe(true);
    expect(Value.Check(type('approval_block').config, { onReject: 'ignore' })).toBe(false);
  });

  it('refuse member fields of nodes that do not run before them, and fields listed twice', async () => {
    expect(await type('approve').check!({ approvers: [{ kind: 'field', node: 'later', fieldId: 'f' }] }, at)).toEqual([{ path: 'approvers[0]', message: 'refers to the node "later", which does not run before this one' }]);
    expect(await type('fill_in').check!({ assignees: [{ kind: 'owner' }], fields: [{ fieldId: 'a' }, { fieldId: 'a' }] }, at)).toEqual([{ path: 'fields[1].fieldId', message: 'the field "a" is listed twice' }]);
    expect(await type('cc').check!({ recipients: [{ kind: 'user', id: 'u' }], message: 'see $later-f$' }, at)).toEqual([{ path: 'message', message: 'refers to the node "later", which does not run before this one' }]);
  });
});
