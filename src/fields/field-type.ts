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
  indexed: boolean;
  position: number;
  options: FieldOption[];
  config: Record<string, unknown>;
  description: string;
}

/** What the type needs to know while converting one written value. */
export interface WriteContext {
  /** IANA zone for date-times written without an offset. */
  timeZone: string;
  /** How the value is named in messages, e.g. `fields[2] "Amount"`. */
  label: string;
}

/** Who and what a stored id refers to, resolved once per response. */
export interface ResolvedReferences {
  accounts: Map<string, { fullname: string; avatar: string; status: number }>;
  departments: Map<string, { name: string }>;
}

export type ReferenceKind = 'account' | 'department';

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
 * One field type. Each type is one file under `fields/types/` and one line in the registry.
 * No code outside the registry branches on a type code: it asks the type.
 *
 * @example
 * export const checkbox: FieldType = { code: '36', name: 'Checkbox', column: 'boolean', … };
 */
export interface FieldType {
  /** The public code, e.g. "2". */
  code: string;
  /** The public V3 name, e.g. "Text"; accepted on input in place of the code. */
  name: string;
  /** The kind of value, which gives the default operators and aggregations (filter issue). */
  valueKind: 'text' | 'number' | 'boolean' | 'date' | 'datetime' | 'time' | 'choices' | 'reference' | 'json' | 'none';
  /** The storage column; null for layout types that hold no value. */
  column: LogicalColumnType | null;
  /**
   * `ready`: fully supported. `planned`: known code whose behaviour arrives with a later
   * issue; a definition of it is refused with a message that says so.
   */
  availability: 'ready' | 'planned';
  /** Values are produced by the system (auto number, computed types); clients cannot write them. */
  readOnly?: boolean;
  /** Set when the system assigns the value on insert. */
  assignOnInsert?: 'autoNumber';
  /** Whether the type may be the worksheet's title field. */
  canBeTitle?: boolean;
  /** Whether `required: true` may be set. */
  canBeRequired?: boolean;
  /** Whether the column benefits from (and allows) a sort index and a unique index. */
  indexable?: boolean;
  /**
   * How a list sorts by the field: by its stored value (the default, served by an index), or by
   * the position of its option in the field's option list (single choices: "Open" before "Done"
   * because the list says so, not because of their keys or texts).
   */
  sortBy?: 'value' | 'optionOrder';
  /** Checks and normalizes a definition's options and config. Throws AppError 10002 / 100006. */
  prepare?(draft: FieldDefinitionDraft, previous: FieldMeta | null): PreparedDefinition;
  /** A written value to its stored form (null = empty). Throws AppError 10002 naming `ctx.label`. */
  write?(value: unknown, field: FieldMeta, ctx: WriteContext): unknown;
  /** A stored value (decoded by the dialect) to its wire shape. */
  read?(stored: unknown, field: FieldMeta, refs: ResolvedReferences): unknown;
  /** The ids a stored value refers to, checked on write and resolved on read. */
  references?(stored: unknown): { kind: ReferenceKind; ids: string[] } | null;
  /** Whether a stored value counts as empty for `required`; default: null. */
  isEmpty?(stored: unknown): boolean;
  /** What a planned type arrives with, for the refusal message. */
  plannedFor?: string;
}
