import { AppError } from '../../shared/app-error.js';
import type { FieldMeta } from '../../fields/field-type.js';
import type { WorksheetSchema } from '../worksheets/index.js';
import { fits, type FieldRole } from './view-types.js';

/**
 * Checks the settings of one view of a request, and names the view and the key in every error:
 * `view "Open deals": views[1].config.groupField: no field "stage" in this worksheet` (10002).
 * Field references are taken as ids or aliases and given back as ids.
 */
export class ViewChecker {
  constructor(
    readonly schema: WorksheetSchema,
    /** How messages name the view: `view "Open deals"`. */
    readonly label: string,
    /** Before every key: `views[1].` in a batch, empty for one view. */
    readonly path: string,
  ) {}

  /** The full name of a key of this view, for messages: `views[1].config.groupField`. */
  key(key: string): string {
    return `${this.path}${key}`;
  }

  fail(key: string, message: string): never {
    throw AppError.invalidValue(`${this.label}: ${this.key(key)}: ${message}`);
  }

  missing(key: string, message: string): never {
    throw AppError.invalidParameters(`${this.label}: ${this.key(key)} is required: ${message}`);
  }

  /** The field a setting names (id or alias), of the kind it needs. */
  fieldMeta(key: string, ref: unknown, needed?: FieldRole): FieldMeta {
    if (typeof ref !== 'string' || ref.trim() === '') this.fail(key, 'expected a field id or alias');
    const field = this.schema.byKey.get(ref);
    if (!field) this.fail(key, `no field "${ref.slice(0, 80)}" in this worksheet`);
    if (needed && !fits(field, needed)) this.fail(key, `"${field.name}" is a ${field.fieldType.name} field; this needs ${needed.needs}`);
    return field;
  }

  /** The id of the field a setting names. */
  field(key: string, ref: unknown, needed?: FieldRole): string {
    return this.fieldMeta(key, ref, needed).id;
  }

  /** A required field setting: missing is 10001, anything else as `field`. */
  requiredField(key: string, ref: unknown, needed: FieldRole, what: string): string {
    if (ref === undefined || ref === null || ref === '') this.missing(key, what);
    return this.field(key, ref, needed);
  }

  /** An optional field setting: absent, null or empty is none. */
  optionalField(key: string, ref: unknown, needed?: FieldRole): string | null {
    return ref === undefined || ref === null || ref === '' ? null : this.field(key, ref, needed);
  }

  /** A list of field references (blank entries skipped), as ids, each once. */
  fields(key: string, refs: unknown, max?: number): string[] {
    if (refs === undefined || refs === null) return [];
    if (!Array.isArray(refs)) this.fail(key, 'expected an array of field ids or aliases');
    const ids: string[] = [];
    refs.forEach((ref, i) => {
      if (ref === '') return;
      const id = this.field(`${key}[${i}]`, ref);
      if (!ids.includes(id)) ids.push(id);
    });
    if (max !== undefined && ids.length > max) this.fail(key, `at most ${max} field${max === 1 ? '' : 's'}`);
    return ids;
  }

  /** Runs a check that throws AppErrors without the view's name (the filter compiler), adding it. */
  named<T>(check: () => T): T {
    try {
      return check();
    } catch (error) {
      if (error instanceof AppError) throw new AppError(error.code, error.httpStatus, `${this.label}: ${error.message}`, error.details);
      throw error;
    }
  }
}
