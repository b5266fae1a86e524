import { expect, it } from 'vitest';
import { sqliteCacheShareMb } from '../../src/processes/memory-shares.js';

it('divides the SQLite page cache budget among the server processes', () => {
  expect(sqliteCacheShareMb(64, 1)).toBe(64);
  expect(sqliteCacheShareMb(64, 2)).toBe(32);
  expect(sqliteCacheShareMb(256, 3)).toBe(85);
});

it('gives each process 16 MB at least, unless the budget itself is smaller', () => {
  expect(sqliteCacheShareMb(64, 8)).toBe(16);
  expect(sqliteCacheShareMb(8, 4)).toBe(8);
});
