import { Type } from '@sinclair/typebox';
import { LenientBoolean } from '../../shared/wire-schemas.js';

/** Wire schemas of the worksheet endpoints. */

export const WorksheetParams = Type.Object({
  worksheet_id: Type.String({ description: 'Worksheet id or alias' }),
});

const OptionInput = Type.Object(
  {
    key: Type.Optional(Type.String({ description: 'Keeps an existing option on edit' })),
    value: Type.Union([Type.String(), Type.Number()], { description: 'The option text' }),
    index: Type.Optional(Type.Integer({ description: 'Sort position' })),
    color: Type.Optional(Type.String()),
    score: Type.Optional(Type.Number()),
    isDeleted: Type.Optional(LenientBoolean()),
  },
  { additionalProperties: true },
);

export const FieldDefinition = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'Field id or alias (editFields only)' })),
    name: Type.Optional(Type.String({ description: 'Required when adding a field' })),
    alias: Type.Optional(Type.String()),
    type: Type.Optional(Type.Union([Type.String(), Type.Integer()], { description: 'Type code ("2") or public name ("Text")' })),
    required: Type.Optional(LenientBoolean()),
    isTitle: Type.Optional(LenientBoolean()),
    isUnique: Type.Optional(LenientBoolean()),
    options: Type.Optional(Type.Array(OptionInput)),
    config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    precision: Type.Optional(Type.Integer()),
    subType: Type.Optional(Type.Integer()),
    max: Type.Optional(Type.Integer()),
    dataSource: Type.Optional(Type.String({ description: 'Relation: the related worksheet (id, alias, or "selfRelation")' })),
    expression: Type.Optional(Type.String({ description: 'Formula and Concatenate: the expression, fields as $idOrAlias$' })),
    relation: Type.Optional(
      Type.Object(
        { bidirectional: Type.Optional(LenientBoolean({ description: 'Two-way: a reverse field appears on the related worksheet' })), showFields: Type.Optional(Type.Array(Type.String())) },
        { additionalProperties: true },
      ),
    ),
    description: Type.Optional(Type.String()),
    desc: Type.Optional(Type.String()),
    remark: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const CreateWorksheetBody = Type.Object({
  name: Type.String({ minLength: 1 }),
  alias: Type.Optional(Type.String()),
  remark: Type.Optional(Type.String()),
  sectionId: Type.Optional(Type.String({ description: 'May be empty: the first section is used' })),
  recordLogs: Type.Optional(LenientBoolean({ description: 'Log every change to its records (default true); false: no record log' })),
  createDefaultView: Type.Optional(LenientBoolean()),
  fields: Type.Optional(Type.Array(FieldDefinition, { maxItems: 500 })),
});

export const UpdateStructureBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1 })),
  alias: Type.Optional(Type.String()),
  remark: Type.Optional(Type.String()),
  sectionId: Type.Optional(Type.String()),
  recordLogs: Type.Optional(LenientBoolean({ description: 'Log every change to its records; false switches the record log off (entries kept)' })),
  addFields: Type.Optional(Type.Array(FieldDefinition, { maxItems: 500 })),
  editFields: Type.Optional(Type.Array(FieldDefinition, { maxItems: 500 })),
  removeFields: Type.Optional(Type.Array(Type.String(), { maxItems: 500 })),
});

export const ListWorksheetsBody = Type.Optional(
  Type.Object({
    worksheets: Type.Optional(Type.Array(Type.String(), { description: 'Only these worksheet ids' })),
    responseFormat: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('md')])),
  }),
);

export const WorksheetListItem = Type.Object({ id: Type.String(), name: Type.String(), remark: Type.String() });

export const FieldOut = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    alias: Type.String(),
    type: Type.String({ description: 'Type code ("2"); the public name ("Text") when API_PROFILE=public' }),
    required: Type.Boolean(),
    isTitle: Type.Boolean(),
    isUnique: Type.Boolean(),
    options: Type.Array(Type.Object({ key: Type.String(), value: Type.String(), index: Type.Integer(), isDeleted: Type.Optional(Type.Boolean()), color: Type.Optional(Type.String()), score: Type.Optional(Type.Number()) })),
    config: Type.Record(Type.String(), Type.Unknown()),
    description: Type.String(),
    desc: Type.Optional(Type.String({ description: 'API_PROFILE=public: the description again, under its public name' })),
    dataSource: Type.Optional(Type.String({ description: 'Relation: the related worksheet id; API_PROFILE=public: on every field ("" when none)' })),
    relation: Type.Optional(
      Type.Object({
        bidirectional: Type.Boolean({ description: 'Two-way: the other side has a reverse field' }),
        reverseField: Type.Optional(Type.String({ description: 'The field on the other side of a two-way relation' })),
        showFields: Type.Array(Type.String()),
      }),
    ),
    precision: Type.Optional(Type.Integer()),
    subType: Type.Optional(Type.Integer()),
    max: Type.Optional(Type.Integer()),
    recomputing: Type.Optional(Type.Boolean({ description: 'A computed field being computed for every record in the background (its values fill in meanwhile)' })),
  },
);

export const WorksheetOut = Type.Object({
  worksheetId: Type.String(),
  name: Type.String(),
  alias: Type.String(),
  remark: Type.String(),
  recordLogs: Type.Boolean({ description: 'Whether changes to its records are logged' }),
  fields: Type.Array(FieldOut),
  views: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), type: Type.Integer() })),
  indexes: Type.Array(
    Type.Object({
      name: Type.String(),
      fields: Type.Array(Type.String(), { description: 'Field ids, or system fields (rowid, _createdAt, …), in index order' }),
      include: Type.Optional(Type.Array(Type.String(), { description: 'Fields the index carries after its key, so that filters on them read the index alone' })),
      unique: Type.Boolean(),
    }),
    { description: 'Indexes on the records: unique fields, and those built for the sorts and filters lists asked for' },
  ),
});
