import type { JsonText } from '../../shared/json-text.js';
import { Type } from '@sinclair/typebox';
import { LenientBoolean } from '../../shared/wire-schemas.js';
import { MAX_BATCH } from './service.js';

/** Wire schemas of the record endpoints. */

export const WorksheetParams = Type.Object({ worksheet_id: Type.String({ description: 'Worksheet id or alias' }) });
export const RowParams = Type.Object({ worksheet_id: Type.String(), row_id: Type.String({ description: 'Record id' }) });

const FieldValue = Type.Object(
  {
    id: Type.String({ description: 'Field id or alias' }),
    value: Type.Optional(Type.Unknown({ description: 'Shape depends on the field type' })),
    type: Type.Optional(Type.Integer({ description: 'Option add mode / attachment mode (later issues)' })),
  },
  { additionalProperties: true },
);

const FieldValues = Type.Array(FieldValue, { maxItems: 1000 });
const TriggerWorkflow = Type.Optional(LenientBoolean({ description: 'Run workflows triggered by this change (default true)', default: true }));

export const CreateRecordBody = Type.Object({
  fields: FieldValues,
  triggerWorkflow: TriggerWorkflow,
  isDraft: Type.Optional(LenientBoolean({ description: "true: save to the caller's draft box instead (required fields not yet enforced); POST …/rows/{row_id}/submit makes it a record" })),
});
export const UpdateRecordBody = Type.Object({ fields: FieldValues, triggerWorkflow: TriggerWorkflow });

export const DeleteRecordBody = Type.Optional(
  Type.Object({
    permanent: Type.Optional(LenientBoolean({ description: 'true removes the record for good; default: to the recycle bin' })),
    triggerWorkflow: TriggerWorkflow,
  }),
);

export const BatchCreateBody = Type.Object({
  rows: Type.Array(Type.Object({ fields: FieldValues }), { minItems: 1, maxItems: MAX_BATCH }),
  triggerWorkflow: TriggerWorkflow,
  isDraft: Type.Optional(LenientBoolean({ description: 'Refused when true: drafts are saved one at a time (POST …/rows)' })),
});

export const BatchUpdateBody = Type.Object({
  rowIds: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: MAX_BATCH, description: 'With fields: the same values on each' })),
  fields: Type.Optional(FieldValues),
  rows: Type.Optional(
    Type.Array(Type.Object({ id: Type.String(), fields: FieldValues }), { minItems: 1, maxItems: MAX_BATCH, description: 'Per-record values' }),
  ),
  triggerWorkflow: TriggerWorkflow,
});

export const BatchDeleteBody = Type.Object({
  rowIds: Type.Array(Type.String(), { minItems: 1, maxItems: MAX_BATCH }),
  permanent: Type.Optional(LenientBoolean()),
  triggerWorkflow: TriggerWorkflow,
});

export const BatchRestoreBody = Type.Object({ rowIds: Type.Array(Type.String(), { minItems: 1, maxItems: MAX_BATCH }) });

export const ListBody = Type.Optional(
  Type.Object({
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
    pageIndex: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 })),
    sorts: Type.Optional(Type.Array(Type.Object({ field: Type.String(), isAsc: Type.Optional(LenientBoolean()) }), { maxItems: 10 })),
    fields: Type.Optional(Type.Array(Type.String(), { description: 'Only these fields (ids or aliases)' })),
    filter: Type.Optional(Type.Unknown({ description: 'A filter tree: {type:"group", logic:"AND"|"OR", children:[…]} of {type:"condition", field, operator, value}; see docs/api.md' })),
    search: Type.Optional(Type.String()),
    viewId: Type.Optional(Type.String({ description: "A view of the worksheet: its filter is ANDed with filter, its sort applies without sorts, its fields without fields; empty: none" })),
    includeTotalCount: Type.Optional(LenientBoolean({ description: 'false leaves total out (and saves its count); given otherwise' })),
    includeSystemFields: Type.Optional(LenientBoolean({ description: 'Flat rows: add _createdBy, _owner, _updatedBy, _createdAt, _updatedAt (spec rows always have them)' })),
    useFieldIdAsKey: Type.Optional(LenientBoolean({ description: 'Given (true or false): flat rows keyed by field id (true) or alias (false)' })),
    tableView: Type.Optional(LenientBoolean({ description: "With viewId: true (default) shows the view's table fields; false the fields of the view's own format (card, group, dates…)" })),
    responseFormat: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('md')], { description: 'md: rows is one text table' })),
    recycleBin: Type.Optional(LenientBoolean({ description: 'List the records in the recycle bin (with _deletedAt and _deletedBy), latest deleted first unless sorted' })),
    isDraft: Type.Optional(LenientBoolean({ description: "true: the caller's draft box (creation order; no filter, search or sorts)" })),
  }),
);

