import type { ApiContext } from '../helpers/api-harness.js';
import type { FuzzWorld } from './fuzz-world.js';
import type { WireApp, WireSection } from '../helpers/app-shapes.js';

/**
 * What must be the same after fuzzing, read through the API (and the apps row through the
 * database, for the columns the API does not show). Only what no fuzzed request may
 * legitimately change is kept:
 *
 * - each fixture record in full (values, creator, times), and the fixture's first list page
 *   (creation order, so the five come first whatever is added after them; `total` grows
 *   legitimately and is left out);
 * - the fixture worksheet's structure, but for its read indexes (`indexes`), which lists on the
 *   fixture legitimately add to;
 * - the first application's identity, name, description, icon and colour (requests on the
 *   application itself go to the second application, see fuzz-world.ts) and the section the fixture
 *   worksheet sits in. Its section tree as a whole is not kept: fuzzed section and item batches
 *   add to it legitimately.
 */
export interface FixtureSnapshot {
  records: unknown[];
  firstPage: unknown;
  structure: unknown;
  app: unknown;
  appRow: unknown;
}

function sectionHolding(sections: WireSection[], itemId: string): { id: string; item: unknown } | null {
  for (const section of sections) {
    const item = section.items.find((i) => i.id === itemId);
    if (item) return { id: section.id, item };
    const inner = sectionHolding(section.childSections, itemId);
    if (inner) return inner;
  }
  return null;
}

export async function snapshotFixture(ctx: ApiContext, world: FuzzWorld): Promise<FixtureSnapshot> {
  const { fixture } = world;
  const records = [];
  for (const id of fixture.records) records.push((await ctx.call('GET', `/v3/app/worksheets/${fixture.id}/rows/${id}`)).body);
  const app = (await ctx.call<WireApp>('GET', '/v3/app')).body;
  const { sections, ...identity } = app.data ?? ({} as WireApp);
  const appRow = await ctx.database.db
    .selectFrom('apps')
    .select(['id', 'organization_id', 'owner_id', 'created_at', 'name', 'description', 'icon', 'color'])
    .where('id', '=', ctx.setup.app.appId)
    .executeTakeFirst();
  return {
    records,
    ...(await quickParts(ctx, world)),
    app: { envelope: { ...app, data: null }, identity, fixtureSection: sectionHolding(sections ?? [], fixture.id) },
    appRow: appRow ? { ...appRow, created_at: Number(appRow.created_at) } : null,
  };
}

async function quickParts(ctx: ApiContext, world: FuzzWorld): Promise<Pick<FixtureSnapshot, 'firstPage' | 'structure'>> {
  const { fixture } = world;
  const page = await ctx.call<{ rows: unknown[] }>('POST', `/v3/app/worksheets/${fixture.id}/rows/list`, { pageSize: fixture.records.length, pageIndex: 1 });
  const structure = await ctx.call<{ indexes?: unknown } | null>('GET', `/v3/app/worksheets/${fixture.id}`);
  // `indexes` grows when lists on the fixture ask for one (built in the background): reads may do that.
  const { indexes: _indexes, ...shape } = structure.body.data ?? {};
  return { firstPage: { ...page.body, data: page.body.data?.rows ?? null }, structure: { ...structure.body, data: structure.body.data ? shape : null } };
}

/**
 * A cheap check after each request that may write: the fixture's first page and structure.
 * The full snapshot is compared once, at the end.
 */
export async function fixtureFingerprint(ctx: ApiContext, world: FuzzWorld): Promise<string> {
  return JSON.stringify(await quickParts(ctx, world));
}
