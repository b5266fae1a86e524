import type { FieldMeta } from '../../fields/field-type.js';

/**
 * The view types of the interface: their public names and wire numbers (as the worksheet schema's
 * `views[].type` gives them), and the kinds of field each type's settings may name.
 */
export const VIEW_TYPES = {
  table: 0,
  kanban: 1,
  hierarchy: 2,
  gallery: 3,
  calendar: 4,
  gantt: 5,
  detail: 6,
  resource: 7,
  map: 8,
  plugin: 21,
} as const;

export type ViewTypeName = keyof typeof VIEW_TYPES;

/** Older names of the same types (the wire's own words for them). */
const SYNONYMS: Record<string, ViewTypeName> = { sheet: 'table', board: 'kanban', structure: 'hierarchy' };

const NAME_OF = new Map<number, ViewTypeName>(Object.entries(VIEW_TYPES).map(([name, code]) => [code, name as ViewTypeName]));

/**
 * The type a client names: a public name in any case (`"Kanban"`, `"board"`), or its wire number
 * (`1`, `"1"`); null when it names none.
 * @example viewTypeOf('calendar') // 4
 */
export function viewTypeOf(input: unknown): number | null {
  if (typeof input === 'number' || (typeof input === 'string' && /^\d+$/.test(input.trim()))) {
    const code = Number(input);
    return NAME_OF.has(code) ? code : null;
  }
  if (typeof input !== 'string') return null;
  const name = input.trim().toLowerCase();
  const known = (SYNONYMS[name] ?? name) as ViewTypeName;
  return Object.hasOwn(VIEW_TYPES, known) ? VIEW_TYPES[known] : null;
}

export function viewTypeName(code: number): ViewTypeName {
  return NAME_OF.get(code) ?? 'table';
}

/** What a setting of a view may name: a kind of field, by the type codes that are of that kind. */
export interface FieldRole {
  codes: ReadonlySet<string>;
  /** For the message: what the setting needs, e.g. "a SingleSelect, Dropdown or Collaborator field". */
  needs: string;
}

function role(codes: string[], needs: string): FieldRole {
  return { codes: new Set(codes), needs };
}

/** A board groups by one choice or one member per record. */
export const GROUP_FIELD = role(['9', '11', '26'], 'a SingleSelect, Dropdown or Collaborator field');
export const DATE_FIELD = role(['15', '16'], 'a Date or DateTime field');
export const LOCATION_FIELD = role(['40'], 'a Location field');
export const RELATION_FIELD = role(['29'], 'a Relation field');
export const COLOR_FIELD = role(['9', '11'], 'a SingleSelect or Dropdown field');
export const RESOURCE_FIELD = role(['9', '11', '26', '29'], 'a SingleSelect, Dropdown, Collaborator or Relation field');

export function fits(field: FieldMeta, needed: FieldRole): boolean {
  return needed.codes.has(field.type);
}
