import { Type, type Static } from '@sinclair/typebox';
import { defineNodeType, type NodeOutcome } from '../node-type.js';
import { resolveValue, ValueRef } from '../value-refs.js';
import { checkReferences } from './record-checks.js';
import { instantOf, isoOf } from '../instants.js';

const MINUTE = 60_000;

const Duration = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: -3650, maximum: 3650 })),
  hours: Type.Optional(Type.Integer({ minimum: -87_600, maximum: 87_600 })),
  minutes: Type.Optional(Type.Integer({ minimum: -5_256_000, maximum: 5_256_000 })),
});

function durationMs(duration: Static<typeof Duration> | undefined): number {
  return ((duration?.days ?? 0) * 1440 + (duration?.hours ?? 0) * 60 + (duration?.minutes ?? 0)) * MINUTE;
}

/**
 * Delay (public type 12): waits for a duration (`for: {days, hours, minutes}`), or until a date
 * (`until: {date: <value reference>, offset?: {days, hours, minutes}}`, the offset negative for
 * "before"). The wait is a timer job: it survives restarts, and the run goes on by `next` when it
 * fires. A date already past goes on at once; an empty date goes on at once with `until: null`.
 */
export const delayNode = defineNodeType({
  type: 'delay',
  code: 12,
  config: Type.Union([
    Type.Object({ for: Duration }),
    Type.Object({ until: Type.Object({ date: ValueRef, offset: Type.Optional(Duration) }) }),
  ]),
  exits: ['next'],
  effects: 'none',
  check(config, at) {
    if ('for' in config) return durationMs(config.for) > 0 ? [] : [{ path: 'for', message: 'the duration must be longer than nothing' }];
    return checkReferences([{ ref: config.until.date, path: 'until.date' }], at);
  },
  run(config, ctx): Promise<NodeOutcome> {
    let until: number | null;
    if ('for' in config) until = ctx.now() + durationMs(config.for);
    else {
      const date = instantOf(resolveValue(config.until.date, ctx.values), ctx.timeZone);
      until = date === null ? null : date + durationMs(config.until.offset);
    }
    if (until === null || until <= ctx.now()) return Promise.resolve({ exit: 'next', output: { until: until === null ? null : isoOf(until) } });
    return Promise.resolve({ wait: { until, state: { until } } });
  },
  resume(_config, wake) {
    return Promise.resolve({ exit: 'next', output: { until: isoOf(Number(wake.state.until)) } });
  },
});
