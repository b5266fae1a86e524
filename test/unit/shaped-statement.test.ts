import { afterAll, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/db/connection.js';
import { shapedStatement } from '../../src/db/sql-text-cache.js';

const database = openDatabase('sqlite::memory:');
afterAll(() => database.close());

const query = (qty: number, limit: number) => database.db.selectFrom('accounts').select('id').where('id', '>', String(qty)).limit(limit);

it('builds a shape once and then reuses its text with the parameters the caller lists', () => {
  const compile = vi.fn(() => query(5, 50).compile());
  const first = shapedStatement(database.db, 'test|shape-a', compile, ['5', 50]);
  expect(first).toEqual({ sql: query(5, 50).compile().sql, parameters: ['5', 50] });
  const second = shapedStatement(database.db, 'test|shape-a', () => query(7, 10).compile(), ['7', 10]);
  expect(second).toEqual({ sql: first.sql, parameters: ['7', 10] });
  expect(compile).toHaveBeenCalledTimes(1);
});

it('keeps nothing when the listed parameters are not the compiled ones, and answers with the compiled statement', () => {
  const compile = vi.fn(() => query(5, 50).compile());
  expect(shapedStatement(database.db, 'test|shape-b', compile, [50, '5'])).toEqual({ sql: query(5, 50).compile().sql, parameters: ['5', 50] });
  expect(shapedStatement(database.db, 'test|shape-b', compile, [50, '5']).parameters).toEqual(['5', 50]);
  expect(compile).toHaveBeenCalledTimes(2);
});
