import { referenceKind } from '../kinds/reference-kind.js';

/** 27 Department: departments of the organization; written as department ids. */
export const department = referenceKind({
  code: '27',
  name: 'Department',
  kind: 'department',
  idKey: 'id',
  // belongsto / notbelongsto: a department or one below it.
  filterKind: 'department',
  present: (id, refs) => ({ id, name: refs.departments.get(id)?.name ?? '' }),
});
