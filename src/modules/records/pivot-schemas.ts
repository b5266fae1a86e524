import { Type } from '@sinclair/typebox';
import { LenientBoolean } from '../../shared/wire-schemas.js';

/** Wire schemas of `POST /v3/app/worksheets/{worksheet_id}/rows/pivot`; see docs/api.md "Pivot". */

export const MAX_PIVOT_PAGE_SIZE = 1000;

const Dimension = Type.Object({
  field: Type.String({ minLength: 1, description: 'Field id or alias' }),
  displayName: Type.Optional(Type.String({ maxLength: 200 })),
  granularity: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: 'Dates only: 1 day, 2 week, 3 month, 4 quarter, 5 year (default 1)' })),
  includeEmpty: Type.Optional(LenientBoolean({ description: 'false drops the groups where this field is empty (default true)' })),
});

const Value = Type.Object({
  field: Type.String({ minLength: 1, description: 'Field id or alias, or "record_count"' }),
  displayName: Type.Optional(Type.String({ maxLength: 200 })),
  aggregation: Type.Optional(Type.String({ description: 'COUNT, DISTINCTCOUNT, SUM, MIN, MAX or AVG, any case' })),
});

export const PivotBody = Type.Object({
  rows: Type.Optional(Type.Array(Dimension, { maxItems: 10 })),
  columns: Type.Optional(Type.Array(Dimension, { maxItems: 10 })),
  values: Type.Optional(Type.Array(Value, { maxItems: 20 })),
  filter: Type.Optional(Type.Unknown({ description: 'A filter tree, as on rows/list' })),
  viewId: Type.Optional(Type.String({ description: "A view of the worksheet: its filter is ANDed with filter; empty: none" })),
  sorts: Type.Optional(Type.Array(Type.Object({ field: Type.String(), isAsc: Type.Optional(LenientBoolean()) }), { maxItems: 10 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PIVOT_PAGE_SIZE, default: 100 })),
  pageIndex: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 })),
  includeSummary: Type.Optional(LenientBoolean()),
});

const Cells = Type.Record(Type.String(), Type.Unknown());

const DimensionMeta = Type.Object({
  field: Type.String(),
  displayName: Type.String(),
  granularity: Type.Optional(Type.Integer()),
  includeEmpty: Type.Boolean(),
});

export const PivotResult = Type.Object({
  meta: Type.Object({
    rows: Type.Array(DimensionMeta),
    columns: Type.Array(DimensionMeta),
    values: Type.Array(Type.Object({ field: Type.String(), displayName: Type.String(), aggregation: Type.String() })),
  }),
  pivot: Type.Array(Type.Object({ rows: Cells, columns: Cells, values: Cells })),
  summary: Type.Optional(Cells),
  totalPages: Type.Integer(),
  currentPage: Type.Integer(),
});
