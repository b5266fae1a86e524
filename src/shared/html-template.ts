/**
 * A small HTML template: every interpolated value is escaped, unless it is itself a piece built by
 * `html` (so pieces compose); arrays are joined; null, undefined and false render nothing. No value
 * can bring markup of its own.
 * @example html`<p>${'<script>'}</p>`.text // "<p>&lt;script&gt;</p>"
 */
export class SafeHtml {
  constructor(readonly text: string) {}
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let text = strings[0];
  values.forEach((value, i) => {
    text += render(value) + strings[i + 1];
  });
  return new SafeHtml(text);
}
