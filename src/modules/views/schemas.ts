import { Type } from '@sinclair/typebox';
import { MAX_VIEWS_PER_BATCH } from './service.js';

/** Wire schemas of the view endpoints; see docs/api.md "Views". */

export const WorksheetParams = Type.Object({ worksheet_id: Type.String({ description: 'Worksheet id or alias' }) });
export const ViewParams = Type.Object({ worksheet_id: Type.String({ description: 'Worksheet id or alias' }), view_id: Type.String({ description: 'View id' }) });

const FieldRefs = (description: string) => Type.Optional(Type.Array(Type.String(), { maxItems: 1000, description }));

/** One view's settings; every field reference is a field id or alias (stored as the id). */
const ViewSettings = {
  viewType: Type.Optional(
    Type.Union([Type.String(), Type.Integer()], {
      description: 'table, kanban, hierarchy, gallery, calendar, gantt, detail, resource, map, plugin, or the wire numbers 0–8, 21 (default table)',
    }),
  ),
  config: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'Per type: kanban {groupField}; calendar {dates:[{startField, endField?}]}; gantt {startField, endField}; hierarchy {relationField (a self relation), childType 1}; resource {startField, endField, resourceField}; map {locationField}; detail {mode: all|first}',
    }),
  ),
  filter: Type.Optional(Type.Unknown({ description: 'A filter tree, as on rows/list; checked when saved' })),
  sort: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 10, description: '[{field, isAsc}] as rows/list takes sorts, or [{fieldId, sortType 1 asc | 2 desc}]' })),
  tableFields: FieldRefs('The fields the view shows, in order (empty: every field)'),
  quickFilters: FieldRefs('Fields offered as quick filters'),
  filterList: FieldRefs('One field: the filter list beside the view'),
  group: Type.Optional(Type.Unknown({ description: 'Table and gallery: the field(s) records are grouped by' })),
  card: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: '{titleField, summaryField, displayFields (at most 4), coverField, coverDirection top|left|right, coverDisplayMode full|square|circle|rectangle}' })),
  color: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'A SingleSelect or Dropdown field whose option colors mark the records' })),
  rowHeight: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  detailActions: Type.Optional(Type.Array(Type.String())),
  quickActions: Type.Optional(Type.Array(Type.Unknown(), { description: '[{type: print|delete|share|action, id?}]' })),
};

export const ViewInput = Type.Object({ name: Type.String({ description: 'The view name' }), ...ViewSettings }, { additionalProperties: true });
export const ViewPatch = Type.Object({ name: Type.Optional(Type.String()), ...ViewSettings }, { additionalProperties: true });

export const CreateViewsBody = Type.Object({ views: Type.Array(ViewInput, { minItems: 1, maxItems: MAX_VIEWS_PER_BATCH }) });

export const ViewOut = Type.Object(
  {
    id: Type.String(),
    worksheetId: Type.String(),
    name: Type.String(),
    viewType: Type.String({ description: 'The type by name' }),
    type: Type.Integer({ description: 'The wire number, as the worksheet schema lists it' }),
    position: Type.Integer(),
    config: Type.Record(Type.String(), Type.Unknown()),
    filter: Type.Unknown(),
    sort: Type.Array(Type.Object({ field: Type.String(), isAsc: Type.Boolean() })),
    tableFields: Type.Array(Type.String()),
    quickFilters: Type.Array(Type.String()),
    filterList: Type.Array(Type.String()),
    group: Type.Array(Type.String()),
    card: Type.Unknown(),
    color: Type.Union([Type.String(), Type.Null()]),
    rowHeight: Type.Integer(),
    detailActions: Type.Array(Type.String()),
    quickActions: Type.Array(Type.Unknown()),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
);