/** The optional body of `POST …/rows/{row_id}/submit`. */
export const SubmitDraftBody = Type.Optional(Type.Object({ triggerWorkflow: TriggerWorkflow }));

/** The query of `GET …/rows/{row_id}`: the same shape switches as the list. */
export const RowQuery = Type.Object({
  includeSystemFields: Type.Optional(LenientBoolean({ description: 'Flat rows: add the five _ system keys' })),
  useFieldIdAsKey: Type.Optional(LenientBoolean({ description: 'Given (true or false): a flat row keyed by field id (true) or alias (false)' })),
});

export const RelationParams = Type.Object({
  worksheet_id: Type.String(),
  row_id: Type.String({ description: 'Record id' }),
  field: Type.String({ description: 'The relation field: id or alias' }),
});

/** The query of `GET …/rows/{row_id}/relations/{field}`. */
export const RelationQuery = Type.Object({
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
  pageIndex: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 })),
  isReturnSystemFields: Type.Optional(LenientBoolean({ description: 'Flat rows: add the five _ system keys' })),
  useFieldIdAsKey: Type.Optional(LenientBoolean({ description: 'Given (true or false): flat rows keyed by field id (true) or alias (false)' })),
});

const User = Type.Object({ accountId: Type.String(), fullname: Type.String() });
const FlatUser = Type.Object({ accountId: Type.String(), fullname: Type.String(), avatar: Type.String(), status: Type.Integer() });

export const RecordOut = Type.Object({
  id: Type.String(),
  fields: Type.Array(Type.Object({ id: Type.String(), value: Type.Unknown(), type: Type.String(), controlName: Type.String() })),
  _createdBy: User,
  _owner: User,
  _updatedBy: User,
  _createdAt: Type.String({ description: 'ISO 8601 UTC with milliseconds' }),
  _updatedAt: Type.String(),
  _deletedAt: Type.Optional(Type.String({ description: 'Recycle bin lists: when the record was deleted' })),
  _deletedBy: Type.Optional(User),
  isDraft: Type.Optional(Type.Boolean({ description: "true: a draft in the caller's draft box, not yet a record" })),
});

/** A flat record: `id`, `rowId`, one key per field (alias or field id), system keys when asked for. */
export const FlatRecordOut = Type.Object(
  {
    id: Type.String(),
    rowId: Type.String({ description: 'The record id again, as the public service gives it' }),
    _createdBy: Type.Optional(FlatUser),
    _owner: Type.Optional(FlatUser),
    _updatedBy: Type.Optional(FlatUser),
    _createdAt: Type.Optional(Type.String()),
    _updatedAt: Type.Optional(Type.String()),
    autoid: Type.Optional(Type.Integer({ description: "The record's number in its worksheet: 1, 2, 3… in creation order, never reused" })),
    _deletedAt: Type.Optional(Type.String({ description: 'Recycle bin lists: when the record was deleted' })),
    _deletedBy: Type.Optional(User),
    isDraft: Type.Optional(Type.Boolean({ description: "true: a draft in the caller's draft box, not yet a record" })),
  },
  { additionalProperties: true, description: 'One more key per field: its alias (or field id), holding its value' },
);

/**
 * A record in either shape. Chosen by `if`/`then`/`else` on `rowId`, which only flat rows have:
 * the serializer checks that one key instead of validating every row against both shapes.
 */
export const RecordItem = Type.Unsafe<Record<string, unknown>>({
  description: 'Spec shape {id, fields:[…], _createdBy, …}; flat shape {id, rowId, <alias>: value, …} with useFieldIdAsKey or API_PROFILE=public',
  if: { type: 'object', required: ['rowId'] },
  then: FlatRecordOut,
  else: RecordOut,
});

/** A record as a get answers it: an object, or the JSON text the route wrote it as (`row-json.ts`). */
export const RecordItemOrText = Type.Unsafe<Record<string, unknown> | JsonText>(RecordItem);

export const RecordPage = Type.Object({
  // JsonText: rows the list route sends as the text they were written as (`row-json.ts`).
  rows: Type.Unsafe<string | Array<Record<string, unknown> | JsonText>>({
    description: 'The records; with responseFormat md, one text table',
    if: { type: 'string' },
    then: { type: 'string' },
    else: Type.Array(RecordItem),
  }),
  total: Type.Optional(Type.Integer({ description: 'Left out when includeTotalCount is false' })),
  pageIndex: Type.Integer(),
  pageSize: Type.Integer(),
});

export const BatchOutcome = Type.Object({ successfulRowIds: Type.Array(Type.String()), failedRowIds: Type.Array(Type.String()) });
