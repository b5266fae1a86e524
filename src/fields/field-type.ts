import type { LogicalColumnType } from '../db/dialect/sql-dialect.js';

/** One option of a choice field, as stored and as read in the worksheet schema. */
export interface FieldOption {
  key: string;
  value: string;
  index: number;
  isDeleted?: boolean;
  color?: string;
  score?: number;
}

/** A field as the rest of the program sees it (parsed from the `fields` table). */
export interface FieldMeta {
  id: string;
  worksheetId: string;
  name: string;
  alias: string;
  /** The public type code, e.g. "2". */
  type: string;
  required: boolean;
  isTitle: boolean;
  isUnique: boolean;
  position: number;
  options: FieldOption[];
  config: Record<string, unknown>;
  description: string;
  /**
   * The registered type that `type` names, resolved once when the field is built (from its row or its definition),
   * so that code working with a field asks it directly. Not stored and never sent: rows and the
   * worksheet schema are written from explicit properties.
   */
  readonly fieldType: FieldType;
}

/** What the type needs to know while converting one written value. */
export interface WriteContext {
  /** IANA zone for date-times written without an offset. */
  timeZone: string;
  /** How the value is named in messages, e.g. `fields[2] "Amount"`. */
  label: string;
  /**
   * The field item's `type` on the wire, when sent: how the value combines with what is stored
   * (attachments 0 overwrite / 1 append; relations 0 replace / 1 add / 2 remove).
   */
  mode?: number;
}

/** Who and what a stored id refers to, resolved once per response. */
export interface ResolvedReferences {
  accounts: Map<string, { fullname: string; avatar: string; status: number }>;
  departments: Map<string, { name: string }>;
  /** The regions that region values name, by code: the name, and the names from the top joined with `/`. */
  regions: Map<string, { name: string; path: string }>;
  /** Titles of the linked records a page shows, by record id (record ids are unique across worksheets). */
  records: Map<string, string>;
  /** The source fields of the lookups a page shows (fields of related worksheets), by field id. */
  lookupSources?: Map<string, FieldMeta>;
  /** The download link of an attached file (signed, expiring). */
  fileUrl?: (fileId: string) => string;
  /** The zone times of a record are shown in (`TIME_ZONE`), for values composed from them (auto numbers). */
  timeZone?: string;
}

/** What a value may be composed from beyond its stored form: the record it belongs to. */
export interface RecordContext {
  /** When the record was created, epoch milliseconds. */
  createdAt: number;
}

export type ReferenceKind = 'account' | 'department' | 'region';

/** What one stored value refers to (`FieldType.references`). */
export interface FieldReferences {
  kind: ReferenceKind;
  ids: string[];
  /** Regions: the deepest level (1–3) the field takes, checked when the value is written. */
  deepestLevel?: number;
}

/** A field definition as written by a client, after the type was resolved. */
export interface FieldDefinitionDraft {
  name: string;
  options: Array<Partial<FieldOption> & { value?: unknown }>;
  config: Record<string, unknown>;
}

/** The definition after the type checked it: what is stored. */
export interface PreparedDefinition {
  options: FieldOption[];
  config: Record<string, unknown>;
}

/**
 * How a list orders a field that does not sort by its stored value: by the position of the stored
 * key in `optionOrder` (unknown keys after the known ones, empty values first ascending).
 */
export interface FieldSortOrder {
  optionOrder: string[];
}

/** What a type may use while assigning values on insert; it runs inside the insert's transaction. */
export interface AssignOnInsertContext {
  /** The insert's time (epoch milliseconds) and the zone its periods are counted in (`TIME_ZONE`). */
  now: number;
  timeZone: string;
  /**
   * Reserves `count` consecutive numbers of the field's own sequence and returns the first. The
   * reservation is part of the insert's transaction: it commits or rolls back with the rows.
   * @example const first = await io.reserveSequence(field.id, 3); // 8 → the rows get 8, 9, 10
   */
  reserveSequence(fieldId: string, count: number): Promise<number>;
}

/** An input of a row computation: the field and its stored value in the record. */
export interface ComputationInput {
  field: FieldMeta;
  stored: unknown;
}

/**
 * A value computed from other fields of the same record (formula, concatenate). The definition
 * names its inputs as `$fieldIdOrAlias$` in `config.expression`; once defined they are field ids.
 */
export interface RowComputation {
  kind: 'row';
  /** The config keys whose text names fields as `$idOrAlias$` (rewritten to ids at definition). */
  referenceKeys: readonly string[];
  /** The ids of the fields the value is computed from (after definition: `$id$` references). */
  inputs(field: FieldMeta): string[];
  /**
   * Checks a definition whose references are resolved (a formula parses), given its inputs; returns
   * config to keep with it (what a date formula computes from), or nothing. Throws 10002.
   */
  settle?(field: FieldMeta, inputs: FieldMeta[]): Record<string, unknown> | void;
  /** Why a field cannot be an input (its type), or null when it can. */
  refusesInput(input: FieldMeta): string | null;
  /** The stored value from the inputs' stored values; null when it cannot be computed. */
  evaluate(field: FieldMeta, inputs: Map<string, ComputationInput>): unknown;
}

/**
 * A value computed from related records through a relation field of the same worksheet (lookup,
 * rollup): `config.relationField` and `config.sourceField` (a field of the related worksheet),
 * computed in the database for a batch of records at a time.
 */
