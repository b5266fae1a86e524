import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import type { Executor } from '../../db/connection.js';
import type { FieldMeta, FieldOption } from '../../fields/field-type.js';
import { claimOptionSet, type OptionSet } from '../option-sets/index.js';
import { dependenciesOf } from './computed-fields.js';
import { recomputeFields } from './recompute-fields.js';
import * as repository from './repository.js';

/**
 * Choice fields may take their options from an option set of their application: the field's
 * `config.dataSource` names the set, and the field keeps a copy of the set's options, which every
 * edit of the set rewrites (in the edit's transaction), so that every read path sees a field's
 * options as always.
 */

/** The option set a field uses, or null. */
export function optionSetIdOf(field: FieldMeta): string | null {
  const source = field.config.dataSource;
  return field.fieldType.valueKind === 'choices' && typeof source === 'string' && source !== '' ? source : null;
}

/**
 * The field with the set's options. Options of the field that the set does not hold (it had its own
 * before it used the set) are kept, retired, so that stored values still read as their text.
 */
function withSetOptions(field: FieldMeta, set: OptionSet): FieldMeta {
  const keys = new Set(set.options.map((o) => o.key));
  const own: FieldOption[] = field.options.filter((o) => !keys.has(o.key)).map((o) => ({ ...o, isDeleted: true }));
  return {
    ...field,
    options: [...set.options.map((o) => ({ ...o })), ...own].sort((a, b) => a.index - b.index),
    config: { ...field.config, dataSource: set.id, enableColor: set.enableColor, enableScore: set.enableScore },
  };
}

/**
 * Resolves the option sets that fields of a definition name (inside the change's transaction):
 * choice fields take the set's options; an unknown set, or a set named by a field of another type,
 * is 10002 naming the field. `dataSource: ""` on a choice field stops using the set (the field keeps
 * its options as its own). The sets are claimed (locked) until the change commits, so that an edit
 * or a deletion of a set running at the same time cannot miss the field.
 */
export async function linkOptionSets(trx: Executor, appId: string, fields: FieldMeta[]): Promise<FieldMeta[]> {
  const sets = new Map<string, OptionSet | undefined>();
  const setOf = async (id: string) => {
    if (!sets.has(id)) sets.set(id, await claimOptionSet(trx, appId, id));
    return sets.get(id);
  };
  const linked: FieldMeta[] = [];
  for (const field of fields) {
    const source = field.config.dataSource;
    if (field.fieldType.valueKind !== 'choices') {
      if (typeof source === 'string' && source !== '' && (await setOf(source))) {
        throw AppError.invalidValue(`field "${field.name}": only SingleSelect, MultipleSelect and Dropdown fields can use an option set, not ${field.fieldType.name}`);
      }
      linked.push(field);
      continue;
    }
    if (source === undefined || source === null || source === '') {
      if (source !== undefined) {
        const { dataSource: _dropped, ...config } = field.config;
        linked.push({ ...field, config });
      } else linked.push(field);
      continue;
    }
    const set = typeof source === 'string' ? await setOf(source) : undefined;
    if (!set) throw AppError.invalidValue(`field "${field.name}": dataSource "${String(source)}" is not an option set of this application`);
    linked.push(withSetOptions(field, set));
  }
  return linked;
}

/** The fields of an application that use an option set, with the names of their worksheets. */
export async function fieldsUsingOptionSet(db: Executor, appId: string, setId: string): Promise<Array<{ field: FieldMeta; worksheetName: string }>> {
  const schemas = await repository.schemasOfApp(db, appId);
  return schemas.flatMap((schema) => schema.fields.filter((f) => optionSetIdOf(f) === setId).map((field) => ({ field, worksheetName: schema.name })));
}

/** The ids of the option sets the fields of an application use, with the worksheets they are on. */
export async function optionSetUsage(db: Executor, appId: string): Promise<Map<string, string[]>> {
  const usage = new Map<string, string[]>();
  for (const schema of await repository.schemasOfApp(db, appId)) {
    for (const field of schema.fields) {
      const setId = optionSetIdOf(field);
      if (!setId) continue;
      const worksheets = usage.get(setId) ?? [];
      if (!worksheets.includes(schema.id)) worksheets.push(schema.id);
      usage.set(setId, worksheets);
    }
  }
  return usage;
}

/**
 * Gives every field using the set the set's options (inside the set edit's transaction), and
 * computes again the formulas that read such a field (scores may have changed). Returns the ids of
 * the worksheets changed: the caller forgets their cached schemas once the transaction is over.
 */
export async function applyOptionSet(ctx: ServiceContext, trx: Executor, set: OptionSet): Promise<string[]> {
  const schemas = await repository.schemasOfApp(trx, set.appId);
  const changed: string[] = [];
  const using = new Set<string>();
  for (const schema of schemas) {
    const fields = schema.fields.filter((f) => optionSetIdOf(f) === set.id);
    if (fields.length === 0) continue;
    changed.push(schema.id);
    for (const field of fields) {
      await repository.replaceField(trx, withSetOptions(field, set));
      using.add(field.id);
    }
  }
  // Formulas on the same worksheet and rollups on related ones read the fields' scores.
  for (const schema of schemas) {
    const readers = schema.fields.filter((f) => dependenciesOf(f).some((id) => using.has(id)));
    if (readers.length > 0) {
      await recomputeFields(trx, ctx.dialect, set.appId, schema.id, new Set(readers.map((f) => f.id)), { now: ctx.now(), timeZone: ctx.timeZone });
    }
  }
  return changed;
}
