import { html } from '../../shared/html-template.js';
import { csrfField, page } from './layout.js';

/** The one message of every failed sign-in: it does not say whether the account exists. */
export const WRONG_SIGN_IN = 'Email or password is wrong.';

export interface SignInPageState {
  csrfToken: string;
  /** Where to go after signing in (already checked to be a path of this server). */
  next: string;
  email?: string;
  error?: string;
  notice?: string;
}

/** The sign-in form. */
export function signInPage(state: SignInPageState): string {
  return page(
    'Sign in',
    html`<h1>Sign in</h1>
${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ''}
${state.error ? html`<p class="error" role="alert">${state.error}</p>` : ''}
<form class="stack" method="post" action="/sign-in">
${csrfField(state.csrfToken)}
<input type="hidden" name="next" value="${state.next}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${state.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

/** Too many failed sign-ins: when to try again. */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
