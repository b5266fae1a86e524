import type { Ajv } from 'ajv';

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

/**
 * The ajv keyword behind `LenientBoolean()`: accepts true/false, 1/0 and their text in any
 * case, and replaces the value with a real boolean so that handlers only ever see booleans.
 */
export function lenientBooleanKeyword(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: 'x-lenient-boolean',
    modifying: true,
    errors: true,
    validate: function validate(
      this: unknown,
      _schema: unknown,
      data: unknown,
      _parentSchema: unknown,
      dataCtx?: { parentData: Record<string | number, unknown>; parentDataProperty: string | number },
    ): boolean {
      let result: boolean | undefined;
      if (typeof data === 'boolean') result = data;
      else if (data === 1 || data === 0) result = data === 1;
      else if (typeof data === 'string') {
        const lower = data.trim().toLowerCase();
        if (TRUE.has(lower)) result = true;
        else if (FALSE.has(lower)) result = false;
      }
      if (result === undefined) {
        (validate as unknown as { errors: unknown[] }).errors = [
          { keyword: 'type', message: 'must be a boolean (true or false)', params: { type: 'boolean' } },
        ];
        return false;
      }
      if (dataCtx) dataCtx.parentData[dataCtx.parentDataProperty] = result;
      return true;
    },
  });
  return ajv;
}
