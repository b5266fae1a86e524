import { linkageOf } from '../../fields/types/relation.js';
import type { ViewChecker } from './view-checker.js';
import { DATE_FIELD, GROUP_FIELD, LOCATION_FIELD, RELATION_FIELD, RESOURCE_FIELD, type ViewTypeName } from './view-types.js';

type Config = Record<string, unknown>;

/**
 * The settings each view type needs in `config`, checked: the fields they name exist and are of the
 * kind the type needs; the result holds them as field ids. Keys a type does not read are kept as sent.
 */
type ConfigCheck = (config: Config, check: ViewChecker) => Config;

function dateRange(config: Config, check: ViewChecker, what: string): Config {
  return {
    startField: check.requiredField('config.startField', config.startField, DATE_FIELD, what),
    endField: check.requiredField('config.endField', config.endField, DATE_FIELD, what),
  };
}

const SETTINGS: Partial<Record<ViewTypeName, ConfigCheck>> = {
  kanban: (config, check) => ({ groupField: check.requiredField('config.groupField', config.groupField, GROUP_FIELD, 'the field a board groups its cards by') }),
  calendar: (config, check) => {
    // One range may be given flat, as gantt views take it: {startField, endField}.
    const dates: unknown = config.dates ?? (config.startField !== undefined ? [{ startField: config.startField, endField: config.endField }] : undefined);
    if (dates === undefined || dates === null || (Array.isArray(dates) && dates.length === 0)) check.missing('config.dates', 'a calendar needs [{startField, endField?}] of Date or DateTime fields');
    if (!Array.isArray(dates)) return check.fail('config.dates', 'expected an array of {startField, endField?}');
    return {
      dates: dates.map((range: unknown, i: number) => {
        const { startField, endField } = (typeof range === 'object' && range !== null ? range : {}) as Config;
        const start = check.requiredField(`config.dates[${i}].startField`, startField, DATE_FIELD, 'the date a calendar entry starts on');
        const end = check.optionalField(`config.dates[${i}].endField`, endField, DATE_FIELD);
        return end ? { startField: start, endField: end } : { startField: start };
      }),
    };
  },
  gantt: (config, check) => dateRange(config, check, 'a gantt bar runs from a start date to an end date'),
  resource: (config, check) => ({
    ...dateRange(config, check, 'a resource view places each record from a start date to an end date'),
    resourceField: check.requiredField('config.resourceField', config.resourceField, RESOURCE_FIELD, 'the field whose values are the resources (rows)'),
  }),
  map: (config, check) => ({ locationField: check.requiredField('config.locationField', config.locationField, LOCATION_FIELD, 'the field that places each record on the map') }),
  hierarchy: (config, check) => {
    const childType = config.childType === undefined ? 1 : Number(config.childType);
    if (childType !== 1) check.fail('config.childType', 'only 1 (a self relation) is supported; a hierarchy over several worksheets is not');
    if (config.relationField === undefined || config.relationField === null || config.relationField === '') {
      check.missing('config.relationField', 'a hierarchy needs a Relation field of the worksheet to itself (its parent)');
    }
    const field = check.fieldMeta('config.relationField', config.relationField, RELATION_FIELD);
    if (linkageOf(field).dataSource !== check.schema.id) check.fail('config.relationField', `"${field.name}" relates to another worksheet; a hierarchy needs a relation of the worksheet to itself`);
    return { relationField: field.id, childType };
  },
  detail: (config, check) => {
    const mode = config.mode ?? 'all';
    if (mode !== 'all' && mode !== 'first') check.fail('config.mode', 'must be "all" or "first"');
    return { mode };
  },
};

export function checkConfig(type: ViewTypeName, config: unknown, check: ViewChecker): Config {
  if (config !== undefined && config !== null && (typeof config !== 'object' || Array.isArray(config))) check.fail('config', 'expected an object');
  const given = (config ?? {}) as Config;
  const settle = SETTINGS[type];
  return settle ? { ...given, ...settle(given, check) } : { ...given };
}

/** The fields a view's config names (its group, dates, location…): what a view shows in its own format. */
export function configFieldIds(config: Config): string[] {
  const ids: string[] = [];
  for (const key of ['groupField', 'startField', 'endField', 'resourceField', 'relationField', 'locationField']) {
    if (typeof config[key] === 'string') ids.push(config[key] as string);
  }
  if (Array.isArray(config.dates)) {
    for (const range of config.dates as Config[]) for (const key of ['startField', 'endField']) if (typeof range?.[key] === 'string') ids.push(range[key] as string);
  }
  return ids;
}
