import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import ipaddr from 'ipaddr.js';
import { API_PROFILES, defaultHeaderPrefix, type ApiProfile } from '../shared/api-profile.js';
import { byteSize, ConfigError, countOrAuto, flag, integer, text, type Env } from './env-readers.js';
import { embeddingsEndpoint, llmEndpoint, type EmbeddingsEndpoint, type ModelEndpoint } from './model-endpoints.js';

export { ConfigError };

/**
 * The one typed configuration object. `process.env` is read here and nowhere else;
 * an invalid setting stops the process with a message that names it.
 */
export interface Config {
  port: number;
  host: string;
  /** `sqlite:./data/tabularium.db` (embedded) or `postgres://…` (server mode). */
  databaseUrl: string;
  /**
   * PostgreSQL: how many of the reads repeated most early get a prepared (named) statement per
   * connection (PG_NAMED_READS, default 200); 0 for a pgbouncer before 1.21 in transaction mode.
   */
  pgNamedReads: number;
  /**
   * SQLite: the page cache of each connection in megabytes (SQLITE_CACHE_MB, default 64), divided
   * among the HTTP processes (`processes/memory-shares.ts`).
   */
  sqliteCacheMb: number;
  /**
   * The wire profile: `spec` (the specification's shapes and statuses) or `public` (the public
   * service's: flat records, type names, business errors with HTTP 200, `HAP` headers).
   */
  apiProfile: ApiProfile;
  /** Prefix of the custom auth headers: `{prefix}-Appkey`, `{prefix}-Sign`, `{prefix}-Appid`. */
  headerPrefix: string;
  /** The address clients reach this server at (used in links); defaults to http://HOST:PORT. */
  publicUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** IANA zone used to read date-times written without an offset. */
  timeZone: string;
  /** Optional Redis, for what several processes must share. */
  redisUrl: string | null;
  /** Pretty, human log lines instead of JSON. */
  prettyLogs: boolean;
  /** Where attached files are kept (FILES_DIR; default: `files` beside the SQLite database, else ./data/files). */
  filesDir: string;
  /** Largest attached file, in bytes (ATTACHMENT_MAX_SIZE, default 50mb). */
  attachmentMaxBytes: number;
  /** Most files one attachment field of one record holds (ATTACHMENT_MAX_PER_RECORD, default 100). */
  attachmentsPerRecord: number;
  /** Bytes of files an application may keep (APP_FILE_QUOTA, default 10gb). */
  appFileQuotaBytes: number;
  /** Whether attachment URLs may point at private, loopback and link-local addresses (ATTACHMENT_FETCH_PRIVATE, default false). */
  fetchPrivateAddresses: boolean;
  /** How long fetching one attachment URL may take (ATTACHMENT_FETCH_TIMEOUT_MS, default 15000). */
  fetchTimeoutMs: number;
  /** How long a signed download link stays valid, in seconds (DOWNLOAD_LINK_TTL, default 3600). */
  downloadLinkSeconds: number;
  /** Up to this many records a new or edited computed field is computed in its structure change's transaction; beyond, in the background (COMPUTE_INLINE_MAX_ROWS, default 100000). */
  computeInlineMaxRows: number;
  /** Days a deleted record stays in the recycle bin before it is removed for good, with its files and log (RECYCLE_BIN_DAYS, default 60). */
  recycleBinDays: number;
  /**
   * Processes that serve HTTP on the one port (HTTP_PROCESSES, default 1; `auto`: one per core).
   * Over 1, `serve` starts a supervisor of that many server processes, each with WORKERS job
   * workers (docs/operations.md, "Several server processes on one port").
   */
  httpProcesses: number;
  /** Quiet time after which a process that served requests runs one full garbage collection (IDLE_COLLECT_SECONDS, default 5; 0: never), in ms. */
  idleCollectMs: number;
  /** Background jobs (workflow runs) this process runs at once (WORKERS, default 4; 0: this process runs none, e.g. an API-only process beside `tabularium worker`). */
  workers: number;
  /** How often an idle worker looks for due jobs, in ms (WORKER_POLL_MS, default 500); jobs made in the same process are taken at once. */
  workerPollMs: number;
  /**
   * How long a worker's claim on a job holds before another worker may take the job over, in ms
   * (WORKER_LEASE_MS, default 60000): how soon the jobs of a process that died are run elsewhere. A
   * step must commit within it (each commit extends it).
   */
  workerLeaseMs: number;
  /**
   * For the crash-recovery tests only (CRASH_AT=point or point:n, unset in production): the process
   * kills itself with SIGKILL the nth time (default 1st) its workflow engine reaches the point
   * (`run-start`, `between-steps`, `step-commit`; see workflow/crash-points.ts).
   */
  crashAt: CrashAt | null;
  /** Where mail goes out (SMTP_URL, `smtp://user:password@host:587` or `smtps://…:465`); null: no mail is sent (workflows' send_email nodes fail, saying so). */
  smtpUrl: string | null;
  /** The sender of the mail the server sends (MAIL_FROM, default `Tabularium <no-reply@HOST of PUBLIC_URL>`). */
  mailFrom: string;
  /**
   * Whether in-app notifications are also mailed to their people: when SMTP_URL is set, unless
   * NOTIFY_MAIL=false (then SMTP serves workflows' send_email nodes only). A person may turn their
   * own notification mail off (`PATCH /v3/notifications/settings`).
   */
  notificationMail: boolean;
  /** Whether workflows' HTTP request nodes may reach private, loopback and link-local addresses (HTTP_REQUEST_PRIVATE, default false). */
  httpRequestPrivate: boolean;
  /** How long `POST …/workflow/hooks/{process_id}` waits for its run to end before it answers the run id instead of the outputs, in ms (WORKFLOW_HOOK_WAIT_MS, default 10000; 0 answers at once). */
  workflowHookWaitMs: number;
  /** Wrong passwords one client may try on one share link per 15 minutes before it must wait (SHARE_PASSWORD_ATTEMPTS, default 5). */
  sharePasswordAttempts: number;
  /** Most drafts one creator keeps in one worksheet's draft box (DRAFT_LIMIT, default 10; 0 turns drafts off). */
  draftLimit: number;
  /** Requests one credential (and one user, across their credentials) may make per window (RATE_LIMIT, default 1200; 0 turns it off). */
  rateLimit: number;
  /** Requests one client address may make per window, authenticated or not (RATE_LIMIT_PER_IP, default 2400; 0 turns it off). */
  rateLimitPerIp: number;
  /** The rate limits' window, in seconds (RATE_LIMIT_WINDOW_SECONDS, default 60). */
  rateLimitWindowSeconds: number;
  /** Requests one credential may make per day, the day of TIME_ZONE (DAILY_QUOTA, default 0 = no quota). */
  dailyQuota: number;
  /**
   * Which proxies are trusted to say the client's address in X-Forwarded-For (TRUST_PROXY, default false):
   * false, true (any), a hop count, or addresses and CIDR ranges (also loopback, linklocal, uniquelocal).
   */
  trustProxy: boolean | number | string[];
  /** Prefix of every key this server writes to Redis (REDIS_KEY_PREFIX, default `tabularium:`), so installations can share one Redis. */
  redisKeyPrefix: string;
  /**
   * Signs the session and CSRF cookies of the web pages (SESSION_SECRET, at least 32 characters);
   * null: a key kept in the database (`server_secrets`), the same for every process.
   */
  sessionSecret: string | null;
  /** Failed sign-ins one email may have within 15 minutes before it must wait (SIGN_IN_ATTEMPTS_PER_ACCOUNT, default 5). */
  signInAttemptsPerAccount: number;
  /** Failed sign-ins one client address may have within 15 minutes before it must wait (SIGN_IN_ATTEMPTS_PER_IP, default 20). */
  signInAttemptsPerIp: number;
  /** How long an OAuth access token lives, in seconds (OAUTH_ACCESS_TOKEN_SECONDS, default 3600). */
  oauthAccessTokenSeconds: number;
  /** Minutes between two maintenance sweeps of expired sessions, codes and tokens (SWEEP_INTERVAL_MINUTES, default 60; 0 turns it off). */
  sweepIntervalMinutes: number;
  /** The OpenAI-compatible embeddings service new knowledge bases use (EMBEDDINGS_URL, _MODEL, _API_KEY, _TIMEOUT_MS, _BATCH_SIZE); null: the built-in embedder. */
  embeddings: EmbeddingsEndpoint | null;
  /** The OpenAI-compatible chat model chatbots answer with (LLM_URL, _MODEL, _API_KEY, _TIMEOUT_MS); null: chatbots cannot answer. */
  llm: ModelEndpoint | null;
  /** Largest document a knowledge base takes, in bytes (KNOWLEDGE_DOCUMENT_MAX_SIZE, default 20mb). */
  knowledgeDocumentMaxBytes: number;
  /** Memory each process may hold knowledge-base vectors in for fast vector search, in bytes (KNOWLEDGE_VECTOR_CACHE_MB, default 64; 0: off). */
  knowledgeVectorCacheBytes: number;
}

