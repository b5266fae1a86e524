import { Type } from '@sinclair/typebox';

/** Wire schemas of charts; see docs/api.md "Charts". */

const Axis = Type.Object(
  {
    controlId: Type.String({ minLength: 1, description: 'Field id or alias' }),
    particleSizeType: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: 'Dates: 1 day, 2 week, 3 month, 4 quarter, 5 year' })),
  },
  { additionalProperties: true },
);

const YAxis = Type.Object(
  {
    controlId: Type.String({ minLength: 1, description: 'Field id or alias, or "record_count"' }),
    normType: Type.Optional(Type.Integer({ minimum: 1, maximum: 6, description: '1 sum, 2 max, 3 min, 4 avg, 5 count, 6 distinct count (default 1; 5 for record_count)' })),
    controlName: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
);

export const ChartBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    reportType: Type.Integer({ description: '1 bar, 2 line, 3 pie, 5 radar, 6 funnel, 7 dual axis, 8 pivot table, 10 number, 11 bidirectional bar, 12 scatter, 13 word cloud, 14 gauge, 15 progress, 16 ranking' }),
    xaxes: Type.Optional(Type.Union([Axis, Type.Array(Axis, { maxItems: 1 })])),
    yaxisList: Type.Array(YAxis, { minItems: 1, maxItems: 10 }),
    filter: Type.Optional(Type.Unknown({ description: 'A filter tree, as on rows/list' })),
    viewId: Type.Optional(Type.String()),
    pageId: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const WorksheetParams = Type.Object({ worksheet_id: Type.String() });
export const ChartParams = Type.Object({ chart_id: Type.String() });

export const ChartOut = Type.Object({
  id: Type.String(),
  worksheetId: Type.String(),
  name: Type.String(),
  reportType: Type.Integer(),
  xaxes: Type.Union([Type.Object({ controlId: Type.String(), particleSizeType: Type.Optional(Type.Integer()) }), Type.Null()]),
  yaxisList: Type.Array(Type.Object({ controlId: Type.String(), normType: Type.Integer(), controlName: Type.String() })),
  filter: Type.Unknown(),
  viewId: Type.String(),
  pageId: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const ChartData = Type.Object({
  name: Type.String(),
  reportType: Type.Integer(),
  xaxis: Type.Union([Type.Object({ controlId: Type.String(), name: Type.String() }), Type.Null()]),
  series: Type.Array(Type.Object({ controlId: Type.String(), name: Type.String(), normType: Type.Integer() })),
  points: Type.Array(Type.Object({ x: Type.Unknown({ description: 'The group, as the pivot shows it' }), values: Type.Array(Type.Union([Type.Number(), Type.Null()])) })),
});
