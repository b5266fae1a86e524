import { describe, expect, it } from 'vitest';
import { compileFormula } from '../../src/fields/computed/formula-expression.js';
import { referencedKeys, replaceReferences } from '../../src/fields/computed/field-references.js';
import { AppError } from '../../src/shared/app-error.js';

const A = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbbbbbbbbbb';

function run(expression: string, values: Record<string, number> = {}): number | null {
  const ids = referencedKeys(expression);
  return compileFormula(expression, 'field "F"', ids).evaluate(new Map(Object.entries(values)));
}

function refusal(expression: string): string {
  try {
    compileFormula(expression, 'field "F"', referencedKeys(expression));
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(10002);
    return (error as AppError).message;
  }
  throw new Error(`"${expression}" was accepted`);
}

describe('formula expressions', () => {
  it('finds and replaces $field$ references, ids and aliases alike', () => {
    expect(referencedKeys(`$${A}$ + $price$ * $${A}$`)).toEqual([A, 'price']);
    expect(replaceReferences('$price$ - $cost$', (key) => `$${key.toUpperCase()}$`)).toBe('$PRICE$ - $COST$');
  });

  it('computes arithmetic, comparisons and the functions of the formula editor', () => {
    expect(run(`$${A}$ * 2 + $${B}$`, { [A]: 3, [B]: 1.5 })).toBe(7.5);
    expect(run(`ROUND($${A}$ / 3, 2)`, { [A]: 10 })).toBe(3.33);
    expect(run('ROUND(2.5) + ROUND(-2.5)')).toBe(0);
    expect(run('ROUND(1.005, 2)')).toBe(1.01);
    expect(run('SUM(1, 2, 3) + AVG(2, 4) + MIN(5, -1) + MAX(5, 9) + ABS(-2)')).toBe(6 + 3 - 1 + 9 + 2);
    expect(run(`IF($${A}$ > 5, 100, 1)`, { [A]: 6 })).toBe(100);
    expect(run(`IF(AND($${A}$ > 5, NOT($${B}$)), 1, 2)`, { [A]: 6, [B]: 0 })).toBe(1);
    expect(run(`$${A}$ > 5 ? 1 : 0`, { [A]: 2 })).toBe(0);
    expect(run('OR(0, 1) + FLOOR(2.7) + CEILING(2.1) + MOD(7, 3)')).toBe(1 + 2 + 3 + 1);
    expect(run('2 ^ 3 ^ 2 + 2 * 3 ^ 2')).toBe(512 + 18);
    expect(run(`IF($${A}$ = 2, 1, 0) + IF($${A}$ <> 2, 10, 0) + (true ? 100 : 0)`, { [A]: 2 })).toBe(101);
  });

  it('counts whole days, hours, months and years between dates with DATEDIF', () => {
    const day = (text: string) => Date.parse(`${text}T00:00:00Z`);
    expect(run(`DATEDIF($${A}$, $${B}$)`, { [A]: day('2026-01-01'), [B]: day('2026-03-01') })).toBe(59);
    expect(run(`DATEDIF($${A}$, $${B}$, "M")`, { [A]: day('2026-01-31'), [B]: day('2026-03-01') })).toBe(1);
    expect(run(`DATEDIF($${A}$, $${B}$, "Y")`, { [A]: day('2020-02-29'), [B]: day('2026-02-28') })).toBe(5);
    expect(run(`DATEDIF($${A}$, $${B}$, "H")`, { [A]: day('2026-01-01'), [B]: day('2026-01-02') })).toBe(24);
    expect(run(`DATEDIF($${A}$, $${B}$)`, { [A]: NaN, [B]: day('2026-01-02') })).toBeNull();
  });

  it('gives an empty value for what is not a finite number', () => {
    expect(run('1 / 0')).toBeNull();
    expect(run(`$${A}$ / $${B}$`, { [A]: 0, [B]: 0 })).toBeNull();
    expect(run('1 > 0')).toBe(1);
  });

  it('refuses what a formula may not hold, naming it', () => {
    expect(refusal('1 +')).toContain('does not parse');
    expect(refusal('cos(1)')).toContain('the function cos');
    expect(refusal('import(1)')).toContain('the function import');
    expect(refusal('x + 1')).toContain('the name "x"');
    expect(refusal('[1, 2]')).toContain('array syntax');
    expect(refusal('f(x) = 1')).toContain('is not allowed');
    expect(refusal('a = 1')).toContain('is not allowed');
    expect(refusal('"a".constructor')).toContain('is not allowed');
    expect(refusal('1:3')).toMatch(/is not allowed|does not parse/);
    expect(refusal('constructor(1)')).toContain('the function constructor');
    expect(refusal('1 | 2')).toMatch(/is not allowed|does not parse/);
    expect(refusal('this')).toContain('is not allowed');
  });
});
