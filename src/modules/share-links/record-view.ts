import { DateTime, IANAZone } from 'luxon';
import type { FieldMeta } from '../../fields/field-type.js';
import { cellText } from '../records/index.js';

/** A file of an attachment field, as a share page offers it: a signed download link that needs no account. */
export interface SharedFile {
  name: string;
  size: number;
  url: string;
}

/** One shown field of a shared record: its wire value, and the same value as a person reads it. */
export interface SharedField {
  id: string;
  name: string;
  type: string;
  value: unknown;
  text: string;
  files?: SharedFile[];
}

/** What a share link shows: the worksheet's name, the record's title when its field is visible, and the visible fields. */
export interface SharedRecordView {
  worksheet: string;
  title: string | null;
  /** The zone date-times are shown in. */
  timeZone: string;
  expiresAt: string | null;
  fields: SharedField[];
}

function isFileList(value: unknown): value is Array<{ name: string; size: number; downloadUrl: string }> {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'object' && item !== null && typeof (item as { downloadUrl?: unknown }).downloadUrl === 'string');
}

/**
 * The text of a value for people: date-times in `timeZone` (`2024-03-05 14:30`), check boxes as
 * Yes/No, files by name; everything else as the record table renders it (options and
 * members by their text, related records by title, lists joined with `, `).
 * @example textForPeople(dateTimeField, '2024-03-05T06:30:00.000Z', 'Asia/Shanghai') // { text: '2024-03-05 14:30' }
 */
export function textForPeople(field: FieldMeta, value: unknown, timeZone: string): { text: string; files?: SharedFile[] } {
  if (field.fieldType.valueKind === 'datetime' && typeof value === 'string' && value !== '') return { text: formatInstant(value, timeZone) };
  if (typeof value === 'boolean') return { text: value ? 'Yes' : 'No' };
  if (isFileList(value)) {
    const files = value.map((file) => ({ name: file.name, size: file.size, url: file.downloadUrl }));
    return { text: files.map((f) => f.name).join(', '), files };
  }
  return { text: cellText(value) };
}

/** An ISO 8601 instant as a person reads it in `timeZone`: `2024-03-05 14:30`; other text as it is. */
export function formatInstant(iso: string, timeZone: string): string {
  const instant = DateTime.fromISO(iso, { zone: 'utc' });
  return instant.isValid ? instant.setZone(timeZone).toFormat('yyyy-MM-dd HH:mm') : iso;
}

/** Whether `zone` is an IANA time zone this runtime knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}
