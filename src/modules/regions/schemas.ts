import { Type } from '@sinclair/typebox';

/** Wire schemas of the region lookups. */

export const RegionsQuery = Type.Object({
  id: Type.Optional(Type.String({ description: 'A region code: list the regions directly below it (and search only below it)' })),
  search: Type.Optional(Type.String({ description: 'Part of a name, Chinese or English: regions at any level whose name contains it' })),
  lang: Type.Optional(Type.Union([Type.Literal('zh'), Type.Literal('en')], { description: 'Names in Chinese (default) or in English where the data has them (countries)' })),
});

const RegionOut = Type.Object({
  id: Type.String({ description: 'GB/T 2260 code (110000), or 91 + the ISO 3166-1 numeric code for a country (910840)' }),
  name: Type.String(),
  path: Type.String({ description: 'The names from the top level down to this region, joined with "/"' }),
  last: Type.Boolean({ description: 'No region lies below this one' }),
});

export const RegionsOut = Type.Object({
  regions: Type.Array(RegionOut),
  currentRegion: Type.Union([Type.Object({ id: Type.String(), path: Type.String() }), Type.Null()], { description: 'The region `id` named; null without `id`' }),
});
