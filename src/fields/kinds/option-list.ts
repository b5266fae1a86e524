import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { newGuid } from '../../shared/ids.js';
import type { FieldDefinitionDraft, FieldMeta, FieldOption } from '../field-type.js';
import { show } from './value-errors.js';

/** Most options one choice field (or option set) may hold. Over it: 100006. */
export const MAX_OPTIONS = 1000;

/**
 * Normalizes a written option list. Options keep their keys across edits (matched by `key`,
 * else by text); options left out of an edit are kept, flagged `isDeleted`, so that stored
 * values still read as their text.
 */
export function prepareOptions(
  draft: Pick<FieldDefinitionDraft, 'name' | 'options'>,
  previous: Pick<FieldMeta, 'options'> | null,
  subject = `field "${draft.name}"`,
): FieldOption[] {
  const before = previous?.options ?? [];
  const byKey = new Map(before.map((o) => [o.key, o]));
  const byText = new Map(before.filter((o) => !o.isDeleted).map((o) => [o.value, o]));
  const seen = new Set<string>();
  // Keys the edit names explicitly win over a match by text, so two options never share a key.
  const claimed = new Set(draft.options.flatMap((raw) => (typeof raw?.key === 'string' && raw.isDeleted !== true ? [raw.key] : [])));
  const usedKeys = new Set<string>();
  const result: FieldOption[] = [];
  draft.options.forEach((raw, position) => {
    const where = `${subject} options[${position}]`;
    if (typeof raw !== 'object' || raw === null) throw AppError.invalidValue(`${where}: expected an object {value, index}`);
    const value = typeof raw.value === 'number' ? String(raw.value) : raw.value;
    if (typeof value !== 'string' || value.trim() === '') throw AppError.invalidValue(`${where}.value: must be non-empty text, got ${show(raw.value)}`);
    if (raw.isDeleted === true) {
      if (raw.key && byKey.has(raw.key) && !claimed.has(raw.key) && !usedKeys.has(raw.key)) {
        usedKeys.add(raw.key);
        result.push({ ...byKey.get(raw.key)!, isDeleted: true });
      }
      return;
    }
    if (seen.has(value)) throw AppError.invalidValue(`${where}.value: "${value}" appears twice`);
    seen.add(value);
    if (raw.key !== undefined && typeof raw.key !== 'string') throw AppError.invalidValue(`${where}.key: must be text`);
    if (raw.key && usedKeys.has(raw.key)) throw AppError.invalidValue(`${where}.key: "${raw.key}" appears twice`);
    const sameText = byText.get(value);
    const existing = raw.key ? byKey.get(raw.key) : sameText && !claimed.has(sameText.key) && !usedKeys.has(sameText.key) ? sameText : undefined;
    if (raw.key && !existing) throw AppError.invalidValue(`${where}.key: no option with key "${raw.key}" in ${subject}`);
    const index = raw.index === undefined ? position + 1 : Number(raw.index);
    if (!Number.isInteger(index)) throw AppError.invalidValue(`${where}.index: must be a whole number, got ${show(raw.index)}`);
    const option: FieldOption = { key: existing?.key ?? newGuid(), value, index };
    usedKeys.add(option.key);
    if (typeof raw.color === 'string' && raw.color) option.color = raw.color;
    if (typeof raw.score === 'number') option.score = raw.score;
    result.push(option);
  });
  const live = result.filter((o) => !o.isDeleted);
  if (live.length > MAX_OPTIONS) {
    throw new AppError(ErrorCode.OptionLimitExceeded, 400, `${subject}: at most ${MAX_OPTIONS} options, got ${live.length}`);
  }
  const keptKeys = new Set(result.map((o) => o.key));
  for (const old of before) if (!keptKeys.has(old.key)) result.push({ ...old, isDeleted: true });
  return result.sort((a, b) => a.index - b.index);
}
