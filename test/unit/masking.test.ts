import { describe, expect, it } from 'vitest';
import { maskedEmail, maskedMobile } from '../../src/modules/people/index.js';

describe('masking of the member lookup', () => {
  it('keeps the first 3 and last 4 characters of a mobile, the last 2 of a short one', () => {
    expect(maskedMobile('13812345678')).toBe('138****5678');
    expect(maskedMobile('12345678')).toBe('123*5678');
    expect(maskedMobile('1234567')).toBe('*****67');
    expect(maskedMobile('')).toBe('');
  });

  it('drops the last 4 characters of a long local part, keeps the first of a short one', () => {
    expect(maskedEmail('abcdefg@example.com')).toBe('abc****@example.com');
    expect(maskedEmail('abcde@example.com')).toBe('a****@example.com');
    expect(maskedEmail('abcd@example.com')).toBe('a***@example.com');
    expect(maskedEmail('ab@example.com')).toBe('a***@example.com');
    expect(maskedEmail('a@example.com')).toBe('a***@example.com');
    expect(maskedEmail('')).toBe('');
  });
});
