/**
 * How the lookups show other people's phone numbers and emails (`GET /v3/users/lookup`), by the
 * public service's rules: enough to tell two people apart, not enough to contact them.
 */

/**
 * A phone number with its first 3 and last 4 characters kept and the rest starred; a number of
 * fewer than 8 characters (an extension) keeps only its last 2. Empty stays empty.
 * @example maskedMobile('13812345678') === '138****5678'; maskedMobile('12345') === '***45'
 */
export function maskedMobile(mobile: string): string {
  const chars = [...mobile];
  if (chars.length === 0) return '';
  if (chars.length < 8) return '*'.repeat(Math.max(chars.length - 2, 0)) + chars.slice(-2).join('');
  return chars.slice(0, 3).join('') + '*'.repeat(chars.length - 7) + chars.slice(-4).join('');
}

/**
 * An email with its local part masked: longer than 4 characters, the last 4 become `****`
 * (`abcdefg@example.com` → `abc****@example.com`); 4 or fewer, the first character and `***`
 * (`ab@example.com` → `a***@example.com`, a one-character part too). The domain is kept.
 * @example maskedEmail('alice.smith@example.org') === 'alice.s****@example.org'
 */
export function maskedEmail(email: string): string {
  if (email === '') return '';
  const at = email.lastIndexOf('@');
  const local = [...(at < 0 ? email : email.slice(0, at))];
  const domain = at < 0 ? '' : email.slice(at);
  const masked = local.length > 4 ? `${local.slice(0, -4).join('')}****` : `${local.slice(0, 1).join('')}***`;
  return masked + domain;
}
