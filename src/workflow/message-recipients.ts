import { Type, type Static } from '@sinclair/typebox';
import { resolveValue, ValueRef, type ValueRef as ValueRefType, type ValueScope } from './value-refs.js';

/**
 * Who a message (mail, in-app notice) goes to (facts §7.4 recipients): a person by account id, the
 * run's initiator, the people or addresses a value holds (a member field, a text field of addresses,
 * an input), or a literal address (mail only).
 * @example [{ kind: 'triggerUser' }, { kind: 'value', value: { kind: 'field', node: 'start', fieldId: 'owner' } }, { kind: 'email', address: 'ops@example.com' }]
 */
export const Recipient = Type.Union([
  Type.Object({ kind: Type.Literal('user'), accountId: Type.String({ minLength: 1 }) }),
  Type.Object({ kind: Type.Literal('triggerUser') }),
  Type.Object({ kind: Type.Literal('value'), value: ValueRef }),
  Type.Object({ kind: Type.Literal('email'), address: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' }) }),
]);
export type Recipient = Static<typeof Recipient>;

const ADDRESS = /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/;

/** The people (account ids) and addresses of a value: members, ids, and texts of addresses (comma or semicolon separated). */
function collect(value: unknown, into: { accountIds: string[]; emails: string[] }): void {
  if (value === null || value === undefined || value === '') return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, into);
    return;
  }
  if (typeof value === 'object') {
    const accountId = (value as { accountId?: unknown }).accountId;
    if (typeof accountId === 'string') into.accountIds.push(accountId);
    return;
  }
  for (const part of String(value).split(/[,;]/).map((p) => p.trim()).filter(Boolean)) {
    if (ADDRESS.test(part)) into.emails.push(part);
    else into.accountIds.push(part);
  }
}

/** Resolves recipients against the run's values: the account ids and literal addresses they name, each once. */
export function resolveRecipients(recipients: readonly Recipient[], scope: ValueScope): { accountIds: string[]; emails: string[] } {
  const found = { accountIds: [] as string[], emails: [] as string[] };
  for (const recipient of recipients) {
    if (recipient.kind === 'user') found.accountIds.push(recipient.accountId);
    else if (recipient.kind === 'triggerUser') found.accountIds.push(scope.triggeredBy);
    else if (recipient.kind === 'email') found.emails.push(recipient.address);
    else collect(resolveValue(recipient.value, scope), found);
  }
  // Pseudo-users (user-api, user-workflow) are nobody to write to.
  return { accountIds: [...new Set(found.accountIds.filter((id) => !id.startsWith('user-')))], emails: [...new Set(found.emails)] };
}

/** The value references of recipients, with their paths, for checks at save time. */
export function recipientReferences(recipients: readonly Recipient[], path: string): Array<{ ref: ValueRefType; path: string }> {
  return recipients.flatMap((r, i) => (r.kind === 'value' ? [{ ref: r.value, path: `${path}[${i}].value` }] : []));
}
