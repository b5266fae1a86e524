import { Type, type Static } from '@sinclair/typebox';
import type { AssigneeQuery, NodeContext, NodeProblem } from './node-type.js';
import { resolveValue, ValueRef, type ValueRef as ValueRefType } from './value-refs.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });

/**
 * Whom a node's to-dos or messages go to (facts §7.4 recipients), one form for every node
 * (approve, fill_in, cc, send_email, send_internal_notice): a person, everyone holding a role of the
 * application, the people of a department, of a job or of an organization role, the people (or,
 * for mail, the addresses) a field of an earlier node holds, the run's initiator (`triggerUser`),
 * the record's owner, the initiator's department manager (`supervisor`), or a literal address
 * (mail only: the other nodes refuse it when saved, `peopleOnly`).
 *
 * Two earlier forms of the message nodes are still read, so that saved workflows and clients
 * written against them go on working: `{kind: 'user', accountId}` (now `id`) and
 * `{kind: 'value', value: <reference>}` (a field reference is now `{kind: 'field', node, fieldId}`;
 * any other reference, a template of addresses say, is still only written this way).
 * @example [{ kind: 'user', id: 'a1b2…' }, { kind: 'field', node: 'trigger', fieldId: 'owner' }, { kind: 'supervisor' }]
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
  Type.Object({ kind: Type.Literal('email'), address: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' }) }),
  // The message nodes' earlier forms (read for compatibility; see above).
  Type.Object({ kind: Type.Literal('user'), accountId: Id }),
  Type.Object({ kind: Type.Literal('value'), value: ValueRef }),
]);
export type Recipient = Static<typeof Recipient>;

export const Recipients = Type.Array(Recipient, { minItems: 1, maxItems: 100 });

/** Whom recipients name: people (account ids) and literal addresses, each once. */
export interface ResolvedRecipients {
  accountIds: string[];
  emails: string[];
}

const ADDRESS = /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/;

/**
 * The people and addresses in a value: members (`[{accountId}]`), departments (`[{departmentId}]`,
 * their people), ids, and texts of addresses (comma or semicolon separated).
 */
function collect(value: unknown, query: AssigneeQuery, emails: string[]): void {
  if (value === null || value === undefined || value === '') return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, query, emails);
    return;
  }
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.accountId === 'string') query.users.push(o.accountId);
    else if (typeof o.departmentId === 'string') query.departments.push(o.departmentId);
    return;
  }
  for (const part of String(value).split(/[,;]/).map((p) => p.trim()).filter(Boolean)) {
    if (ADDRESS.test(part)) emails.push(part);
    else query.users.push(part);
  }
}

/**
 * Resolves recipients now, for any node: member fields are read from the run's values and the
 * owner from the run's record; people and groups go through the to-do port, which keeps active
 * members of the organization only, each once, pseudo-users (`user-api`, `user-workflow`) left out.
 * Addresses (literal, or in a field's text) come back apart, for mail; the other nodes use the people.
 * @example const { accountIds } = await resolveRecipients(config.approvers, ctx)
 */
export async function resolveRecipients(recipients: readonly Recipient[], ctx: NodeContext): Promise<ResolvedRecipients> {
  const query: AssigneeQuery = { users: [], roles: [], departments: [], jobs: [], orgRoles: [], initiator: false, initiatorManager: false };
  const emails: string[] = [];
  for (const recipient of recipients) {
    switch (recipient.kind) {
      case 'user':
        query.users.push('id' in recipient ? recipient.id : recipient.accountId);
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
        collect(resolveValue({ kind: 'field', node: recipient.node, fieldId: recipient.fieldId }, ctx.values), query, emails);
        break;
      case 'value':
        collect(resolveValue(recipient.value, ctx.values), query, emails);
        break;
      case 'triggerUser':
        query.initiator = true;
        break;
      case 'supervisor':
        query.initiatorManager = true;
        break;
      case 'email':
        emails.push(recipient.address);
        break;
      case 'owner': {
        const { worksheetId, rowId } = ctx.run;
        const record = worksheetId && rowId ? await ctx.records.get(worksheetId, rowId) : null;
        collect(record?.fields._owner ?? null, query, emails);
        break;
      }
    }
  }
  return { accountIds: await ctx.todos.resolve(query), emails: [...new Set(emails)] };
}

/** The value references recipients read, with their paths, for the save-time check that their nodes run earlier. */
export function recipientReferences(recipients: readonly Recipient[], path: string): Array<{ ref: ValueRefType; path: string }> {
  return recipients.flatMap((r, i) => {
    if (r.kind === 'field') return [{ ref: { kind: 'field' as const, node: r.node, fieldId: r.fieldId }, path: `${path}[${i}]` }];
    if (r.kind === 'value') return [{ ref: r.value, path: `${path}[${i}].value` }];
    return [];
  });
}

/**
 * Problems of recipients of a node that goes to people only (every node but `send_email`): a
 * literal address is nobody there. Addresses in a field's text are left out when such a node runs.
 * @example peopleOnly(config.approvers, 'approvers', 'an approval')
 */
export function peopleOnly(recipients: readonly Recipient[], path: string, what: string): NodeProblem[] {
  return recipients.flatMap((r, i) => (r.kind === 'email' ? [{ path: `${path}[${i}]`, message: `${what} goes to people: an email address is no recipient here` }] : []));
}
