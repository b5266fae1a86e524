import type { ResolvedReferences } from './field-type.js';

/** References that resolve nothing: for reading values whose text needs no names (computations, titles). */
export function noReferences(): ResolvedReferences {
  return { accounts: new Map(), departments: new Map(), regions: new Map(), records: new Map() };
}
