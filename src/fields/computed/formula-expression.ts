import jsep, { type Expression } from 'jsep';
import { AppError } from '../../shared/app-error.js';
import { replaceReferences } from './field-references.js';
import { roundTo } from '../kinds/number-kind.js';

/**
 * Formula expressions: parsed by jsep (a small, maintained expression parser that only builds a
 * syntax tree), then turned into a tree of closures that compute the value. No text is ever run as
 * JavaScript (no eval, no new Function), and only what is listed here can be reached: numbers,
 * `$field$` references, + - * / % ^ (power), comparisons (also `=` and `<>`), && || ! , `a ? b : c`,
 * parentheses and the functions below.
 */
jsep.removeBinaryOp('^');
// Power binds tighter than * and /, and from the right: 2 ^ 3 ^ 2 = 2 ^ 9.
jsep.addBinaryOp('^', 11, true);
jsep.addBinaryOp('=', 6);
jsep.addBinaryOp('<>', 6);
for (const op of ['|', '&', '<<', '>>', '>>>', '===', '!==', '??']) jsep.removeBinaryOp(op);
jsep.removeUnaryOp('~');

type Value = number | boolean | string;

function numbers(args: Value[]): number[] {
  return args.map(Number);
}

const DAY = 86_400_000;

/** Whole periods between two instants (epoch milliseconds): days, hours, months or years. */
export function dateDifference(start: number, end: number, unit: Value = 'D'): number {
  if (!Number.isFinite(start) || !Number.isFinite(end)) return NaN;
  const upper = String(unit).toUpperCase();
  if (upper === 'H') return Math.trunc((end - start) / 3_600_000);
  if (upper === 'D') return Math.trunc((end - start) / DAY);
  const from = new Date(start);
  const to = new Date(end);
  let months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
  // A month is whole once the day (and time) of the start is reached again.
  const reached = to.getUTCDate() * DAY + (end % DAY) >= from.getUTCDate() * DAY + (start % DAY);
  if (months > 0 && !reached) months--;
  if (upper === 'M') return months;
  if (upper === 'Y') return Math.trunc(months / 12);
  return NaN;
}

/** The functions a formula may call (upper case, as the public formula editor writes them). */
export const FORMULA_FUNCTIONS: Readonly<Record<string, (...args: Value[]) => Value>> = {
  SUM: (...args) => numbers(args).reduce((a, b) => a + b, 0),
  AVG: (...args) => (args.length === 0 ? NaN : numbers(args).reduce((a, b) => a + b, 0) / args.length),
  MIN: (...args) => Math.min(...numbers(args)),
  MAX: (...args) => Math.max(...numbers(args)),
  // Half away from zero on the decimal digits as written (1.005 → 1.01), like a Number field's precision.
  ROUND: (value, digits = 0) => roundTo(Number(value), Math.trunc(Number(digits))),
  ABS: (value) => Math.abs(Number(value)),
  FLOOR: (value) => Math.floor(Number(value)),
  CEILING: (value) => Math.ceil(Number(value)),
  MOD: (value, divisor) => Number(value) % Number(divisor),
  IF: (condition, then, otherwise = 0) => (condition ? then : otherwise),
  AND: (...args) => args.every(Boolean),
  OR: (...args) => args.some(Boolean),
  NOT: (value) => !value,
  /** DATEDIF(start, end, "D" | "H" | "M" | "Y"): whole days (the default), hours, months or years. */
  DATEDIF: (start, end, unit) => dateDifference(Number(start), Number(end), unit),
};

type Evaluate = (values: ReadonlyMap<string, number>) => Value;

const BINARY: Readonly<Record<string, (a: Value, b: Value) => Value>> = {
  '+': (a, b) => Number(a) + Number(b),
  '-': (a, b) => Number(a) - Number(b),
  '*': (a, b) => Number(a) * Number(b),
  '/': (a, b) => Number(a) / Number(b),
  '%': (a, b) => Number(a) % Number(b),
  '^': (a, b) => Number(a) ** Number(b),
  '>': (a, b) => Number(a) > Number(b),
  '>=': (a, b) => Number(a) >= Number(b),
  '<': (a, b) => Number(a) < Number(b),
  '<=': (a, b) => Number(a) <= Number(b),
  '=': (a, b) => Number(a) === Number(b),
  '==': (a, b) => Number(a) === Number(b),
  '<>': (a, b) => Number(a) !== Number(b),
  '!=': (a, b) => Number(a) !== Number(b),
  '&&': (a, b) => Boolean(a) && Boolean(b),
  '||': (a, b) => Boolean(a) || Boolean(b),
};

