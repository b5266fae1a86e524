import { createHash } from 'node:crypto';
import type { Executor } from '../../db/connection.js';
import * as repository from './repository.js';

/** Failures are counted over this window. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

export interface AttemptLimits {
  perAccount: number;
  perIp: number;
}

/**
 * Failed sign-ins, counted in the database (`sign_in_failures`) so that every process shares the
 * count: per email (hashed, counted whether or not an account has it, so that the limit says
 * nothing about which emails exist) and per client address. Over a limit within the window, the
 * client waits until the oldest counted failure leaves it. A right password clears its email's
 * count, not its address's.
 * @example const wait = await attempts.waitMs(email, ip, now); if (wait === 0) { … }
 */
export class SignInAttempts {
  private sweptAt = 0;

  constructor(
    private readonly db: Executor,
    private readonly limits: AttemptLimits,
  ) {}

  private keys(email: string, ip: string): { account: string; ip: string } {
    return { account: `email:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`, ip: `ip:${ip}` };
  }

  private async waitFor(key: string, limit: number, now: number): Promise<number> {
    const times = await repository.recentFailures(this.db, key, now - SIGN_IN_WINDOW_MS, limit);
    return times.length < limit ? 0 : times[limit - 1] + SIGN_IN_WINDOW_MS - now;
  }

  /** Milliseconds until this email may be tried again from this address; 0 when it may now. */
  async waitMs(email: string, ip: string, now: number): Promise<number> {
    const keys = this.keys(email, ip);
    return Math.max(await this.waitFor(keys.account, this.limits.perAccount, now), await this.waitFor(keys.ip, this.limits.perIp, now));
  }

  async fail(email: string, ip: string, now: number): Promise<void> {
    const keys = this.keys(email, ip);
    await repository.addFailures(this.db, [keys.account, keys.ip], now);
    // Failures that have left the window are removed now and then, so the table stays small.
    if (now - this.sweptAt >= SIGN_IN_WINDOW_MS) {
      this.sweptAt = now;
      await repository.deleteFailuresBefore(this.db, now - SIGN_IN_WINDOW_MS);
    }
  }

  async succeed(email: string, ip: string): Promise<void> {
    await repository.clearFailures(this.db, this.keys(email, ip).account);
  }
}
