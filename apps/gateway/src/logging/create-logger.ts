import { type Logger, pino } from 'pino';

/** The `log` block of the config. */
export interface LogSettings {
  level: string;
  /** `json`, `pretty`, or `auto`: pretty when stdout is a terminal, JSON otherwise. */
  format?: 'auto' | 'json' | 'pretty';
}

/**
 * The gateway's pino logger on stdout: one JSON object per line (for log collectors), or pino-pretty's coloured lines
 * for a person at a terminal (`format: auto` picks by `process.stdout.isTTY`). pino-pretty is loaded only when used.
 * @see https://getpino.io/#/docs/pretty
 */
export async function createLogger(settings: LogSettings, stdoutIsTTY = process.stdout.isTTY === true): Promise<Logger> {
  const format = settings.format ?? 'auto';
  const pretty = format === 'pretty' || (format === 'auto' && stdoutIsTTY);
  if (!pretty) return pino({ level: settings.level });
  const { default: prettyStream } = await import('pino-pretty');
  return pino({ level: settings.level }, prettyStream({ colorize: stdoutIsTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true }));
}