/** Where the workflow engine may be told to kill its process, for the crash-recovery tests (workflow/crash-points.ts). */
export const CRASH_POINTS = ['run-start', 'between-steps', 'step-commit'] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];
export interface CrashAt {
  point: CrashPoint;
  /** The arrival at the point that kills (1: the first). */
  nth: number;
}


const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;




function databaseUrl(env: Env): string {
  const raw = text(env, 'DATABASE_URL', 'sqlite:./data/tabularium.db');
  if (/^sqlite:.+/.test(raw) || /^postgres(ql)?:\/\/.+/.test(raw)) return raw;
  throw new ConfigError('DATABASE_URL', `must start with sqlite: or postgres://, got "${raw}"`);
}

function timeZone(env: Env): string {
  const raw = text(env, 'TIME_ZONE', 'UTC');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: raw });
  } catch {
    throw new ConfigError('TIME_ZONE', `must be an IANA time zone such as UTC or Europe/Berlin, got "${raw}"`);
  }
  return raw;
}

function publicUrl(env: Env, host: string, port: number): string {
  const fallback = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const raw = text(env, 'PUBLIC_URL', fallback);
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new ConfigError('PUBLIC_URL', `must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

/**
 * Builds the configuration from an environment (normally `process.env`).
 * @example loadConfig({ PORT: '9000', DATABASE_URL: 'postgres://127.0.0.1/test' })
 */
export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = text(env, 'HOST', '127.0.0.1');
  const apiProfile = text(env, 'API_PROFILE', 'spec').toLowerCase();
  if (!(API_PROFILES as readonly string[]).includes(apiProfile)) {
    throw new ConfigError('API_PROFILE', `must be one of ${API_PROFILES.join(', ')}, got "${apiProfile}"`);
  }
  const headerPrefix = text(env, 'HEADER_PREFIX', defaultHeaderPrefix(apiProfile as ApiProfile));
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(headerPrefix)) {
    throw new ConfigError('HEADER_PREFIX', `must be letters and digits, starting with a letter, got "${headerPrefix}"`);
  }
  const logLevel = text(env, 'LOG_LEVEL', 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const redisUrl = text(env, 'REDIS_URL', '');
  if (redisUrl && !/^rediss?:\/\/.+/.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', `must start with redis:// or rediss://, got "${redisUrl}"`);
  }
  return {
    port,
    host,
    databaseUrl: databaseUrl(env),
    pgNamedReads: integer(env, 'PG_NAMED_READS', 200, 0, 10_000),
    sqliteCacheMb: integer(env, 'SQLITE_CACHE_MB', 64, 1, 65_536),
    apiProfile: apiProfile as ApiProfile,
    headerPrefix,
    publicUrl: publicUrl(env, host, port),
    logLevel: logLevel as Config['logLevel'],
    bodyLimit: byteSize(env, 'BODY_LIMIT', '10mb'),
    timeZone: timeZone(env),
    redisUrl: redisUrl || null,
    prettyLogs: text(env, 'NODE_ENV', 'development') !== 'production' && env.LOG_FORMAT !== 'json',
    filesDir: text(env, 'FILES_DIR', defaultFilesDir(databaseUrl(env))),
    attachmentMaxBytes: byteSize(env, 'ATTACHMENT_MAX_SIZE', '50mb'),
    attachmentsPerRecord: integer(env, 'ATTACHMENT_MAX_PER_RECORD', 100, 1, 10_000),
    appFileQuotaBytes: byteSize(env, 'APP_FILE_QUOTA', '10gb'),
    fetchPrivateAddresses: flag(env, 'ATTACHMENT_FETCH_PRIVATE'),
    fetchTimeoutMs: integer(env, 'ATTACHMENT_FETCH_TIMEOUT_MS', 15_000, 100, 600_000),
    downloadLinkSeconds: integer(env, 'DOWNLOAD_LINK_TTL', 3600, 10, 30 * 86_400),
    computeInlineMaxRows: integer(env, 'COMPUTE_INLINE_MAX_ROWS', 100_000, 0, 100_000_000),
    recycleBinDays: integer(env, 'RECYCLE_BIN_DAYS', 60, 1, 36_500),
    httpProcesses: countOrAuto(env, 'HTTP_PROCESSES', '1', availableParallelism(), 1, 64),
    idleCollectMs: integer(env, 'IDLE_COLLECT_SECONDS', 5, 0, 3_600) * 1000,
    workers: integer(env, 'WORKERS', 4, 0, 256),
    workerPollMs: integer(env, 'WORKER_POLL_MS', 500, 10, 60_000),
    workerLeaseMs: integer(env, 'WORKER_LEASE_MS', 60_000, 1000, 3_600_000),
    crashAt: crashAt(env),
    smtpUrl: smtpUrl(env),
    mailFrom: text(env, 'MAIL_FROM', `Tabularium <no-reply@${new URL(publicUrl(env, host, port)).hostname}>`),
    // NOTIFY_MAIL is checked first, so that a wrong value is refused even while SMTP_URL is unset.
    notificationMail: flag(env, 'NOTIFY_MAIL', 'true') && smtpUrl(env) !== null,
    httpRequestPrivate: flag(env, 'HTTP_REQUEST_PRIVATE'),
    workflowHookWaitMs: integer(env, 'WORKFLOW_HOOK_WAIT_MS', 10_000, 0, 300_000),
    sharePasswordAttempts: integer(env, 'SHARE_PASSWORD_ATTEMPTS', 5, 1, 1000),
    draftLimit: integer(env, 'DRAFT_LIMIT', 10, 0, 100_000),
    rateLimit: integer(env, 'RATE_LIMIT', 1200, 0, 1_000_000_000),
    rateLimitPerIp: integer(env, 'RATE_LIMIT_PER_IP', 2400, 0, 1_000_000_000),
    rateLimitWindowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
    dailyQuota: integer(env, 'DAILY_QUOTA', 0, 0, 1_000_000_000),
    trustProxy: trustProxy(env),
    redisKeyPrefix: redisKeyPrefix(env),
    sessionSecret: sessionSecret(env),
    signInAttemptsPerAccount: integer(env, 'SIGN_IN_ATTEMPTS_PER_ACCOUNT', 5, 1, 1000),
    signInAttemptsPerIp: integer(env, 'SIGN_IN_ATTEMPTS_PER_IP', 20, 1, 100_000),
    oauthAccessTokenSeconds: integer(env, 'OAUTH_ACCESS_TOKEN_SECONDS', 3600, 60, 86_400),
    sweepIntervalMinutes: integer(env, 'SWEEP_INTERVAL_MINUTES', 60, 0, 10_080),
    embeddings: embeddingsEndpoint(env),
    llm: llmEndpoint(env),
    knowledgeDocumentMaxBytes: byteSize(env, 'KNOWLEDGE_DOCUMENT_MAX_SIZE', '20mb'),
    knowledgeVectorCacheBytes: integer(env, 'KNOWLEDGE_VECTOR_CACHE_MB', 64, 0, 65_536) * 1024 * 1024,
  };
}

