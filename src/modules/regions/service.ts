import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import * as repository from './repository.js';
import type { Region } from './repository.js';

/** What `GET /regions` (and `/regions/lookup`) is asked. */
export interface RegionQuery {
  id?: string;
  search?: string;
  lang?: 'zh' | 'en';
}

/** Most regions one search answers with. */
export const SEARCH_LIMIT = 100;

const CODE = /^\d{2,12}$/;

function present(region: Region, lang: 'zh' | 'en') {
  const english = lang === 'en';
  return {
    id: region.id,
    name: (english && region.nameEn) || region.name,
    path: (english && region.pathEn) || region.path,
    last: region.last,
  };
}

/** The region `id` names: 10002 when it is not a code, 10007 when no region has it. */
async function regionNamed(ctx: ServiceContext, id: string): Promise<Region> {
  if (!CODE.test(id)) throw AppError.invalidValue(`id: expected a region code such as "440000", got ${JSON.stringify(id.slice(0, 40))}`);
  const [region] = await repository.regionsByIds(ctx.db, [id]);
  if (!region) throw AppError.notFound(`id: no region with code "${id}"`);
  return region;
}

/**
 * Regions: without `search`, those directly below `id` (the top level without it: the provinces of
 * China and 910000 海外); with `search`, those whose name contains it, at any level (below `id` when
 * given), at most `SEARCH_LIMIT`. `currentRegion` is the region `id` names, or null.
 * @example await listRegions(ctx, { id: '440000' }) // { regions: [{ id: '440100', name: '广州市', path: '广东省/广州市', last: false }, …], currentRegion: { id: '440000', path: '广东省' } }
 */
export async function listRegions(ctx: ServiceContext, query: RegionQuery) {
  const lang = query.lang ?? 'zh';
  const current = query.id === undefined || query.id === '' ? null : await regionNamed(ctx, query.id);
  const search = query.search?.trim() ?? '';
  const regions = search === '' ? await repository.childrenOf(ctx.db, current?.id ?? null) : await repository.searchRegions(ctx.db, ctx.dialect, search, current?.id ?? null, SEARCH_LIMIT);
  const shown = current ? present(current, lang) : null;
  return { regions: regions.map((r) => present(r, lang)), currentRegion: shown ? { id: shown.id, path: shown.path } : null };
}
