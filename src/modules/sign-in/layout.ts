import { html, htmlDocument, inlineStyleSheet, type SafeHtml } from '../../shared/html-template.js';

/**
 * The frame of the sign-in and settings pages: server-rendered, no JavaScript, one inline style
 * sheet allowed by its hash in the Content-Security-Policy. Every value goes through `html`.
 */
const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f8fa;margin:0;padding:2rem 1rem}
main{max-width:52rem;margin:0 auto;background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:1.5rem 2rem}
header{display:flex;justify-content:space-between;align-items:center;gap:1rem;flex-wrap:wrap}
h1{font-size:1.5rem;margin:0 0 1rem}
h2{font-size:1.2rem;margin:2rem 0 .75rem;border-top:1px solid #d0d7de;padding-top:1.25rem}
form.stack{display:flex;flex-direction:column;gap:.6rem;max-width:24rem}
fieldset{border:1px solid #d0d7de;border-radius:6px;margin:0 0 .75rem;padding:.5rem .9rem}
legend{font-weight:600;padding:0 .3rem}
fieldset.scopes{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.1rem .9rem}
input[type=text],input[type=email],input[type=password],input[type=date]{font:inherit;padding:.4rem .6rem;border:1px solid #d0d7de;border-radius:6px}
button{font:inherit;padding:.4rem .9rem;border:0;border-radius:6px;background:#1f6feb;color:#fff;cursor:pointer}
button.danger{background:#cf222e}
button.quiet{background:#59636e}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;border-bottom:1px solid #d0d7de;padding:.4rem .5rem;vertical-align:top}
td form{margin:0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
.new-token{display:block;background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.75rem;font-size:1.05rem}
.error{color:#cf222e;font-weight:600}
.notice{color:#1a7f37;font-weight:600}
.muted{color:#59636e}
`;

const SHEET = inlineStyleSheet(STYLE);

/** The pages' Content-Security-Policy: this style sheet, and forms posting to this server only. */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src ${SHEET.policySource}`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The settings page's policy: the pages', and `fetch` to this server (the page shows the CSRF token
 * for calling the API through the session, e.g. from the browser's console). It has no script.
 */
export const SETTINGS_CONTENT_SECURITY_POLICY = `${PAGE_CONTENT_SECURITY_POLICY}; connect-src 'self'`;

/** A whole page. */
export function page(title: string, body: SafeHtml): string {
  return htmlDocument(`${title} · Tabularium`, SHEET, body);
}

/** The hidden field that carries a form's CSRF token. */
export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

/** A page that only says something (a refusal, an error), with a way back. */
export function messagePage(title: string, text: string, back: { href: string; label: string }): string {
  return page(title, html`<h1>${title}</h1><p role="alert">${text}</p><p><a href="${back.href}">${back.label}</a></p>`);
}
