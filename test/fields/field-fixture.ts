import { expect } from 'vitest';
import { AppError } from '../../src/shared/app-error.js';
import type { FieldMeta, FieldOption, FieldType, ResolvedReferences, WriteContext } from '../../src/fields/field-type.js';
import { fieldTypeOf } from '../../src/fields/registry.js';

/** The label every unit test passes; rejections must name it. */
export const LABEL = 'fields[7] "Probe"';

export const ctx: WriteContext = { timeZone: 'UTC', label: LABEL };

export const noRefs: ResolvedReferences = { accounts: new Map(), departments: new Map(), regions: new Map(), records: new Map() };

/** A stored field of `code` with the given config and options, as the registry's types see it. */
export function fieldOf(code: string, config: Record<string, unknown> = {}, options: FieldOption[] = []): FieldMeta {
  return {
    id: 'f0000000000000000000000a',
    worksheetId: 'w0000000000000000000000a',
    name: 'Probe',
    alias: 'probe',
    type: code,
    required: false,
    isTitle: false,
    isUnique: false,
    position: 1,
    options,
    config,
    description: '',
    fieldType: fieldTypeOf(code),
  };
}

/** The type's write, which every value-holding type has. */
export function writerOf(code: string): (value: unknown, field?: FieldMeta, context?: WriteContext) => unknown {
  const type: FieldType = fieldTypeOf(code);
  if (!type.write) throw new Error(`type ${code} has no write`);
  const write = type.write.bind(type);
  return (value, field = fieldOf(code), context = ctx) => write(value, field, context);
}

/** The type's read, with no references resolved unless given. */
export function readerOf(code: string): (stored: unknown, field?: FieldMeta, refs?: ResolvedReferences) => unknown {
  const type: FieldType = fieldTypeOf(code);
  const read = type.read.bind(type);
  return (stored, field = fieldOf(code), refs = noRefs) => read(stored, field, refs);
}

/** Runs `action` and returns the AppError it throws (fails the test when it throws nothing else). */
export function caught(action: () => unknown): AppError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected an AppError, but nothing was thrown');
}

/** Asserts a rejected value: 10002, HTTP 400, and a message naming the field's label. */
export function expectBadValue(action: () => unknown, label = LABEL): AppError {
  const error = caught(action);
  expect(error.code).toBe(10002);
  expect(error.httpStatus).toBe(400);
  expect(error.message).toContain(label);
  return error;
}
