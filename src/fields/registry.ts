import { AppError } from '../shared/app-error.js';
import type { FieldType } from './field-type.js';
import { amountInWords } from './types/amount-in-words.js';
import { apiQuery } from './types/api-query.js';
import { attachment } from './types/attachment.js';
import { autoNumber } from './types/auto-number.js';
import { barcode } from './types/barcode.js';
import { button } from './types/button.js';
import { cascadingSelect } from './types/cascading-select.js';
import { certificate } from './types/certificate.js';
import { checkbox } from './types/checkbox.js';
import { codeScan } from './types/code-scan.js';
import { collaborator } from './types/collaborator.js';
import { concatenate } from './types/concatenate.js';
import { currency } from './types/currency.js';
import { customField } from './types/custom-field.js';
import { dateFormula } from './types/date-formula.js';
import { dateTime } from './types/date-time.js';
import { date } from './types/date.js';
import { department } from './types/department.js';
import { divider } from './types/divider.js';
import { dropdown } from './types/dropdown.js';
import { dynamicLink } from './types/dynamic-link.js';
import { email } from './types/email.js';
import { embed } from './types/embed.js';
import { formula } from './types/formula.js';
import { functionFormula } from './types/function-formula.js';
import { landlinePhone } from './types/landline-phone.js';
import { location } from './types/location.js';
import { lookup } from './types/lookup.js';
import { multipleSelect } from './types/multiple-select.js';
import { number } from './types/number.js';
import { ocr } from './types/ocr.js';
import { orgRole } from './types/org-role.js';
import { phoneNumber } from './types/phone-number.js';
import { queryRecord } from './types/query-record.js';
import { rating } from './types/rating.js';
import { regionCity } from './types/region-city.js';
import { regionCounty } from './types/region-county.js';
import { regionProvince } from './types/region-province.js';
import { relation } from './types/relation.js';
import { richText } from './types/rich-text.js';
import { role } from './types/role.js';
import { rollup } from './types/rollup.js';
import { section } from './types/section.js';
import { signature } from './types/signature.js';
import { singleSelect } from './types/single-select.js';
import { subTable } from './types/sub-table.js';
import { text } from './types/text.js';
import { time } from './types/time.js';

/**
 * Every public field type, one line each. The first type registered under a public name is
 * the one that name selects on input (several region codes share the name "Region").
 */
const ALL_TYPES: readonly FieldType[] = [
  regionCounty,
  amountInWords,
  apiQuery,
  attachment,
  autoNumber,
  barcode,
  button,
  cascadingSelect,
  certificate,
  checkbox,
  codeScan,
  collaborator,
  concatenate,
  currency,
  customField,
  dateFormula,
  dateTime,
  date,
  department,
  divider,
  dropdown,
  dynamicLink,
  email,
  embed,
  formula,
  functionFormula,
  landlinePhone,
  location,
  lookup,
  multipleSelect,
  number,
  ocr,
  orgRole,
  phoneNumber,
  queryRecord,
  rating,
  regionCity,
  regionProvince,
  relation,
  richText,
  role,
  rollup,
  section,
  signature,
  singleSelect,
  subTable,
  text,
  time,
];

/**
 * Other names clients send for a type, mapped to its code (the table in docs/api.md). Only names real
 * clients use: the short forms of scripts and tools (`Phone`, `Money`, `MultiSelect`, `File`), the
 * workflow parameter types (`Radio`, `Member`), and the front end's control names (`MOBILE_PHONE`,
 * `FLAT_MENU`, `USER_PICKER`, `RELATE_SHEET`…). Names are compared without case, `_`, `-` or spaces,
 * so `MULTI_SELECT`, `multi-select` and `MultiSelect` are one. Public names are never aliases: the
 * front end's `RELATION` (DynamicLink) is not taken, since `Relation` is type 29.
 */
const TYPE_ALIASES: Record<string, string> = {
  Phone: '3', MobilePhone: '3',
  Landline: '4', Telephone: '4',
  Cred: '7',
  Money: '8',
  FlatMenu: '9', Radio: '9',
  MultiSelect: '10',
  File: '14',
  AreaProvince: '19', AreaCity: '23', AreaCounty: '24', Area: '24',
  Link: '21',
  SplitLine: '22',
  MoneyCn: '25',
  Member: '26', UserPicker: '26',
  Score: '28',
  RelateSheet: '29',
  SheetField: '30',
  FormulaNumber: '31',
  AutoId: '33',
  SubList: '34',
  Cascader: '35',
  Switch: '36',
  Subtotal: '37',
  FormulaDate: '38',
  FormulaFunc: '53',
};

/** How names are compared: without case, `_`, `-` or white space. */
function nameKey(name: string): string {
  return name.replace(/[\s_-]+/g, '').toLowerCase();
}

const byCode = new Map<string, FieldType>();
const byName = new Map<string, FieldType>();
for (const type of ALL_TYPES) {
  if (byCode.has(type.code)) throw new Error(`field type code ${type.code} registered twice`);
  byCode.set(type.code, type);
  if (!byName.has(nameKey(type.name))) byName.set(nameKey(type.name), type);
}
for (const [alias, code] of Object.entries(TYPE_ALIASES)) {
  const type = byCode.get(code);
  if (!type) throw new Error(`type alias ${alias} names unknown code ${code}`);
  if (byName.has(nameKey(alias))) throw new Error(`type alias ${alias} is already a name`);
  byName.set(nameKey(alias), type);
}

/** Every registered type, in registration order. */
export function allFieldTypes(): readonly FieldType[] {
  return ALL_TYPES;
}

/** The type of a stored field; its code came from the registry, so it is always there. */
export function fieldTypeOf(code: string): FieldType {
  const type = byCode.get(code);
  if (!type) throw new Error(`unknown stored field type ${code}`);
  return type;
}

/** The names accepted for each type besides its public name, for docs and tests. */
export function typeAliases(): Readonly<Record<string, string>> {
  return TYPE_ALIASES;
}

/**
 * The type a client names, by code (`"2"`, `2`), public name (`"Text"`, any case) or a common
 * alias (`"Phone"`, `"MULTI_SELECT"`).
 * @example resolveFieldType('Dropdown', 'addFields[0].type').code === '11'
 * @example resolveFieldType('Money', 'fields[2].type').name === 'Currency'
 */
export function resolveFieldType(input: unknown, where: string): FieldType {
  const key = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim() : '';
  const type = byCode.get(key) ?? (key === '' ? undefined : byName.get(nameKey(key)));
  if (!type) throw AppError.invalidValue(`${where}: unknown field type ${JSON.stringify(input)}`);
  return type;
}
