import { once } from 'node:events';
import { type Logger, pino } from 'pino';

/** The `log` block of the config. */
export interface LogSettings {
  level: string;
  /** `json`, `pretty`, or `auto`: pretty when stdout is a terminal, JSON otherwise. */
  format?: 'auto' | 'json' | 'pretty';
}

/** JSON log lines are written once this many bytes are buffered (or {@link LOG_FLUSH_MS} passed), bytes. */
export const LOG_BUFFER_BYTES = 2048;
/**
 * Largest single write of buffered lines, bytes: whole lines only, at most PIPE_BUF (4,096 on Linux), so that a write
 * to a pipe shared by several processes (`--workers`) is atomic and their lines never interleave.
 */
export const LOG_MAX_WRITE_BYTES = 4096;
/** Longest time a JSON log line waits in the buffer before it is written, ms. */
export const LOG_FLUSH_MS = 100;

/**
 * The gateway's pino logger on stdout (or `dest`, a file path or descriptor): one JSON object per line (for log
 * collectors), written asynchronously in batches of {@link LOG_BUFFER_BYTES} bytes or every {@link LOG_FLUSH_MS} ms,
 * each write whole lines of at most {@link LOG_MAX_WRITE_BYTES} bytes (a request's line never costs a write of its
 * own; pino flushes what is left when the process exits). The writes run in pino's file transport, a worker thread:
 * the request thread only copies each line into the transport's shared buffer (in the bench, about 8-13 us of CPU time per
 * chat call less than writing from the request thread through libuv's file thread pool). Or
 * pino-pretty's coloured lines for a person at a terminal, written at once (`format: auto` picks by
 * `process.stdout.isTTY`). pino-pretty is loaded only when used.
 * @see https://getpino.io/#/docs/asynchronous
 * @see https://getpino.io/#/docs/transports
 * @see https://getpino.io/#/docs/pretty
 */
export async function createLogger(settings: LogSettings, stdoutIsTTY = process.stdout.isTTY === true, dest: string | number = 1): Promise<Logger> {
  const format = settings.format ?? 'auto';
  const pretty = format === 'pretty' || (format === 'auto' && stdoutIsTTY);
  if (!pretty) {
    // pino's file transport: the destination's writes run in a worker thread, off the event loop that serves requests.
    const transport = pino.transport({
      target: 'pino/file',
      options: { destination: dest, minLength: LOG_BUFFER_BYTES, maxWrite: LOG_MAX_WRITE_BYTES, periodicFlush: LOG_FLUSH_MS },
    });
    await once(transport, 'ready');
    return pino({ level: settings.level }, transport);
  }
  const { default: prettyStream } = await import('pino-pretty');
  return pino({ level: settings.level }, prettyStream({ colorize: stdoutIsTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true }));
}
