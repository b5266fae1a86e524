import { createHash } from 'node:crypto';
import type { Executor } from '../../db/connection.js';
import * as repository from './repository.js';

/** A signed-in session ends after this long without a request… */
export const SESSION_IDLE_MS = 12 * 3_600_000;
/** …and this long after signing in, whatever happens. */
export const SESSION_ABSOLUTE_MS = 7 * 86_400_000;
/** `seen_at` is written at most this often per session (not on every page). */
const TOUCH_EVERY_MS = 60_000;

/** What a session holds: the person it signed in, and when. */
export interface SessionData {
  accountId?: string;
  signedInAt?: number;
  [key: string]: unknown;
}

type Callback<T = void> = (error?: Error | null, value?: T) => void;

/** The store interface of @fastify/session (express-session's, with callbacks). */
export interface PluginStore {
  get(sessionId: string, callback: Callback<SessionData | null>): void;
  set(sessionId: string, session: SessionData, callback: Callback): void;
  destroy(sessionId: string, callback: Callback): void;
}

/** What is stored of a session id: its SHA-256, so that a copy of the table lets nobody in. */
export function sessionIdHash(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

/**
 * The signed-in sessions of the web pages, in the database (`sessions`), so that every process
 * knows them and ending one (sign-out, a password change, a disabled person) ends it everywhere.
 * Only sessions that signed a person in are kept: an anonymous visitor leaves no row. A session
 * is refused (and removed) once it has been idle for SESSION_IDLE_MS, SESSION_ABSOLUTE_MS after it
 * began, or when its person is disabled. Times come from the server's clock.
 * @example const accountId = (await store.find(sessionId))?.accountId
 */
export class SessionStore {
  private sweptAt = 0;

  constructor(
    private readonly db: Executor,
    private readonly clock: () => number,
  ) {}

  /** The live session with this id, or null. */
  async find(sessionId: string): Promise<SessionData | null> {
    const row = await this.live(sessionId);
    return row ? { ...(JSON.parse(row.data) as SessionData), accountId: row.account_id } : null;
  }

  /** The person a live session signed in, with their home organization (the API's session strategy); null when it has ended. */
  async signedIn(sessionId: string): Promise<{ accountId: string; organizationId: string } | null> {
    const row = await this.live(sessionId);
    return row ? { accountId: row.account_id, organizationId: row.organization_id } : null;
  }

  /** A session's row while it lives; an ended one is removed. Its `seen_at` is kept up to date within a minute. */
  private async live(sessionId: string) {
    const idHash = sessionIdHash(sessionId);
    const row = await repository.findSession(this.db, idHash);
    if (!row) return null;
    const now = this.clock();
    if (Number(row.account_status) !== 1 || now - Number(row.seen_at) >= SESSION_IDLE_MS || now - Number(row.created_at) >= SESSION_ABSOLUTE_MS) {
      await repository.deleteSession(this.db, idHash);
      return null;
    }
    if (now - Number(row.seen_at) >= TOUCH_EVERY_MS) await repository.touchSession(this.db, idHash, now);
    return row;
  }

  /** Keeps a session that has signed a person in; any other is not kept. */
  async save(sessionId: string, session: SessionData): Promise<void> {
    if (typeof session.accountId !== 'string') return;
    const now = this.clock();
    // The absolute lifetime runs from sign-in, also for the new id a password change gives the session.
    const createdAt = typeof session.signedInAt === 'number' ? session.signedInAt : now;
    await repository.saveSession(this.db, { id: sessionIdHash(sessionId), account_id: session.accountId, data: JSON.stringify(session), created_at: createdAt, seen_at: now });
    await this.sweep(now);
  }

  async destroy(sessionId: string): Promise<void> {
    await repository.deleteSession(this.db, sessionIdHash(sessionId));
  }

  /** Ends every session of a person except `keepSessionId` (after a password change). */
  async endOthers(accountId: string, keepSessionId: string | null): Promise<void> {
    await repository.deleteSessionsOf(this.db, accountId, keepSessionId === null ? null : sessionIdHash(keepSessionId));
  }

  /** Removes expired sessions, at most once a minute (they are refused anyway when presented). */
  private async sweep(now: number): Promise<void> {
    if (now - this.sweptAt < TOUCH_EVERY_MS) return;
    this.sweptAt = now;
    await repository.deleteStaleSessions(this.db, now - SESSION_IDLE_MS, now - SESSION_ABSOLUTE_MS);
  }

  /** This store in the callback form @fastify/session calls. */
  forPlugin(): PluginStore {
    const settle = <T>(work: Promise<T>, callback: Callback<T>) => {
      work.then(
        (value) => callback(null, value),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    };
    return {
      get: (sessionId, callback) => settle(this.find(sessionId), callback),
      set: (sessionId, session, callback) => settle(this.save(sessionId, session), callback),
      destroy: (sessionId, callback) => settle(this.destroy(sessionId), callback),
    };
  }
}
