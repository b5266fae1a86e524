import { regionKind } from '../kinds/region-kind.js';

/** 23 Region (public name "Region"; this code lets a person choose down to the city). */
export const regionCity = regionKind({ code: '23', name: 'Region', deepestLevel: 2 });
