import { AppError } from '../../shared/app-error.js';
import { newGuid } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { inRetriedTransaction } from '../../db/transaction.js';
import type { FieldOption } from '../../fields/field-type.js';
import { prepareOptions } from '../../fields/kinds/option-list.js';
import { applyOptionSet, fieldsUsingOptionSet, forgetCachedSchema, optionSetUsage } from '../worksheets/index.js';
import * as repository from './repository.js';
import type { OptionSet } from './repository.js';

export interface OptionSetInput {
  name?: string;
  options?: Array<Record<string, unknown>>;
  enableColor?: boolean;
  enableScore?: boolean;
}

const MAX_NAME = 100;

function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw AppError.invalidParameters('name is required');
  if (name.trim().length > MAX_NAME) throw AppError.invalidValue(`name: at most ${MAX_NAME} characters`);
  return name.trim();
}

/** Options as a set keeps them: the field option rules (keys kept by key or text, left-out ones retired, at most 1000: 100006). */
function checkOptions(name: string, options: OptionSetInput['options'], previous: OptionSet | null): FieldOption[] {
  return prepareOptions({ name, options: options ?? [] }, previous, `option set "${name}"`);
}

function presentOption(option: FieldOption) {
  return { key: option.key, value: option.value, index: option.index, isDeleted: option.isDeleted === true, color: option.color ?? '', score: option.score ?? 0 };
}

/** The application's option sets, oldest first, each with the worksheets whose fields use it. */
export async function listOptionSets(ctx: ServiceContext) {
  const [sets, usage] = await Promise.all([repository.listOptionSets(ctx.db, ctx.actor.appId), optionSetUsage(ctx.db, ctx.actor.appId)]);
  return {
    optionsets: sets.map((set) => ({
      id: set.id,
      name: set.name,
      accountId: set.accountId,
      worksheetIds: usage.get(set.id) ?? [],
      options: set.options.map(presentOption),
      enableColor: set.enableColor,
      enableScore: set.enableScore,
    })),
  };
}

export async function createOptionSet(ctx: ServiceContext, input: OptionSetInput): Promise<{ optionsetId: string }> {
  const name = checkName(input.name);
  const set: OptionSet = {
    id: newGuid(),
    appId: ctx.actor.appId,
    name,
    options: checkOptions(name, input.options, null),
    enableColor: input.enableColor === true,
    enableScore: input.enableScore === true,
    accountId: ctx.actor.accountId,
  };
  await repository.insertOptionSet(ctx.db, set, ctx.now());
  return { optionsetId: set.id };
}

/** The set, locked for the rest of the caller's transaction; 10007 when this application has no such set. */
async function loadOptionSet(ctx: ServiceContext, db: ServiceContext['db'], id: string): Promise<OptionSet> {
  const set = await repository.claimOptionSet(db, ctx.actor.appId, id);
  if (!set) throw AppError.notFound(`option set "${id}" does not exist in this application`);
  return set;
}

/**
 * Changes a set; the fields using it get its options in the same transaction (and the formulas
 * reading them are computed again), so one edit applies to every such field at once.
 */
export async function editOptionSet(ctx: ServiceContext, id: string, input: OptionSetInput): Promise<void> {
  const touched = new Set<string>();
  await inRetriedTransaction(ctx.db, ctx.dialect, async (trx) => {
    touched.clear();
    const before = await loadOptionSet(ctx, trx, id);
    const name = input.name === undefined ? before.name : checkName(input.name);
    const after: OptionSet = {
      ...before,
      name,
      options: input.options === undefined ? before.options : checkOptions(name, input.options, before),
      enableColor: input.enableColor ?? before.enableColor,
      enableScore: input.enableScore ?? before.enableScore,
    };
    await repository.updateOptionSet(trx, after, ctx.now());
    for (const worksheetId of await applyOptionSet(ctx, trx, after)) touched.add(worksheetId);
  }).finally(() => {
    for (const worksheetId of touched) forgetCachedSchema(ctx.schemas, worksheetId);
  });
}

/** Deletes a set no field uses; while fields use it, 10002 names them. */
export async function deleteOptionSet(ctx: ServiceContext, id: string): Promise<void> {
  await inRetriedTransaction(ctx.db, ctx.dialect, async (trx) => {
    const set = await loadOptionSet(ctx, trx, id);
    const using = await fieldsUsingOptionSet(trx, ctx.actor.appId, set.id);
    if (using.length > 0) {
      const names = using.map(({ field, worksheetName }) => `"${field.name}" (worksheet "${worksheetName}")`).join(', ');
      throw AppError.invalidValue(`option set "${set.name}" is used by ${using.length === 1 ? 'field' : 'fields'} ${names}; remove them or stop them using it (dataSource: "") first`);
    }
    await repository.deleteOptionSet(trx, set.id);
  });
}
