import { regionKind } from '../kinds/region-kind.js';

/** 24 Region (public name "Region"; this code lets a person choose down to the county). */
export const regionCounty = regionKind({ code: '24', name: 'Region', deepestLevel: 3 });
