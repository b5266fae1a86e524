import { all, create, type MathNode } from 'mathjs';
import { AppError } from '../../shared/app-error.js';
import { replaceReferences } from './field-references.js';
import { roundTo } from '../kinds/number-kind.js';

/**
 * Formula expressions, parsed and evaluated by mathjs (a maintained expression library that never
 * runs JavaScript from the text: no eval, no new Function). The text may use numbers, `$field$`
 * references, + - * / ^ %, comparisons, `and` `or` `not`, `a ? b : c`, parentheses, and the
 * functions below, nothing else: every node of the parsed tree is checked against that list before
 * a formula is accepted, so mathjs's own functions (units, matrices, `import`, `evaluate`) cannot be
 * reached from a formula.
 */
const math = create(all, { number: 'number' });

type Numeric = number | boolean;

function numbers(args: Numeric[]): number[] {
  return args.flat().map(Number);
}

const DAY = 86_400_000;

/** Whole periods between two instants (epoch milliseconds): days, hours, months or years. */
function dateDifference(start: number, end: number, unit = 'D'): number {
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
  if (months < 0 && reached && to.getUTCDate() !== from.getUTCDate()) months++;
  if (upper === 'M') return months;
  if (upper === 'Y') return Math.trunc(months / 12);
  return NaN;
}

/** The functions a formula may call (upper case, as the public formula editor writes them). */
export const FORMULA_FUNCTIONS: Readonly<Record<string, (...args: never[]) => unknown>> = {
  SUM: (...args: Numeric[]) => numbers(args).reduce((a, b) => a + b, 0),
  AVG: (...args: Numeric[]) => {
    const list = numbers(args);
    return list.length === 0 ? NaN : list.reduce((a, b) => a + b, 0) / list.length;
  },
  MIN: (...args: Numeric[]) => Math.min(...numbers(args)),
  MAX: (...args: Numeric[]) => Math.max(...numbers(args)),
  // Half away from zero on the decimal digits as written (1.005 → 1.01), like a Number field's precision.
  ROUND: (value: Numeric, digits: Numeric = 0) => roundTo(Number(value), Math.trunc(Number(digits))),
  ABS: (value: Numeric) => Math.abs(Number(value)),
  FLOOR: (value: Numeric) => Math.floor(Number(value)),
  CEILING: (value: Numeric) => Math.ceil(Number(value)),
  MOD: (value: Numeric, divisor: Numeric) => Number(value) % Number(divisor),
  IF: (condition: Numeric, then: Numeric, otherwise: Numeric = 0) => (condition ? then : otherwise),
  AND: (...args: Numeric[]) => args.every(Boolean),
  OR: (...args: Numeric[]) => args.some(Boolean),
  NOT: (value: Numeric) => !value,
  /** DATEDIF(start, end, "D" | "H" | "M" | "Y"): whole days (the default), hours, months or years. */
  DATEDIF: (start: Numeric, end: Numeric, unit?: string) => dateDifference(Number(start), Number(end), unit),
};

const OPERATORS = new Set(['add', 'subtract', 'multiply', 'divide', 'pow', 'mod', 'unaryMinus', 'unaryPlus', 'equal', 'unequal', 'smaller', 'larger', 'smallerEq', 'largerEq', 'and', 'or', 'not']);

/** The variable a reference becomes in the parsed text: `$<id>$` → `v_<id>`. */
function variableOf(fieldId: string): string {
  return `v_${fieldId}`;
}

/** Checks every node of a parsed formula against what formulas may hold; throws 10002 naming the first that may not. */
function checkNodes(root: MathNode, label: string, variables: Set<string>): void {
  root.traverse((node, _path, parent) => {
    const fail = (what: string) => {
      throw AppError.invalidValue(`${label}: ${what} is not allowed in a formula`);
    };
    switch (node.type) {
      case 'ConstantNode': {
        const value = (node as unknown as { value: unknown }).value;
        if (typeof value !== 'number' && typeof value !== 'string' && typeof value !== 'boolean') fail(`the constant ${String(value)}`);
        break;
      }
      case 'SymbolNode': {
        const name = (node as unknown as { name: string }).name;
        const calledAs = parent?.type === 'FunctionNode' && (parent as unknown as { fn: MathNode }).fn === node;
        if (calledAs ? !(name in FORMULA_FUNCTIONS) : !variables.has(name) && name !== 'true' && name !== 'false') {
          fail(calledAs ? `the function ${name} (use ${Object.keys(FORMULA_FUNCTIONS).join(', ')})` : `the name "${name}" (write fields as $id$ or $alias$)`);
        }
        break;
      }
      case 'OperatorNode':
        if (!OPERATORS.has((node as unknown as { fn: string }).fn)) fail(`the operator ${(node as unknown as { op: string }).op}`);
        break;
      case 'FunctionNode':
      case 'ParenthesisNode':
      case 'ConditionalNode':
        break;
      default:
        fail(`${node.type.replace(/Node$/, '').toLowerCase()} syntax`);
    }
  });
}

/** A formula ready to evaluate: the field ids it reads and the function that computes it. */
export interface CompiledFormula {
  inputs: string[];
  evaluate(values: Map<string, number>): number | null;
}

const compiled = new Map<string, CompiledFormula>();

/**
 * Compiles a formula whose references are field ids (`$<id>$`), once per text. Throws 10002 with
 * `label` for a syntax error or anything a formula may not hold.
 * @example compileFormula('ROUND($a1$ * 1.1, 2)', 'field "Gross"').evaluate(new Map([['a1', 10]])) // 11
 */
export function compileFormula(expression: string, label: string, inputIds: string[]): CompiledFormula {
  const known = compiled.get(expression);
  if (known) return known;
  const text = replaceReferences(expression, (id) => variableOf(id));
  let root: MathNode;
  try {
    root = math.parse(text);
  } catch (error) {
    throw AppError.invalidValue(`${label}: the formula does not parse: ${(error as Error).message}`);
  }
  checkNodes(root, label, new Set(inputIds.map(variableOf)));
  const code = root.compile();
  const formula: CompiledFormula = {
    inputs: inputIds,
    evaluate(values) {
      const scope: Record<string, unknown> = { ...FORMULA_FUNCTIONS };
      for (const id of inputIds) scope[variableOf(id)] = values.get(id) ?? 0;
      let result: unknown;
      try {
        result = code.evaluate(scope);
      } catch {
        return null;
      }
      if (typeof result === 'boolean') return result ? 1 : 0;
      return typeof result === 'number' && Number.isFinite(result) ? result : null;
    },
  };
  if (compiled.size > 10_000) compiled.clear();
  compiled.set(expression, formula);
  return formula;
}
