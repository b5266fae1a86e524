import type { ServiceContext } from '../../shared/service-context.js';
import { resolveReferences } from './references.js';
import type { RowState, SortTerm } from './repository.js';
import { emptyReferenceSet } from './value-codec.js';

/**
 * The recycle bin as a list: `POST …/rows/list` with `recycleBin: true` reads the records deleted
 * to the bin, with the same filters, search, projection and shapes as the live list, newest
 * deletion first unless sorted otherwise, each with `_deletedAt` and `_deletedBy`.
 */

export function rowStateOf(recycleBin: boolean | undefined): RowState {
  return recycleBin === true ? 'bin' : 'live';
}

/** The columns a bin list reads beyond a live list's. */
export const DELETION_COLUMNS = ['_deleted_at', '_deleted_by'];

/** The bin's order when the request gives none: the latest deleted first. */
export const BIN_ORDER: SortTerm[] = [{ column: '_deleted_at', ascending: false }];

/** Adds when and by whom each record was deleted to the presented rows (in the order of `raw`). */
export async function withDeletion(ctx: ServiceContext, raw: Array<Record<string, unknown>>, presented: Array<Record<string, unknown>>): Promise<Array<Record<string, unknown>>> {
  const refs = emptyReferenceSet();
  for (const row of raw) if (typeof row._deleted_by === 'string') refs.account.add(row._deleted_by);
  const names = await resolveReferences(ctx.db, refs);
  return presented.map((row, i) => {
    const by = raw[i]._deleted_by;
    const accountId = typeof by === 'string' ? by : '';
    return {
      ...row,
      _deletedAt: new Date(Number(raw[i]._deleted_at)).toISOString(),
      _deletedBy: { accountId, fullname: names.accounts.get(accountId)?.fullname ?? '' },
    };
  });
}
