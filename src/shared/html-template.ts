import { createHash } from 'node:crypto';

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

/**
 * An inline style sheet of ours, with the Content-Security-Policy source that allows exactly it
 * (its hash): the pages run no script, and no other style can be injected.
 * @example const sheet = inlineStyleSheet('body{margin:0}'); `style-src ${sheet.policySource}`
 */
export function inlineStyleSheet(css: string): { element: SafeHtml; policySource: string } {
  return { element: new SafeHtml(css), policySource: `'sha256-${createHash('sha256').update(css).digest('base64')}'` };
}

/** A whole server-rendered page: the document frame around `body`, with one inline style sheet. */
export function htmlDocument(title: string, style: { element: SafeHtml }, body: SafeHtml): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<style>${style.element}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`.text;
}
