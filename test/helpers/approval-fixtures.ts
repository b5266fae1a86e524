import { expect } from 'vitest';
import type { NodeSpec } from '../../src/workflow/index.js';
import { TriggerType } from '../../src/workflow/index.js';
import type { ApiContext, Envelope } from './api-harness.js';
import type { TokenPerson } from './people.js';
import { makeSheet, type Sheet } from './record-fixtures.js';
import { node, publishDirect } from './workflow-fixtures.js';

/** Fixtures of approval workflows: a worksheet, flows of approval blocks, and calls of the to-do endpoints. */

export const START = 'start_ap';
export const BLOCK = 'approval';
export const TODO = '/v3/app/workflow/instance';

/** A worksheet of expenses: title, amount, status (set by the flows), comment (filled in), approver (members). */
export function expenseSheet(ctx: ApiContext, name: string): Promise<Sheet> {
  return makeSheet(ctx, name, [
    { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
    { name: 'Amount', alias: 'amount', type: '6' },
    { name: 'Status', alias: 'status', type: '2' },
    { name: 'Comment', alias: 'comment', type: '2' },
    { name: 'Approver', alias: 'approver', type: '26' },
  ]);
}

/** Publishes a flow triggered by records created in `sheet`. */
export function publishFlow(ctx: ApiContext, sheet: Sheet, nodes: NodeSpec[], now: number): Promise<string> {
  return publishDirect(ctx, { type: TriggerType.worksheet, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, event: 'create' } }, nodes, now);
}

export const user = (person: { id: string }) => ({ kind: 'user' as const, id: person.id });

/** An approval block right after the trigger. */
export const block = (config: Record<string, unknown> = {}, alias = BLOCK) => node(alias, 'approval_block', config, START);

/** An approve step inside the block (first when `prev` is null). */
export const approveStep = (alias: string, config: Record<string, unknown>, prev: string | null = null, parent = BLOCK) => node(alias, 'approve', config, prev, parent);

/** An update of the triggering record's status, after `prev` (at the top level, or in `parent`). */
export const markStatus = (sheet: Sheet, value: string, prev: string | null = BLOCK, alias = 'mark', parent: string | null = null) =>
  node(alias, 'update_record', { worksheetId: sheet.id, record: { kind: 'record', node: START }, fields: [{ fieldId: sheet.field.status, value: { kind: 'literal', value } }] }, prev, parent);

/** One entry of a to-do list. */
export interface ListEntry {
  id: string;
  workId: string | null;
  type: number;
  status: number;
  workStatus: number | null;
  nodeAlias: string | null;
  title: string;
  processName: string;
  assignee?: { accountId: string };
  assignees?: Array<{ accountId: string }>;
  action?: string | null;
  opinion?: string | null;
}

/** The caller's list of one type (asserting success). */
export async function todoList(ctx: ApiContext, who: TokenPerson | null, query: string): Promise<{ instances: ListEntry[]; total: number }> {
  const listed = await ctx.call<{ instances: ListEntry[]; total: number }>('GET', `${TODO}/list?${query}`, undefined, who?.headers);
  expect(listed.body.error_msg).toBe('');
  return listed.body.data;
}

/** The batch result. */
export interface BatchData {
  success: string[];
  fail: Array<{ id: string; error_code: number; error_msg: string }>;
}

/** Sends a batch as `who` (the app key when null). */
export async function batch(ctx: ApiContext, who: TokenPerson | null, body: unknown): Promise<Envelope<BatchData>> {
  return (await ctx.call<BatchData>('POST', `${TODO}/batch`, body, who?.headers)).body;
}

/** Decides the caller's pending to-do of an instance in the plain form, asserting it succeeded. */
export async function decideAs(ctx: ApiContext, who: TokenPerson, action: string, instanceId: string, extra: Record<string, unknown> = {}): Promise<void> {
  const result = await batch(ctx, who, { action, items: [{ id: instanceId, ...extra }] });
  expect(result.error_msg).toBe('');
  expect(result.data).toEqual({ success: [instanceId], fail: [] });
}

/** Posts an instance action (`revoke`, `return`, `terminate`, `urge`, `resubmit`) as `who`. */
export async function instanceAction<T = null>(ctx: ApiContext, who: TokenPerson | null, instanceId: string, action: string, body: unknown = {}): Promise<Envelope<T>> {
  return (await ctx.call<T>('POST', `${TODO}/${instanceId}/${action}`, body, who?.headers)).body;
}

/** The to-dos of a run as stored, oldest first: `[assignee, kind, status, action]`. */
export async function storedItems(ctx: ApiContext, runId: string) {
  const rows = await ctx.database.db.selectFrom('workflow_work_items').selectAll().where('run_id', '=', runId).orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({ ...r, kind: Number(r.kind), status: Number(r.status), seq: Number(r.seq) }));
}

/** The one run of a workflow (asserting there is exactly one). */
export async function onlyRun(ctx: ApiContext, workflowId: string) {
  const runs = await ctx.database.db.selectFrom('workflow_runs').selectAll().where('workflow_id', '=', workflowId).execute();
  expect(runs).toHaveLength(1);
  return runs[0];
}

/** Notifications of an account as stored, oldest first. */
export async function notificationsOf(ctx: ApiContext, accountId: string) {
  return ctx.database.db.selectFrom('notifications').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
}
