import type { Executor } from '../../../db/connection.js';
import type { FilterScope } from '../../../query/index.js';
import { AppError } from '../../../shared/app-error.js';
import { ErrorCode } from '../../../shared/error-codes.js';
import { rows } from '../repository.js';
import type { HookContext, RecordChange, RecordHook } from '../writer.js';
import type { Recomputed } from '../computed/propagate.js';
import type { World } from '../computed/world.js';
import { compileCondition } from './condition.js';
import { enabledRules } from './repository.js';
import type { WorksheetSchema } from '../../worksheets/index.js';

/** Changed records asked about per statement (well under either engine's parameter limit). */
const IDS_PER_STATEMENT = 500;

/** The kinds of change that leave a record live with (possibly) new values. */
const CHECKED = new Set<RecordChange['kind']>(['create', 'update', 'restore']);

type EnabledRules = Awaited<ReturnType<typeof enabledRules>>;

/**
 * A worksheet's enabled rules, kept with its loaded schema: a rule change drops the cached schema
 * (`service.ts`), so the next write of this process reads them again, and other processes within the
 * schema cache's lifetime, as for every other change of structure. Saves a statement per write.
 */
const rulesBySchema = new WeakMap<WorksheetSchema, EnabledRules>();

async function rulesOf(trx: Executor, schema: WorksheetSchema): Promise<EnabledRules> {
  let rules = rulesBySchema.get(schema);
  if (!rules) {
    rules = await enabledRules(trx, schema.id);
    rulesBySchema.set(schema, rules);
  }
  return rules;
}

/** How a refused record is named: by its position among the records a batch creates, and its id. */
function recordLabel(changes: RecordChange[], rowId: string): string {
  const creates = changes.filter((c) => c.kind === 'create');
  const position = creates.findIndex((c) => c.rowId === rowId);
  return position >= 0 ? `rows[${position}] (record "${rowId}")` : `record "${rowId}"`;
}

/** The first enabled rule one of `ids` (live records of the hook's worksheet) now matches, with that record. */
async function firstViolation(hook: HookContext, ids: string[]): Promise<{ rule: EnabledRules[number]; rowId: string } | null> {
  if (ids.length === 0) return null;
  const rules = await rulesOf(hook.trx, hook.schema);
  if (rules.length === 0) return null;
  const scope: FilterScope = { schema: hook.schema, dialect: hook.dialect, now: hook.now, timeZone: hook.timeZone, selfAccountId: hook.actorId };
  for (const rule of rules) {
    const predicate = compileCondition(scope, rule.condition);
    // A condition naming a field deleted since no longer compiles: the rule cannot match anything (the rules list flags it).
    if (!predicate) continue;
    for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
      const found = await rows(hook.trx)
        .selectFrom(hook.schema.table)
        .select('id')
        .where('id', 'in', ids.slice(start, start + IDS_PER_STATEMENT))
        .where('_deleted_at', 'is', null)
        .where(predicate.expression)
        .limit(1)
        .executeTakeFirst();
      if (found) return { rule, rowId: String(found.id) };
    }
  }
  return null;
}

/** How a record the write did not name is named: with its worksheet. */
function reachedLabel(schema: WorksheetSchema, rowId: string): string {
  return `record "${rowId}" of worksheet "${schema.name}"`;
}

function refusal(rule: EnabledRules[number], rowId: string, message: string): AppError {
  return new AppError(ErrorCode.BusinessRuleViolated, 400, message, { ruleId: rule.id, rowId });
}

/**
 * Refuses a write after which a record matches an enabled business rule of its worksheet (430021,
 * with the rule's message; naming the record when the write has several). It runs inside the
 * write's transaction after computed values are updated, so the statement sees what the write
 * leaves; one statement per enabled rule, through the same filter compiler as lists. Throwing rolls
 * the whole write back.
 */
export const enforceBusinessRules: RecordHook = async (changes, hook) => {
  const found = await firstViolation(hook, changes.filter((c) => CHECKED.has(c.kind)).map((c) => c.rowId));
  if (!found) return;
  if (hook.reached) throw refusal(found.rule, found.rowId, `${reachedLabel(hook.schema, found.rowId)}, whose relation this write changes: ${found.rule.message}`);
  throw refusal(found.rule, found.rowId, changes.length === 1 ? found.rule.message : `${recordLabel(changes, found.rowId)}: ${found.rule.message}`);
};

/**
 * Refuses a write that leaves some other record matching a rule through its computed values: a line
 * item added, changed or deleted changes the order's rollup, and a rule on the order's total then
 * holds for the order. Checked for every record whose lookups, rollups or formulas the write computed
 * again, except those the write's own hooks checked already (`checked`, by worksheet).
 */
export async function enforceRulesOnRecomputed(base: Omit<HookContext, 'schema'>, world: World, recomputed: Recomputed, checked: Map<string, Set<string>>): Promise<void> {
  for (const [worksheetId, rowIds] of recomputed) {
    const schema = world.get(worksheetId);
    if (!schema) continue;
    const seen = checked.get(worksheetId);
    const found = await firstViolation({ ...base, schema }, [...rowIds].filter((id) => !seen?.has(id)));
    if (!found) continue;
    throw refusal(found.rule, found.rowId, `${reachedLabel(schema, found.rowId)}, whose computed values this write changes: ${found.rule.message}`);
  }
}
