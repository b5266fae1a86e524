import { AppError } from '../../shared/app-error.js';
import type { FieldDefinitionDraft, FieldMeta } from '../field-type.js';

/** The relation and source field of a lookup or rollup (ids once defined; ids or aliases as written). */
export interface RelatedSource {
  relationField: string;
  sourceField: string;
}

export function relatedSourceOf(field: FieldMeta): RelatedSource {
  return { relationField: String(field.config.relationField ?? ''), sourceField: String(field.config.sourceField ?? '') };
}

/** Checks that a definition names its relation (and, when `needsSource`, its source field). */
export function checkRelatedSource(draft: FieldDefinitionDraft, needsSource: boolean): void {
  const { relationField, sourceField } = draft.config;
  if (typeof relationField !== 'string' || relationField === '') {
    throw AppError.invalidParameters(`field "${draft.name}": config.relationField is required: the relation field (id or alias) to follow`);
  }
  if (needsSource && (typeof sourceField !== 'string' || sourceField === '')) {
    throw AppError.invalidParameters(`field "${draft.name}": config.sourceField is required: a field (id or alias) of the related worksheet`);
  }
}
