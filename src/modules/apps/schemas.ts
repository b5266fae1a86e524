import { Type, type TSchema } from '@sinclair/typebox';

/** Wire schemas of the application endpoints. */

const Item = Type.Object({ id: Type.String(), type: Type.Integer({ description: '0 worksheet, 1 custom page' }), name: Type.String() });

const SectionOut: TSchema = Type.Recursive((This) =>
  Type.Object({ id: Type.String(), name: Type.String(), items: Type.Array(Item), childSections: Type.Array(This) }),
  { $id: 'Section' },
);

/** What every answer about an application says of it (`GET /v3/app`, `GET /v3/apps/list`). */
export const AppFields = {
  appId: Type.String(),
  organizationId: Type.String(),
  name: Type.String(),
  description: Type.String(),
  icon: Type.String(),
  color: Type.String(),
};

export const AppOut = Type.Object({ ...AppFields, sections: Type.Array(SectionOut) });

export const UpdateAppBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  description: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  color: Type.Optional(Type.String({ description: 'Hex color, e.g. #2196F3' })),
});

export const SectionsBody = Type.Object({
  sections: Type.Array(Type.Object({ name: Type.String({ minLength: 1 }), parentId: Type.Optional(Type.String()) }), { minItems: 1, maxItems: 100 }),
});

export const SectionsOut = Type.Array(Type.Object({ id: Type.String(), name: Type.String() }));

export const ItemsBody = Type.Object({
  items: Type.Array(
    Type.Object({
      sectionId: Type.Optional(Type.String({ description: 'Empty: the first section' })),
      type: Type.Union([Type.Literal(0), Type.Literal(1)], { description: '0 worksheet, 1 custom page' }),
      name: Type.String({ minLength: 1, maxLength: 100 }),
    }),
    { minItems: 1, maxItems: 100 },
  ),
});

export const ItemsOut = Type.Array(Type.Object({ id: Type.String(), type: Type.Integer(), name: Type.String(), sectionId: Type.String() }));
