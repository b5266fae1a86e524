import { Type } from '@sinclair/typebox';

/** Wire schemas of custom pages; see docs/api.md "Custom pages". */

export const PageParams = Type.Object({ page_id: Type.String() });

const Layout = Type.Object(
  { x: Type.Integer(), y: Type.Integer(), w: Type.Integer(), h: Type.Integer(), minW: Type.Optional(Type.Integer()), minH: Type.Optional(Type.Integer()) },
  { additionalProperties: true },
);

const Display = Type.Object(
  { title: Type.Optional(Type.String({ maxLength: 200 })), titleVisible: Type.Optional(Type.Boolean()), visible: Type.Optional(Type.Boolean()), layout: Type.Optional(Type.Union([Layout, Type.Null()])) },
  { additionalProperties: true },
);

export const Component = Type.Object(
  {
    type: Type.Integer({ description: '1 chart, 2 rich text, 3 embed URL, 4 buttons, 5 view, 6 filter, 8 image, 9 carousel, 10 tabs, 11 card' }),
    value: Type.Optional(Type.Unknown({ description: 'Chart id (1), HTML (2), URL (3, 8), …' })),
    worksheetId: Type.Optional(Type.String()),
    viewId: Type.Optional(Type.String()),
    web: Display,
    mobile: Type.Optional(Type.Union([Display, Type.Null()])),
  },
  { additionalProperties: true },
);

export const PageBody = Type.Object({
  version: Type.Integer({ minimum: 0, description: 'The version the change was made to: must be the stored one' }),
  components: Type.Array(Component, { maxItems: 200 }),
});

export const PageOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  version: Type.Integer(),
  components: Type.Array(Type.Record(Type.String(), Type.Unknown())),
});
