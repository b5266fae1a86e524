import { regionKind } from '../kinds/region-kind.js';

/** 19 Region (public name "Region"; this code lets a person choose down to the province). */
export const regionProvince = regionKind({ code: '19', name: 'Region', deepestLevel: 1 });
