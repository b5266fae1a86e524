import { html } from '../../shared/html-template.js';
import { csrfField, page } from '../sign-in/index.js';
import type { AuthorizeRequest } from './authorize.js';

/**
 * The consent page: names the client and every scope it asks for; Allow or Deny post the request
 * back (with the CSRF token of the person's session) to `POST /oauth/authorize`.
 */
export function consentPage(request: AuthorizeRequest, person: { email: string }, csrfToken: string): string {
  const hidden = (name: string, value: string | undefined) => (value === undefined ? html`` : html`<input type="hidden" name="${name}" value="${value}">`);
  return page(
    'Authorize',
    html`<h1>Authorize <span id="client-name">${request.clientName}</span></h1>
<p><strong>${request.clientName}</strong> asks to act as <span id="signed-in-email">${person.email}</span> with these scopes:</p>
<ul id="scopes">${request.scopes.map((scope) => html`<li><code>${scope}</code></li>`)}</ul>
<p class="muted">It will be sent back to <code>${request.redirectUri}</code>.</p>
<form method="post" action="/oauth/authorize" class="stack">
${csrfField(csrfToken)}
${hidden('response_type', 'code')}${hidden('client_id', request.clientId)}${hidden('redirect_uri', request.redirectUri)}${hidden('scope', request.scopes.join(' '))}${hidden('state', request.state)}${hidden('code_challenge', request.codeChallenge)}${hidden('code_challenge_method', request.codeChallenge === undefined ? undefined : 'S256')}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="quiet">Deny</button>
</form>`,
  );
}
