import { html, htmlDocument, inlineStyleSheet, type SafeHtml } from '../../shared/html-template.js';
import { formatInstant, type SharedField, type SharedRecordView } from './record-view.js';
import type { GoneReason } from './viewer-service.js';

/**
 * The share page: server-rendered, no JavaScript, one inline style sheet allowed by its hash in
 * the Content-Security-Policy. Every value goes through `html`, which escapes it.
 */
const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f8fa;margin:0;padding:2rem 1rem}
main{max-width:46rem;margin:0 auto;background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:1.5rem 2rem}
h1{font-size:1.5rem;margin:0 0 .25rem}
.sheet{color:#59636e;margin:0 0 1.5rem}
dl{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.6rem 1.5rem;margin:0}
dt{font-weight:600;color:#59636e}
dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
.empty{color:#8c959f}
ul.files{margin:0;padding-left:1.1rem}
footer{margin-top:1.5rem;font-size:.85rem;color:#59636e}
form{display:flex;flex-direction:column;gap:.75rem;max-width:20rem}
input{font:inherit;padding:.4rem .6rem;border:1px solid #d0d7de;border-radius:6px}
button{font:inherit;padding:.45rem .9rem;border:0;border-radius:6px;background:#1f6feb;color:#fff;cursor:pointer}
.error{color:#cf222e;font-weight:600}
`;

const SHEET = inlineStyleSheet(STYLE);

/** The page's Content-Security-Policy: nothing but this style sheet, same-origin images and form posts. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src ${SHEET.policySource}`,
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

function page(title: string, body: SafeHtml): string {
  return htmlDocument(title, SHEET, body);
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

function fieldValue(field: SharedField): SafeHtml {
  if (field.files) {
    // Download links are made by this server from PUBLIC_URL; anything else is shown as text only.
    const items = field.files.map((file) =>
      /^https?:\/\//.test(file.url) ? html`<li><a href="${file.url}" download="${file.name}">${file.name}</a> (${sizeText(file.size)})</li>` : html`<li>${file.name}</li>`,
    );
    return html`<ul class="files">${items}</ul>`;
  }
  return field.text === '' ? html`<span class="empty">—</span>` : html`${field.text}`;
}

/** The record: its visible fields as a list of names and values, the zone its times are in. */
export function recordPage(view: SharedRecordView): string {
  const heading = view.title ?? view.worksheet;
  const rows = view.fields.map((field) => html`<dt>${field.name}</dt><dd data-field="${field.id}">${fieldValue(field)}</dd>`);
  return page(
    heading,
    html`<h1>${heading}</h1>
<p class="sheet">${view.worksheet}</p>
<dl>${rows}</dl>
<footer>
<p>Dates and times are shown in the time zone <strong>${view.timeZone}</strong>. To see them in another, add <code>?tz=Area/City</code> to the address (for example <code>?tz=Europe/Berlin</code>).</p>
${view.expiresAt ? html`<p>This link works until ${formatInstant(view.expiresAt, view.timeZone)}.</p>` : ''}
<p>A read-only view shared with you.</p>
</footer>`,
  );
}

/** The password form; `action` is the page's own address. */
export function passwordPage(action: string, wrong: boolean): string {
  return page(
    'Password required',
    html`<h1>Password required</h1>
<p>This shared record is protected by a password.</p>
${wrong ? html`<p class="error" role="alert">That password is not right. Try again.</p>` : ''}
<form method="post" action="${action}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Open</button>
</form>`,
  );
}

/** Too many wrong passwords: when to try again. */
export function limitedPage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return page(
    'Too many attempts',
    html`<h1>Too many wrong passwords</h1>
<p>For your safety, this link does not accept more passwords from your address for now. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.</p>`,
  );
}

const GONE: Record<GoneReason, { title: string; text: string }> = {
  expired: { title: 'This link has expired', text: 'The link you opened was shared for a limited time, and that time is over. Ask the person who shared it for a new one.' },
  revoked: { title: 'This link was turned off', text: 'The person who shared this record has revoked the link. Ask them for a new one if you still need it.' },
  deleted: { title: 'This record was deleted', text: 'The record this link showed no longer exists.' },
};

export function gonePage(reason: GoneReason): string {
  const { title, text } = GONE[reason];
  return page(title, html`<h1>${title}</h1><p>${text}</p>`);
}

export function unknownPage(): string {
  return page('Link not found', html`<h1>Link not found</h1><p>This share link does not exist. Check that the address was copied completely.</p>`);
}

export function badZonePage(zone: string): string {
  return page('Unknown time zone', html`<h1>Unknown time zone</h1><p>"${zone}" is not a time zone name. Use a name such as <code>Europe/Berlin</code> or <code>America/New_York</code>, or leave <code>tz</code> out.</p>`);
}