/** CRASH_AT: unset, or a crash point with an optional arrival count (`step-commit:3`). */
function crashAt(env: Env): CrashAt | null {
  const raw = text(env, 'CRASH_AT', '');
  if (raw === '') return null;
  const match = /^([a-z-]+)(?::(\d+))?$/.exec(raw);
  const point = match?.[1] as CrashPoint | undefined;
  const nth = Number(match?.[2] ?? 1);
  if (!point || !CRASH_POINTS.includes(point) || nth < 1) {
    throw new ConfigError('CRASH_AT', `must be one of ${CRASH_POINTS.join(', ')}, optionally followed by :n (n ≥ 1), got "${raw}"`);
  }
  return { point, nth };
}

/** SMTP_URL: unset, or an smtp:// or smtps:// URL (nodemailer's form, options as query parameters). */
function smtpUrl(env: Env): string | null {
  const raw = text(env, 'SMTP_URL', '');
  if (raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('SMTP_URL', 'must be a URL such as smtp://user:password@mail.example.com:587');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError('SMTP_URL', `must start with smtp:// or smtps://, got "${url.protocol}//"`);
  return raw;
}

/** SESSION_SECRET: unset, or at least 32 characters (it signs session cookies). */
function sessionSecret(env: Env): string | null {
  const raw = text(env, 'SESSION_SECRET', '');
  if (raw === '') return null;
  if (raw.length < 32) throw new ConfigError('SESSION_SECRET', `must be at least 32 characters, got ${raw.length}`);
  return raw;
}

/** Files beside an SQLite database file; elsewhere ./data/files. */
function defaultFilesDir(databaseUrl: string): string {
  const file = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length).replace(/^\/\//, '') : '';
  if (file === '' || file === ':memory:') return './data/files';
  return join(dirname(file), 'files');
}


/** Names proxy-addr (Fastify's trustProxy) knows for groups of ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(env: Env): boolean | number | string[] {
  const raw = text(env, 'TRUST_PROXY', 'false');
  const lower = raw.toLowerCase();
  if (['false', '0', 'no'].includes(lower)) return false;
  if (['true', 'yes'].includes(lower)) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    if (PROXY_RANGE_NAMES.includes(entry)) continue;
    const valid = entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
    if (!valid) {
      throw new ConfigError('TRUST_PROXY', `must be false, true, a hop count, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal; "${entry}" is none of these`);
    }
  }
  return entries;
}

function redisKeyPrefix(env: Env): string {
  const raw = text(env, 'REDIS_KEY_PREFIX', 'tabularium:');
  if (!/^[\w:.-]{1,64}$/.test(raw)) throw new ConfigError('REDIS_KEY_PREFIX', `must be 1 to 64 letters, digits, or _ : . -, got "${raw}"`);
  return raw;
}
