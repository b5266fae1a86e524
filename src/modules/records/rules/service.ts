import { inTransaction } from '../../../db/transaction.js';
import type { FilterScope } from '../../../query/index.js';
import { AppError } from '../../../shared/app-error.js';
import { newObjectId } from '../../../shared/ids.js';
import type { ServiceContext } from '../../../shared/service-context.js';
import { forgetCachedSchema, loadSchema, type WorksheetSchema } from '../../worksheets/index.js';
import { checkCondition, conditionProblem } from './condition.js';
import * as repository from './repository.js';

/*
 * Every change of rules drops the worksheet's cached schema: the record writer keeps the enabled
 * rules with it (`rule-hook.ts`).
 */

/** Longest name and message, in characters. */
const MAX_NAME_LENGTH = 100;
const MAX_MESSAGE_LENGTH = 500;

export interface RuleInput {
  name?: string;
  condition?: unknown;
  message?: string;
  enabled?: boolean;
}

/** A rule as the API shows it: its condition as stored (fields by id). */
export interface Rule {
  id: string;
  name: string;
  condition: unknown;
  message: string;
  enabled: boolean;
  position: number;
  /**
   * Why the rule checks nothing now (a field its condition names was deleted or changed type since it
   * was saved), or '' while it works. Such a rule is kept, so that it can be mended with PATCH.
   */
  problem: string;
  createdAt: string;
  updatedAt: string;
}

function present(row: repository.RuleRow, scope: FilterScope): Rule {
  return {
    id: row.id,
    name: row.name,
    condition: JSON.parse(row.condition) as unknown,
    message: row.message,
    enabled: Number(row.enabled) === 1,
    position: Number(row.position),
    problem: conditionProblem(scope, row.condition) ?? '',
    createdAt: new Date(Number(row.created_at)).toISOString(),
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}

/** A name or message, trimmed: not empty, not too long (10002 naming it). */
function checkText(value: string, key: string, most: number): string {
  const text = value.trim();
  if (text === '') throw AppError.invalidValue(`${key}: must not be empty`);
  if ([...text].length > most) throw AppError.invalidValue(`${key}: at most ${most} characters`);
  return text;
}

function scopeOf(ctx: ServiceContext, schema: WorksheetSchema): FilterScope {
  return { schema, dialect: ctx.dialect, now: ctx.now(), timeZone: ctx.timeZone, selfAccountId: ctx.actor.accountId };
}

async function ruleOf(ctx: ServiceContext, schema: WorksheetSchema, ruleId: string): Promise<repository.RuleRow> {
  const row = await repository.findRule(ctx.db, schema.id, ruleId);
  if (!row) throw AppError.notFound(`rule_id: no rule "${ruleId.slice(0, 80)}" in this worksheet`);
  return row;
}

export async function listRules(ctx: ServiceContext, worksheetKey: string): Promise<{ rules: Rule[] }> {
  const schema = await loadSchema(ctx, worksheetKey);
  const scope = scopeOf(ctx, schema);
  return { rules: (await repository.listRules(ctx.db, schema.id)).map((row) => present(row, scope)) };
}

/** Creates one rule, after the worksheet's last; its condition is checked as a list filter is. */
export async function createRule(ctx: ServiceContext, worksheetKey: string, input: RuleInput): Promise<Rule> {
  const schema = await loadSchema(ctx, worksheetKey);
  if (input.name === undefined) throw AppError.invalidParameters('name is required');
  if (input.message === undefined) throw AppError.invalidParameters('message is required (what a refused write answers)');
  if (input.condition === undefined || input.condition === null) throw AppError.invalidParameters('condition is required (a filter: records matching it are refused)');
  const name = checkText(input.name, 'name', MAX_NAME_LENGTH);
  const message = checkText(input.message, 'message', MAX_MESSAGE_LENGTH);
  const condition = JSON.stringify(checkCondition(scopeOf(ctx, schema), input.condition));
  const now = ctx.now();
  const id = newObjectId();
  await inTransaction(ctx.db, async (trx) => {
    const position = await repository.nextPosition(trx, schema.id);
    await repository.insertRule(trx, { id, worksheet_id: schema.id, name, condition, message, enabled: input.enabled === false ? 0 : 1, position, created_at: now, updated_at: now });
  });
  forgetCachedSchema(ctx.schemas, schema.id);
  return present((await repository.findRule(ctx.db, schema.id, id))!, scopeOf(ctx, schema));
}

/** Changes any of name, condition, message and enabled. */
export async function updateRule(ctx: ServiceContext, worksheetKey: string, ruleId: string, input: RuleInput): Promise<Rule> {
  const schema = await loadSchema(ctx, worksheetKey);
  await ruleOf(ctx, schema, ruleId);
  const changes: Partial<repository.RuleRow> = { updated_at: ctx.now() };
  if (input.name !== undefined) changes.name = checkText(input.name, 'name', MAX_NAME_LENGTH);
  if (input.message !== undefined) changes.message = checkText(input.message, 'message', MAX_MESSAGE_LENGTH);
  if (input.condition === null) throw AppError.invalidParameters('condition: a rule needs one; disable the rule (enabled: false) or delete it instead');
  if (input.condition !== undefined) changes.condition = JSON.stringify(checkCondition(scopeOf(ctx, schema), input.condition));
  if (input.enabled !== undefined) changes.enabled = input.enabled ? 1 : 0;
  await repository.updateRule(ctx.db, ruleId, changes);
  forgetCachedSchema(ctx.schemas, schema.id);
  return present(await ruleOf(ctx, schema, ruleId), scopeOf(ctx, schema));
}

export async function deleteRule(ctx: ServiceContext, worksheetKey: string, ruleId: string): Promise<void> {
  const schema = await loadSchema(ctx, worksheetKey);
  await ruleOf(ctx, schema, ruleId);
  await repository.deleteRule(ctx.db, ruleId);
  forgetCachedSchema(ctx.schemas, schema.id);
}
