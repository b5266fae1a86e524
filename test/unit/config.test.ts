import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';

/** The error loadConfig throws for `env`, so its class, setting and message can be checked. */
function configErrorFor(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig defaults', () => {
  it('serves the embedded SQLite file on 127.0.0.1:8080 when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/tabularium.db',
      headerPrefix: 'SVC',
      timeZone: 'UTC',
      bodyLimit: 10 * 1024 * 1024,
      logLevel: 'info',
      publicUrl: 'http://127.0.0.1:8080',
      redisUrl: null,
    });
  });

  it('treats empty and blank settings as unset', () => {
    const config = loadConfig({ PORT: '', HOST: '  ', DATABASE_URL: '', HEADER_PREFIX: ' ', TIME_ZONE: '', BODY_LIMIT: '', REDIS_URL: '' });
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', databaseUrl: 'sqlite:./data/tabularium.db', headerPrefix: 'SVC', timeZone: 'UTC', redisUrl: null });
  });

  it('does not read process.env when an environment is passed', () => {
    const saved = process.env.PORT;
    process.env.PORT = 'abc';
    try {
      expect(loadConfig({}).port).toBe(8080);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });
});

describe('loadConfig reads valid settings', () => {
  it('takes each setting as given', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '::1',
      DATABASE_URL: 'postgres://app@127.0.0.1:5432/tabularium?schema=prod',
      HEADER_PREFIX: 'Acme2',
      LOG_LEVEL: 'WARN',
      BODY_LIMIT: '512kb',
      TIME_ZONE: 'Europe/Berlin',
      REDIS_URL: 'rediss://127.0.0.1:6380',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '::1',
      databaseUrl: 'postgres://app@127.0.0.1:5432/tabularium?schema=prod',
      headerPrefix: 'Acme2',
      logLevel: 'warn',
      bodyLimit: 512 * 1024,
      timeZone: 'Europe/Berlin',
      redisUrl: 'rediss://127.0.0.1:6380',
      publicUrl: 'http://[::1]:9000',
    });
  });

  it('accepts port 0 (any free port) and plain byte counts', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ BODY_LIMIT: '2048' }).bodyLimit).toBe(2048);
    expect(loadConfig({ BODY_LIMIT: '1GB' }).bodyLimit).toBe(1024 ** 3);
  });

  it('drops trailing slashes from PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://tables.example.com/' }).publicUrl).toBe('https://tables.example.com');
  });
});