export interface RelatedComputation {
  kind: 'related';
  /** What is computed: the source values themselves (lookup), or an aggregate of them. */
  aggregation(field: FieldMeta): RelatedAggregation;
  /** Why a field of the related worksheet cannot be the source, or null when it can. */
  refusesSource(source: FieldMeta, field: FieldMeta): string | null;
}

export type RelatedAggregation = 'lookup' | 'count' | 'filled' | 'empty' | 'sum' | 'avg' | 'min' | 'max';

/**
 * One field type. Each type is one file under `fields/types/` and one line in the registry, built
 * with `defineFieldType`, which fills in the defaults. No code outside the registry branches on a
 * type code: it asks the type (usually through `field.fieldType`).
 *
 * @example
 * export const checkbox = defineFieldType({ code: '36', name: 'Checkbox', valueKind: 'boolean', column: 'boolean', … });
 */
export interface FieldType {
  /** The public code, e.g. "2". */
  code: string;
  /** The public V3 name, e.g. "Text"; accepted on input in place of the code. */
  name: string;
  /** The kind of value, which gives the default operators and aggregations (filter issue). */
  valueKind: 'text' | 'number' | 'boolean' | 'date' | 'datetime' | 'time' | 'choices' | 'reference' | 'json' | 'none';
  /** The storage column; null for types whose values are not in a column of the row table. */
  column: LogicalColumnType | null;
  /**
   * Where values live: a `column` of the row table; `links`, rows of a link table (relations),
   * written by the record writer's link hook inside the write's transaction and read a page at a
   * time; or `none` (layout types, no value).
   */
  storage: 'column' | 'links' | 'none';
  /**
   * `files`: `write` returns an edit (files to add, keep or drop) that the record writer resolves into
   * the stored value, uploading before its transaction and settling inside it (attachments).
   */
  edits?: 'files';
  /**
   * Link storage whose related records belong to the record (sub-tables): written inline, deleted,
   * purged and restored with it, never linked from elsewhere.
   */
  owns?: boolean;
  /**
   * `record`: the stored value is the id of a record of the worksheet `config.dataSource` names
   * (cascading selects): checked to be live on write, shown with its title on read.
   */
  pointsAt?: 'record';
  /**
   * The filter operators, when they are not those of the value kind: `presence` (only isempty /
   * isnotempty: rich text, signatures, links, scanned codes) or `region` (codes compared exactly,
   * `belongsto` a province or city).
   */
  filterKind?: 'presence' | 'region' | 'department' | 'links' | 'linkPresence' | 'recordId' | 'lookup';
  /**
   * `ready`: fully supported. `planned`: known code whose behaviour arrives with a later
   * issue; a definition of it is refused with a message that says so.
   */
  availability: 'ready' | 'planned';
  /** Values are produced by the system (auto number, computed types); clients cannot write them. */
  readOnly: boolean;
  /** Whether the type may be the worksheet's title field. */
  canBeTitle: boolean;
  /** Whether `required: true` may be set. */
  canBeRequired: boolean;
  /** Whether the column benefits from (and allows) a sort index and a unique index. */
  indexable: boolean;
  /** Checks and normalizes a definition's options and config. Throws AppError 10002 / 100006. */
  prepare(draft: FieldDefinitionDraft, previous: FieldMeta | null): PreparedDefinition;
  /**
   * A written value to its stored form (null = empty). Throws AppError 10002 naming `ctx.label`.
   * Every ready type has one; planned types have none.
   */
  write?(value: unknown, field: FieldMeta, ctx: WriteContext): unknown;
  /** A stored value (decoded by the dialect; null when empty) to its wire shape; `record` when the read knows it. */
  read(stored: unknown, field: FieldMeta, refs: ResolvedReferences, record?: RecordContext): unknown;
  /** The kind of ids the type's values refer to (members, departments, regions); absent for other types. */
  referenceKind?: ReferenceKind;
  /**
   * The ids a stored value refers to, checked on write and resolved on read. Regions also say the
   * deepest level the field takes (`deepestLevel`: 1 a province, 2 a city, 3 a county), checked on write.
   * @example references('440305', field) // { kind: 'region', ids: ['440305'], deepestLevel: 3 }
   */
  references?(stored: unknown, field: FieldMeta): FieldReferences | null;
  /** Whether a stored value counts as empty for `required`. */
  isEmpty(stored: unknown): boolean;
  /**
   * How a list sorts by the field, when not by its stored value (the default, served by an index).
   * @example
   * // single choices: "Open" before "Done" because the option list says so, not because of keys or texts
   * sortOrder: (field) => ({ optionOrder: field.options.map((o) => o.key) })
   */
  sortOrder?(field: FieldMeta): FieldSortOrder;
  /**
   * Values the system assigns to new rows, one per row in insertion order; called once per insert
   * (a batch is one call) for every field whose type has it, inside the insert's transaction.
   * @example
   * // auto numbers: 1, 2, 3… in insertion order, never reused
   * async assignOnInsert(field, count, io) {
   *   const first = await io.reserveSequence(field.id, count);
   *   return Array.from({ length: count }, (_, i) => first + i);
   * }
   */
  assignOnInsert?(field: FieldMeta, count: number, io: AssignOnInsertContext): Promise<unknown[]>;
  /**
   * Computed types (read-only, stored in their column so that they filter and sort like stored
   * values): how the value follows from other fields. The record writer keeps it current inside the
   * transaction of every write that changes an input (`records/computed/`).
   */
  computed?: RowComputation | RelatedComputation;
  /** What a planned type arrives with, for the refusal message. */
  plannedFor?: string;
}
