/**
 * Readers of single settings: each takes the environment, the setting's name and its default, and
 * throws a `ConfigError` naming the setting when the value cannot be used.
 */

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly setting: string, message: string) {
    super(`Invalid configuration: ${setting} ${message}`);
    this.name = 'ConfigError';
  }
}

export function text(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? fallback : raw.trim();
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name, String(fallback));
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** A count that may also be `auto`: then `auto` (e.g. the number of cores). */
export function countOrAuto(env: Env, name: string, fallback: string, auto: number, min: number, max: number): number {
  const raw = text(env, name, fallback).toLowerCase();
  if (raw === 'auto') return Math.min(max, Math.max(min, auto));
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number or auto, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be auto or between ${min} and ${max}, got ${value}`);
  return value;
}

/** Reads sizes like `10485760`, `512kb`, `10mb`. */
export function byteSize(env: Env, name: string, fallback: string): number {
  const raw = text(env, name, fallback).toLowerCase();
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/.exec(raw);
  if (!match) throw new ConfigError(name, `must be a size such as 10485760, 512kb or 10mb, got "${raw}"`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(match[2] ?? 'b') as 'b'];
  const value = Number(match[1]) * unit;
  if (value < 1024) throw new ConfigError(name, 'must be at least 1kb');
  return value;
}

export function flag(env: Env, name: string, fallback = 'false'): boolean {
  const raw = text(env, name, fallback).toLowerCase();
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}
