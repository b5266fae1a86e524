import type { Api } from '../../bench/api.js';

/**
 * The worksheet the crash trials write to. Every row says which batch it came from and its
 * position in that batch, so a partial or doubled batch is visible; `marker` is what batch
 * updates set, so a half-applied update is visible too.
 */
const FIELD_DEFINITIONS = [
  { name: 'Tag', alias: 'tag', type: 'Text', isTitle: true },
  { name: 'Batch', alias: 'batch', type: 'Text' },
  { name: 'N', alias: 'n', type: 'Number' },
  { name: 'Marker', alias: 'marker', type: 'Text' },
] as const;

type Alias = (typeof FIELD_DEFINITIONS)[number]['alias'];

export interface CrashSheet {
  id: string;
  /** Field id by alias: list results name fields by id. */
  field: Record<Alias, string>;
}

export async function createCrashSheet(api: Api): Promise<CrashSheet> {
  const { worksheetId } = await api.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Crash trials', fields: FIELD_DEFINITIONS });
  const sheet = await api.call<{ fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${worksheetId}`);
  const field = Object.fromEntries(sheet.fields.map((f) => [f.alias, f.id])) as Record<Alias, string>;
  if (FIELD_DEFINITIONS.some((d) => !field[d.alias])) throw new Error(`the crash worksheet was not created as defined: ${JSON.stringify(sheet.fields)}`);
  return { id: worksheetId, field };
}

/** The field values of row `n` of batch `tag`. */
export function batchRowFields(tag: string, n: number): Array<{ id: Alias; value: unknown }> {
  return [
    { id: 'tag', value: `${tag}/${n}` },
    { id: 'batch', value: tag },
    { id: 'n', value: n },
  ];
}