describe('loadConfig refuses invalid settings with a ConfigError naming the setting', () => {
  const cases: Array<[setting: string, value: string]> = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'sqlite:'],
    ['HEADER_PREFIX', 'S V'],
    ['HEADER_PREFIX', '1SVC'],
    ['LOG_LEVEL', 'loud'],
    ['BODY_LIMIT', 'ten'],
    ['BODY_LIMIT', '100'],
    ['TIME_ZONE', 'Mars/Base'],
    ['PUBLIC_URL', 'ftp://x'],
    ['PUBLIC_URL', 'not a url'],
    ['REDIS_URL', 'http://x'],
    ['API_PROFILE', 'hap'],
    ['RATE_LIMIT', '-5'],
    ['RATE_LIMIT', 'lots'],
    ['RATE_LIMIT_PER_IP', '1.5'],
    ['RATE_LIMIT_WINDOW_SECONDS', '0'],
    ['DAILY_QUOTA', 'x'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', 'proxy.local'],
    ['REDIS_KEY_PREFIX', 'has space'],
    ['SESSION_SECRET', 'too short'],
    ['SIGN_IN_ATTEMPTS_PER_ACCOUNT', '0'],
    ['SIGN_IN_ATTEMPTS_PER_IP', 'many'],
    ['SMTP_URL', 'mail.example.com'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['HTTP_REQUEST_PRIVATE', 'maybe'],
    ['NOTIFY_MAIL', 'off'],
  ];

  it.each(cases)('%s=%s', (setting, value) => {
    const error = configErrorFor({ [setting]: value });
    expect(error.name).toBe('ConfigError');
    expect(error.setting).toBe(setting);
    expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${setting} `));
  });

  it('reads the mail and outbound HTTP settings: no SMTP_URL (no mail), a sender from PUBLIC_URL, private HTTP targets refused', () => {
    expect(loadConfig({})).toMatchObject({ smtpUrl: null, mailFrom: 'Tabularium <no-reply@127.0.0.1>', httpRequestPrivate: false });
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'Ops <ops@example.com>', HTTP_REQUEST_PRIVATE: 'true', PUBLIC_URL: 'https://t.example.com' })).toMatchObject({ smtpUrl: 'smtps://u:p@mail.example.com:465', mailFrom: 'Ops <ops@example.com>', httpRequestPrivate: true });
    expect(loadConfig({ PUBLIC_URL: 'https://t.example.com' }).mailFrom).toBe('Tabularium <no-reply@t.example.com>');
  });

  it('mails notifications when SMTP_URL is set, unless NOTIFY_MAIL=false', () => {
    const smtp = { SMTP_URL: 'smtp://127.0.0.1:2525' };
    expect([loadConfig({}).notificationMail, loadConfig({ NOTIFY_MAIL: 'true' }).notificationMail]).toEqual([false, false]);
    expect([loadConfig(smtp).notificationMail, loadConfig({ ...smtp, NOTIFY_MAIL: 'false' }).notificationMail]).toEqual([true, false]);
  });

  it('reads the sign-in settings: no SESSION_SECRET (a key in the database), 5 per email and 20 per address', () => {
    expect(loadConfig({})).toMatchObject({ sessionSecret: null, signInAttemptsPerAccount: 5, signInAttemptsPerIp: 20 });
    const secret = 'x'.repeat(32);
    expect(loadConfig({ SESSION_SECRET: secret, SIGN_IN_ATTEMPTS_PER_ACCOUNT: '3', SIGN_IN_ATTEMPTS_PER_IP: '50' })).toMatchObject({ sessionSecret: secret, signInAttemptsPerAccount: 3, signInAttemptsPerIp: 50 });
    expect(configErrorFor({ SESSION_SECRET: 'short' }).message).toBe('Invalid configuration: SESSION_SECRET must be at least 32 characters, got 5');
  });

  it('sweeps expired rows every 60 minutes by default; SWEEP_INTERVAL_MINUTES sets it, 0 turns it off, at most a week', () => {
    expect(loadConfig({}).sweepIntervalMinutes).toBe(60);
    expect(loadConfig({ SWEEP_INTERVAL_MINUTES: '5' }).sweepIntervalMinutes).toBe(5);
    expect(loadConfig({ SWEEP_INTERVAL_MINUTES: '0' }).sweepIntervalMinutes).toBe(0);
    expect(configErrorFor({ SWEEP_INTERVAL_MINUTES: '10081' }).message).toBe('Invalid configuration: SWEEP_INTERVAL_MINUTES must be between 0 and 10080, got 10081');
    expect(configErrorFor({ SWEEP_INTERVAL_MINUTES: 'hourly' }).setting).toBe('SWEEP_INTERVAL_MINUTES');
  });

  it('quotes the offending value so the operator sees what was read', () => {
    expect(configErrorFor({ PORT: 'abc' }).message).toContain('"abc"');
    expect(configErrorFor({ PORT: '70000' }).message).toContain('70000');
    expect(configErrorFor({ DATABASE_URL: 'mysql://x' }).message).toContain('"mysql://x"');
    expect(configErrorFor({ TIME_ZONE: 'Mars/Base' }).message).toContain('"Mars/Base"');
  });

  it('names the range a port must be in', () => {
    expect(configErrorFor({ PORT: '70000' }).message).toContain('between 0 and 65535');
  });
});

describe('API_PROFILE', () => {
  it('is spec by default, with the SVC header prefix', () => {
    expect(loadConfig({})).toMatchObject({ apiProfile: 'spec', headerPrefix: 'SVC' });
  });

  it('public switches the header prefix to HAP unless HEADER_PREFIX is set', () => {
    expect(loadConfig({ API_PROFILE: 'public' })).toMatchObject({ apiProfile: 'public', headerPrefix: 'HAP' });
    expect(loadConfig({ API_PROFILE: 'Public', HEADER_PREFIX: 'SVC' })).toMatchObject({ apiProfile: 'public', headerPrefix: 'SVC' });
    expect(loadConfig({ API_PROFILE: 'spec', HEADER_PREFIX: 'HAP' })).toMatchObject({ apiProfile: 'spec', headerPrefix: 'HAP' });
  });

  it('names the allowed values when refused', () => {
    expect(configErrorFor({ API_PROFILE: 'hap' }).message).toBe('Invalid configuration: API_PROFILE must be one of spec, public, got "hap"');
  });
});

describe('rate limits and the trust-proxy setting', () => {
  it('limits by default: 1200 per credential and 2400 per address a minute, no daily quota, no proxy trusted', () => {
    expect(loadConfig({})).toMatchObject({ rateLimit: 1200, rateLimitPerIp: 2400, rateLimitWindowSeconds: 60, dailyQuota: 0, trustProxy: false, redisKeyPrefix: 'tabularium:' });
  });

  it('reads limits, 0 as off, and every form of TRUST_PROXY', () => {
    expect(loadConfig({ RATE_LIMIT: '0', RATE_LIMIT_PER_IP: '50', RATE_LIMIT_WINDOW_SECONDS: '1', DAILY_QUOTA: '100000' })).toMatchObject({ rateLimit: 0, rateLimitPerIp: 50, rateLimitWindowSeconds: 1, dailyQuota: 100_000 });
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'FALSE' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,2001:db8::1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '2001:db8::1']);
  });

  it('names TRUST_PROXY and the entry it could not read', () => {
    expect(configErrorFor({ TRUST_PROXY: '10.0.0.1, proxy.local' }).message).toContain('"proxy.local" is none of these');
  });
});

describe('HTTP_PROCESSES', () => {
  it('serves from one process by default; a count, or auto for one per core', async () => {
    const { availableParallelism } = await import('node:os');
    expect(loadConfig({}).httpProcesses).toBe(1);
    expect(loadConfig({ HTTP_PROCESSES: '3' }).httpProcesses).toBe(3);
    expect(loadConfig({ HTTP_PROCESSES: 'AUTO' }).httpProcesses).toBe(Math.min(64, availableParallelism()));
  });

  it('names HTTP_PROCESSES and what it takes when refused', () => {
    expect(configErrorFor({ HTTP_PROCESSES: 'many' }).message).toBe('Invalid configuration: HTTP_PROCESSES must be a whole number or auto, got "many"');
    expect(configErrorFor({ HTTP_PROCESSES: '0' }).message).toBe('Invalid configuration: HTTP_PROCESSES must be auto or between 1 and 64, got 0');
  });
});

describe('IDLE_COLLECT_SECONDS and PG_NAMED_READS', () => {
  it.each([
    ['IDLE_COLLECT_SECONDS', 'idleCollectMs', 5_000, '30', 30_000],
    ['PG_NAMED_READS', 'pgNamedReads', 200, '500', 500],
  ] as const)('%s: a default, a value as given (seconds in ms), 0 for off, and refused by name', (name, key, byDefault, given, read) => {
    expect(loadConfig({})[key]).toBe(byDefault);
    expect(loadConfig({ [name]: given })[key]).toBe(read);
    expect(loadConfig({ [name]: '0' })[key]).toBe(0);
    expect(configErrorFor({ [name]: '-1' }).message).toContain(name);
  });
});

describe('SQLITE_CACHE_MB', () => {
  it('is 64 MB by default, read as given, and refused by name below 1', () => {
    expect(loadConfig({}).sqliteCacheMb).toBe(64);
    expect(loadConfig({ SQLITE_CACHE_MB: '128' }).sqliteCacheMb).toBe(128);
    expect(configErrorFor({ SQLITE_CACHE_MB: '0' }).setting).toBe('SQLITE_CACHE_MB');
  });
});

describe('the job workers and the crash-test switch', () => {
  it('runs 4 workers with a 60 s lease and no crash point by default', () => {
    expect(loadConfig({})).toMatchObject({ workers: 4, workerPollMs: 500, workerLeaseMs: 60_000, crashAt: null });
  });

  it('reads WORKER_LEASE_MS and CRASH_AT with or without an arrival count', () => {
    expect(loadConfig({ WORKER_LEASE_MS: '3000' }).workerLeaseMs).toBe(3000);
    expect(loadConfig({ CRASH_AT: 'step-commit' }).crashAt).toEqual({ point: 'step-commit', nth: 1 });
    expect(loadConfig({ CRASH_AT: 'run-start:12' }).crashAt).toEqual({ point: 'run-start', nth: 12 });
  });

  it('names CRASH_AT and its points when the value is none of them', () => {
    const error = configErrorFor({ CRASH_AT: 'mid-air' });
    expect(error.setting).toBe('CRASH_AT');
    expect(error.message).toContain('run-start, between-steps, step-commit');
    expect(configErrorFor({ CRASH_AT: 'step-commit:0' }).setting).toBe('CRASH_AT');
    expect(configErrorFor({ WORKER_LEASE_MS: '10' }).setting).toBe('WORKER_LEASE_MS');
  });
});

describe('the embeddings and language model services', () => {
  it('uses none by default (the built-in embedder; chatbots cannot answer), and takes documents up to 20mb', () => {
    expect(loadConfig({})).toMatchObject({ embeddings: null, llm: null, knowledgeDocumentMaxBytes: 20 * 1024 * 1024 });
  });

  it('reads each service: the base URL without its trailing slash, the model, the key, the timeouts and the batch size', () => {
    const config = loadConfig({
      EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1/',
      EMBEDDINGS_MODEL: 'nomic-embed-text',
      EMBEDDINGS_BATCH_SIZE: '16',
      LLM_URL: 'https://api.example.com/v1',
      LLM_MODEL: 'gpt-4o-mini',
      LLM_API_KEY: 'sk-123',
      LLM_TIMEOUT_MS: '60000',
      KNOWLEDGE_DOCUMENT_MAX_SIZE: '5mb',
    });
    expect(config.embeddings).toEqual({ url: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', apiKey: null, timeoutMs: 30_000, batchSize: 16 });
    expect(config.llm).toEqual({ url: 'https://api.example.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-123', timeoutMs: 60_000 });
    expect(config.knowledgeDocumentMaxBytes).toBe(5 * 1024 * 1024);
  });

  it.each([
    [{ EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1' }, 'EMBEDDINGS_MODEL', 'must be set when EMBEDDINGS_URL is set'],
    [{ LLM_MODEL: 'llama3.1' }, 'LLM_MODEL', 'is set but LLM_URL is not'],
    [{ EMBEDDINGS_API_KEY: 'sk-1' }, 'EMBEDDINGS_API_KEY', 'is set but EMBEDDINGS_URL is not'],
    [{ LLM_URL: 'ftp://models.local/v1', LLM_MODEL: 'm' }, 'LLM_URL', 'must be an http(s) URL'],
    [{ LLM_URL: 'localhost:11434', LLM_MODEL: 'm' }, 'LLM_URL', 'must be an http(s) URL'],
    [{ LLM_URL: 'http://127.0.0.1:8000/v1/chat/completions', LLM_MODEL: 'm' }, 'LLM_URL', 'without /chat/completions (the server adds it): use "http://127.0.0.1:8000/v1"'],
    [{ EMBEDDINGS_URL: 'http://127.0.0.1:8000/v1/embeddings/', EMBEDDINGS_MODEL: 'm' }, 'EMBEDDINGS_URL', 'use "http://127.0.0.1:8000/v1"'],
    [{ EMBEDDINGS_URL: 'http://127.0.0.1:8000/v1?key=1', EMBEDDINGS_MODEL: 'm' }, 'EMBEDDINGS_URL', 'without a query or fragment'],
    [{ EMBEDDINGS_URL: 'http://h/v1', EMBEDDINGS_MODEL: 'm', EMBEDDINGS_BATCH_SIZE: '0' }, 'EMBEDDINGS_BATCH_SIZE', 'between 1 and 2048'],
    [{ LLM_URL: 'http://h/v1', LLM_MODEL: 'm', LLM_TIMEOUT_MS: 'soon' }, 'LLM_TIMEOUT_MS', 'whole number'],
    [{ KNOWLEDGE_DOCUMENT_MAX_SIZE: 'big' }, 'KNOWLEDGE_DOCUMENT_MAX_SIZE', 'must be a size'],
    [{ EMBEDDINGS_BATCH_SIZE: '5000' }, 'EMBEDDINGS_BATCH_SIZE', 'between 1 and 2048'],
    [{ LLM_TIMEOUT_MS: '-1' }, 'LLM_TIMEOUT_MS', 'whole number'],
  ])('refuses %j, naming %s', (env, setting, message) => {
    const error = configErrorFor(env as Record<string, string>);
    expect(error.setting).toBe(setting);
    expect(error.message).toContain(message);
  });
});
