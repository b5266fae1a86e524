import type { LoggerOptions } from 'pino';
import type { Config } from './index.js';

/**
 * The log settings every process of the server uses (pino's options; Fastify's logger is pino):
 * pretty lines in development, JSON lines in production; false when LOG_LEVEL is silent.
 */
export function loggerOptions(config: Config): LoggerOptions | false {
  if (config.logLevel === 'silent') return false;
  return config.prettyLogs
    ? { level: config.logLevel, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } }
    : { level: config.logLevel };
}