const UNARY: Readonly<Record<string, (a: Value) => Value>> = {
  '-': (a) => -Number(a),
  '+': (a) => Number(a),
  '!': (a) => !a,
};

/** The variable a reference becomes in the parsed text: `$<id>$` → `v_<id>`. */
const VARIABLE = /^v_(.+)$/;

/** Turns one node of the syntax tree into a closure; throws 10002 for anything formulas may not hold. */
function build(node: Expression, label: string, inputs: ReadonlySet<string>): Evaluate {
  const fail = (what: string): never => {
    throw AppError.invalidValue(`${label}: ${what} is not allowed in a formula`);
  };
  switch (node.type) {
    case 'Literal': {
      const value = node.value;
      if (typeof value !== 'number' && typeof value !== 'string' && typeof value !== 'boolean') return fail(`the constant ${String(node.raw)}`);
      return () => value;
    }
    case 'Identifier': {
      const name = String(node.name);
      const id = VARIABLE.exec(name)?.[1];
      if (id && inputs.has(id)) return (values) => values.get(id) ?? 0;
      if (name === 'true' || name === 'false') return () => name === 'true';
      return fail(`the name "${name}" (write fields as $id$ or $alias$)`);
    }
    case 'BinaryExpression': {
      const apply = BINARY[String(node.operator)] ?? fail(`the operator ${String(node.operator)}`);
      const left = build(node.left as Expression, label, inputs);
      const right = build(node.right as Expression, label, inputs);
      return (values) => apply(left(values), right(values));
    }
    case 'UnaryExpression': {
      const apply = UNARY[String(node.operator)] ?? fail(`the operator ${String(node.operator)}`);
      const argument = build(node.argument as Expression, label, inputs);
      return (values) => apply(argument(values));
    }
    case 'ConditionalExpression': {
      const test = build(node.test as Expression, label, inputs);
      const then = build(node.consequent as Expression, label, inputs);
      const otherwise = build(node.alternate as Expression, label, inputs);
      return (values) => (test(values) ? then(values) : otherwise(values));
    }
    case 'CallExpression': {
      const callee = node.callee as Expression;
      const name = callee.type === 'Identifier' ? String(callee.name) : '';
      const fn = Object.hasOwn(FORMULA_FUNCTIONS, name) ? FORMULA_FUNCTIONS[name] : fail(`the function ${name || 'call'} (use ${Object.keys(FORMULA_FUNCTIONS).join(', ')})`);
      const args = (node.arguments as Expression[]).map((argument) => build(argument, label, inputs));
      return (values) => fn(...args.map((argument) => argument(values)));
    }
    default:
      return fail(`${node.type.replace(/Expression$/, '').toLowerCase() || 'this'} syntax`);
  }
}

/** A formula ready to evaluate: the field ids it reads and the function that computes it. */
export interface CompiledFormula {
  inputs: string[];
  evaluate(values: ReadonlyMap<string, number>): number | null;
}

const compiled = new Map<string, CompiledFormula>();

/**
 * Compiles a formula whose references are field ids (`$<id>$`), once per text. Throws 10002 with
 * `label` for a syntax error or anything a formula may not hold.
 * @example compileFormula('ROUND($a1$ * 1.1, 2)', 'field "Gross"', ['a1']).evaluate(new Map([['a1', 10]])) // 11
 */
export function compileFormula(expression: string, label: string, inputIds: string[]): CompiledFormula {
  const known = compiled.get(expression);
  if (known) return known;
  let root: Expression;
  try {
    root = jsep(replaceReferences(expression, (id) => `v_${id}`));
  } catch (error) {
    throw AppError.invalidValue(`${label}: the formula does not parse: ${(error as Error).message}`);
  }
  const run = build(root, label, new Set(inputIds));
  const formula: CompiledFormula = {
    inputs: inputIds,
    evaluate(values) {
      const result = run(values);
      if (typeof result === 'boolean') return result ? 1 : 0;
      return typeof result === 'number' && Number.isFinite(result) ? result : null;
    },
  };
  if (compiled.size > 10_000) compiled.clear();
  compiled.set(expression, formula);
  return formula;
}
