import { describe, expect, it } from 'vitest';
import { expectBadValue, readerOf, writerOf } from './field-fixture.js';

/** Text-like types without a form check: any text is kept as written. */
const FREE_TEXT = ['2', '7', '21', '39', '41', '43', '47'];

describe.each(FREE_TEXT)('free text type %s', (code) => {
  const write = writerOf(code);
  const read = readerOf(code);

  it('keeps text as written and reads it back', () => {
    for (const text of ['hello', '  padded  ', '多语言 ✓', 'line one\nline two', '<p>a &amp; b</p>']) {
      expect(write(text)).toBe(text);
      expect(read(text)).toBe(text);
    }
  });

  it('takes a finite number as its decimal text', () => {
    expect(write(42)).toBe('42');
    expect(write(-1.5)).toBe('-1.5');
  });

  it('reads an empty value as ""', () => {
    expect(read(null)).toBe('');
  });

  it('refuses values that are not text with 10002 naming the field', () => {
    for (const value of [true, false, { a: 1 }, ['a'], Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(expectBadValue(() => write(value)).message).toContain('expected text');
    }
  });

  it('refuses text over a million characters', () => {
    expect(write('x'.repeat(1_000_000))).toHaveLength(1_000_000);
    expectBadValue(() => write('x'.repeat(1_000_001)));
  });
});

describe('3 PhoneNumber', () => {
  const write = writerOf('3');
  it('accepts mobile numbers with + and separators', () => {
    for (const phone of ['13800138000', '+8613800138000', '+86 138 0013 8000', '555-123-4567', '555.123.4567']) expect(write(phone)).toBe(phone);
  });
  it('refuses what is not a phone number', () => {
    for (const bad of ['abc', '12', '+', '138-0013-8000 ext', 'phone: 123456', '++8613800138000']) {
      expect(expectBadValue(() => write(bad)).message).toContain('is not a phone number');
    }
  });
});

describe('4 LandlinePhone', () => {
  const write = writerOf('4');
  it('accepts landline numbers with extensions', () => {
    for (const phone of ['010-12345678', '+86 10 1234 5678', '021-12345678#123', '0571-8888-6666-1']) expect(write(phone)).toBe(phone);
  });
  it('refuses what is not a phone number', () => {
    for (const bad of ['call me', '1', '#123', '010_12345678']) expectBadValue(() => write(bad));
  });
});

describe('5 Email', () => {
  const write = writerOf('5');
  it('accepts user@host.tld', () => {
    for (const address of ['a@b.co', 'first.last+tag@mail.example.org']) expect(write(address)).toBe(address);
  });
  it('refuses what is not an e-mail address', () => {
    for (const bad of ['plain', 'a@b', '@b.com', 'a b@c.com', 'a@b c.com']) {
      expect(expectBadValue(() => write(bad)).message).toContain('is not an e-mail address');
    }
  });
});

describe('42 Signature', () => {
  const write = writerOf('42');
  it('accepts an http(s) URL or a data:image base64 URL', () => {
    for (const url of ['https://files.example.com/sig.png', 'http://127.0.0.1/s.png', 'data:image/png;base64,iVBORw0KGgo=', 'data:image/svg+xml;base64,PHN2Zz4=']) {
      expect(write(url)).toBe(url);
    }
  });
  it('refuses anything else', () => {
    for (const bad of ['signature', 'ftp://files.example.com/sig.png', 'data:text/plain;base64,aGk=', 'data:image/png,raw', 'https://has space.png']) {
      expect(expectBadValue(() => write(bad)).message).toContain('data:image');
    }
  });
});
