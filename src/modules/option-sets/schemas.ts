import { Type } from '@sinclair/typebox';
import { LenientBoolean } from '../../shared/wire-schemas.js';

/** Wire schemas of the option set endpoints. */

export const OptionSetParams = Type.Object({ optionset_id: Type.String() });

const OptionIn = Type.Object(
  {
    key: Type.Optional(Type.String({ description: 'Edit: keeps the option with this key' })),
    value: Type.Union([Type.String(), Type.Number()], { description: 'The option text, unique in the set' }),
    index: Type.Optional(Type.Integer({ description: 'Sort position (default: place in the list)' })),
    color: Type.Optional(Type.String()),
    score: Type.Optional(Type.Number({ description: 'A decimal, negative allowed' })),
    isDeleted: Type.Optional(LenientBoolean({ description: 'Edit: retires the option with this key' })),
  },
  { additionalProperties: true },
);

export const CreateOptionSetBody = Type.Object({
  name: Type.String({ minLength: 1 }),
  options: Type.Array(OptionIn),
  enableColor: Type.Optional(LenientBoolean({ description: 'Default false' })),
  enableScore: Type.Optional(LenientBoolean({ description: 'Default false' })),
});

export const EditOptionSetBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1 })),
  options: Type.Optional(Type.Array(OptionIn, { description: 'The whole list; options left out are retired' })),
  enableColor: Type.Optional(LenientBoolean()),
  enableScore: Type.Optional(LenientBoolean()),
});

const OptionOut = Type.Object({
  key: Type.String(),
  value: Type.String(),
  index: Type.Integer(),
  isDeleted: Type.Boolean(),
  color: Type.String(),
  score: Type.Number(),
});

export const OptionSetsOut = Type.Object({
  optionsets: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      accountId: Type.String(),
      worksheetIds: Type.Array(Type.String()),
      options: Type.Array(OptionOut),
      enableColor: Type.Boolean(),
      enableScore: Type.Boolean(),
    }),
  ),
});

export const CreatedOptionSet = Type.Object({ optionsetId: Type.String() });
