import { Type, type Static } from '@sinclair/typebox';
import type { AssigneeQuery, NodeContext } from './node-type.js';
import { resolveValue } from './value-refs.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });

/**
 * Whom an approval, fill-in or copy goes to (facts §7.4 recipients): a person, everyone holding a
 * role of the application, the people of a department, of a job or of an organization role, the
 * members in a member field of an earlier node's record, the run's initiator (`triggerUser`), the
 * record's owner, or the initiator's department manager (`supervisor`).
 * @example [{ kind: 'user', id: 'a1b2…' }, { kind: 'supervisor' }]
 */
export const Recipient = Type.Union([
  Type.Object({ kind: Type.Literal('user'), id: Id }),
  Type.Object({ kind: Type.Literal('role'), id: Id }),
  Type.Object({ kind: Type.Literal('department'), id: Id }),
  Type.Object({ kind: Type.Literal('job'), id: Id }),
  Type.Object({ kind: Type.Literal('orgRole'), id: Id }),
  Type.Object({ kind: Type.Literal('field'), node: Type.String({ minLength: 1 }), fieldId: Type.String({ minLength: 1 }) }),
  Type.Object({ kind: Type.Literal('triggerUser') }),
  Type.Object({ kind: Type.Literal('owner') }),
  Type.Object({ kind: Type.Literal('supervisor') }),
]);
export type Recipient = Static<typeof Recipient>;

export const Recipients = Type.Array(Recipient, { minItems: 1, maxItems: 100 });

/** Account and department ids in a member or department value (`[{accountId}]`, `[{departmentId}]`, ids). */
function membersIn(value: unknown, query: AssigneeQuery): void {
  if (value === null || value === undefined || value === '') return;
  if (Array.isArray(value)) {
    for (const item of value) membersIn(item, query);
    return;
  }
  if (typeof value === 'string') query.users.push(value);
  else if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.accountId === 'string') query.users.push(o.accountId);
    else if (typeof o.departmentId === 'string') query.departments.push(o.departmentId);
  }
}

/**
 * The accounts recipients name at this moment: member fields are read from the run's values and
 * the owner from the run's record; groups are expanded by the to-do port.
 */
export async function recipientAccounts(recipients: readonly Recipient[], ctx: NodeContext): Promise<string[]> {
  const query: AssigneeQuery = { users: [], roles: [], departments: [], jobs: [], orgRoles: [], initiator: false, initiatorManager: false };
  for (const recipient of recipients) {
    switch (recipient.kind) {
      case 'user':
        query.users.push(recipient.id);
        break;
      case 'role':
        query.roles.push(recipient.id);
        break;
      case 'department':
        query.departments.push(recipient.id);
        break;
      case 'job':
        query.jobs.push(recipient.id);
        break;
      case 'orgRole':
        query.orgRoles.push(recipient.id);
        break;
      case 'field':
        membersIn(resolveValue({ kind: 'field', node: recipient.node, fieldId: recipient.fieldId }, ctx.values), query);
        break;
      case 'triggerUser':
        query.initiator = true;
        break;
      case 'supervisor':
        query.initiatorManager = true;
        break;
      case 'owner': {
        const { worksheetId, rowId } = ctx.run;
        const record = worksheetId && rowId ? await ctx.records.get(worksheetId, rowId) : null;
        membersIn(record?.fields._owner ?? null, query);
        break;
      }
    }
  }
  return ctx.todos.resolve(query);
}

/** The value references recipients read, for the save-time check that their nodes run earlier. */
export function recipientReferences(recipients: readonly Recipient[], path: string) {
  return recipients.flatMap((r, i) => (r.kind === 'field' ? [{ ref: { kind: 'field' as const, node: r.node, fieldId: r.fieldId }, path: `${path}[${i}]` }] : []));
}
