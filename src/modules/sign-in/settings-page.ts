import { SCOPES, type ScopeName } from '../../access/index.js';
import { html, type SafeHtml } from '../../shared/html-template.js';
import type { TokenView } from '../access-tokens/index.js';
import { csrfField, page } from './layout.js';
import { MIN_PASSWORD_LENGTH } from './service.js';

export interface SettingsPageState {
  csrfToken: string;
  person: { email: string; fullname: string };
  tokens: TokenView[];
  apps: Array<{ id: string; name: string }>;
  /** Calling the API through this session: its CSRF token and the headers' names. */
  api: { csrfToken: string; csrfHeader: string; appIdHeader: string };
  notice?: string;
  passwordError?: string;
  tokenError?: string;
}

/** The scopes by area (`record`, `worksheet`, …), in the order of `access/scopes.ts`. */
const SCOPE_AREAS: ReadonlyArray<[string, ScopeName[]]> = (() => {
  const areas = new Map<string, ScopeName[]>();
  for (const name of Object.keys(SCOPES) as ScopeName[]) {
    const area = name.split(':')[0];
    areas.set(area, [...(areas.get(area) ?? []), name]);
  }
  return [...areas];
})();

const day = (iso: string | null) => (iso === null ? '—' : iso.slice(0, 16).replace('T', ' '));

function tokenRow(token: TokenView, csrfToken: string): SafeHtml {
  const revoke =
    token.status === 'revoked'
      ? html`<span class="muted">revoked</span>`
      : html`<form method="post" action="/settings/tokens/${encodeURIComponent(token.id)}/revoke">${csrfField(csrfToken)}<button class="danger" type="submit" aria-label="Revoke ${token.name}">Revoke</button></form>`;
  return html`<tr data-token="${token.id}">
<td>${token.name}</td><td><code>${token.hint}</code></td><td>${token.scopes.join(', ')}</td>
<td>${token.appIds === null ? 'all' : token.appIds.join(', ')}</td>
<td>${token.expiresAt === null ? 'never' : day(token.expiresAt)}</td><td data-status>${token.status}</td><td>${day(token.lastUsedAt)}</td>
<td>${revoke}</td></tr>`;
}

function tokensTable(state: SettingsPageState): SafeHtml {
  if (state.tokens.length === 0) return html`<p class="muted">You have no personal access tokens yet.</p>`;
  return html`<table>
<thead><tr><th scope="col">Name</th><th scope="col">Token</th><th scope="col">Scopes</th><th scope="col">Applications</th><th scope="col">Expires (UTC)</th><th scope="col">Status</th><th scope="col">Last used (UTC)</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${state.tokens.map((token) => tokenRow(token, state.csrfToken))}</tbody>
</table>`;
}

function scopeFieldsets(): SafeHtml[] {
  return SCOPE_AREAS.map(
    ([area, names]) => html`<fieldset class="scopes"><legend>${area}</legend>${names.map((name) => {
      const id = `scope-${name.replace(/[^a-z0-9]/gi, '-')}`;
      return html`<label for="${id}"><input type="checkbox" id="${id}" name="scopes" value="${name}"> ${name}</label>`;
    })}</fieldset>`,
  );
}

function newTokenForm(state: SettingsPageState): SafeHtml {
  const apps = state.apps.map((app) => html`<label><input type="checkbox" name="appIds" value="${app.id}"> ${app.name} <code class="muted">${app.id}</code></label><br>`);
  return html`<form method="post" action="/settings/tokens">
${csrfField(state.csrfToken)}
<p><label for="token-name">Name</label><br><input id="token-name" name="name" type="text" required maxlength="100" placeholder="e.g. nightly export"></p>
<fieldset><legend>Scopes</legend>
<p><label for="all-scopes"><input type="checkbox" id="all-scopes" name="allScopes" value="on"> Every scope</label></p>
${scopeFieldsets()}
</fieldset>
<fieldset><legend>Expires</legend>
<label><input type="radio" name="expires" value="never" checked> never</label>
<label><input type="radio" name="expires" value="1"> in 1 day</label>
<label><input type="radio" name="expires" value="7"> in 7 days</label>
<label><input type="radio" name="expires" value="30"> in 30 days</label>
<label><input type="radio" name="expires" value="date"> at the end of</label>
<label for="expires-on" class="muted">(date, UTC)</label> <input id="expires-on" name="expiresOn" type="date">
</fieldset>
<fieldset><legend>Applications</legend>
<label><input type="radio" name="apps" value="all" checked> all of mine, now and later</label><br>
<label><input type="radio" name="apps" value="listed"> only these:</label><br>
${apps}
</fieldset>
<button type="submit">Create token</button>
</form>`;
}

/** How to call the API through this session, with its CSRF token (the same as `GET /sign-in/csrf` answers). */
function apiSection(api: SettingsPageState['api']): SafeHtml {
  return html`<h2 id="api-heading">The API from this browser</h2>
<p class="muted">While you are signed in, this server's pages can call the API as you (with your roles, not narrowed by scopes): name the application in <code>${api.appIdHeader}</code>, and on every call that changes data send this session's token in <code>${api.csrfHeader}</code>. It lasts as long as this session; <code>GET /sign-in/csrf</code> answers it too.</p>
<code id="api-csrf-token" class="new-token" aria-labelledby="api-heading">${api.csrfToken}</code>`;
}

/** The settings page: who is signed in, sign-out, password change, tokens and a new token. */
export function settingsPage(state: SettingsPageState): string {
  return page(
    'Settings',
    html`<header><h1>Settings</h1>
<form method="post" action="/sign-out">${csrfField(state.csrfToken)}<button class="quiet" type="submit">Sign out</button></form></header>
<p>Signed in as <strong>${state.person.fullname}</strong> (<span id="signed-in-email">${state.person.email}</span>).</p>
${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ''}
<h2 id="password-heading">Password</h2>
${state.passwordError ? html`<p class="error" role="alert" id="password-error">${state.passwordError}</p>` : ''}
<form class="stack" method="post" action="/settings/password" aria-labelledby="password-heading">
${csrfField(state.csrfToken)}
<label for="current-password">Current password</label>
<input id="current-password" name="current" type="password" autocomplete="current-password" required>
<label for="new-password">New password (at least ${MIN_PASSWORD_LENGTH} characters)</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}">
<label for="confirm-password">New password again</label>
<input id="confirm-password" name="confirm" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}">
<button type="submit">Change password</button>
</form>
<h2>Personal access tokens</h2>
<p class="muted">A token lets a script call the API as you (<code>Authorization: Bearer …</code>), limited to the scopes and applications you choose.</p>
${tokensTable(state)}
<h2 id="new-token-heading">New token</h2>
${state.tokenError ? html`<p class="error" role="alert" id="token-error">${state.tokenError}</p>` : ''}
${newTokenForm(state)}
${apiSection(state.api)}`,
  );
}

/** The new token, shown this once. */
export function tokenCreatedPage(token: TokenView & { token: string }): string {
  return page(
    'New token',
    html`<h1>Your new token</h1>
<p class="notice" role="status">Copy it now: it is shown only this once and cannot be read again.</p>
<p id="new-token-label">Token “${token.name}”:</p>
<code id="new-token" class="new-token" aria-labelledby="new-token-label">${token.token}</code>
<p>Scopes: ${token.scopes.join(', ')}<br>
Applications: ${token.appIds === null ? 'all of yours' : token.appIds.join(', ')}<br>
Expires: ${token.expiresAt === null ? 'never' : `${day(token.expiresAt)} UTC`}</p>
<p><a href="/settings">Back to settings</a></p>`,
  );
}
