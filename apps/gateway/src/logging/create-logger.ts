import { once } from 'node:events';
import { type Logger, pino } from 'pino';

/** The `log` block of the config. */
export interface LogSettings {
  level: string;
  /** `json`, `pretty`, or `auto`: pretty when stdout is a terminal, JSON otherwise. */
  format?: 'auto' | 'json' | 'pretty';
}

/**
 * JSON log lines are written once this many bytes are buffered (or {@link LOG_FLUSH_MS} passed), bytes: 7/8 of
 * {@link LOG_MAX_WRITE_BYTES} (sonic-boom wants it below that), so that what is buffered when it is reached (it plus
 * one line) mostly goes in one write.
 */
export const LOG_BUFFER_BYTES = 3584;
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
 * own; pino flushes what is left synchronously when the process exits). The lines are buffered in the request thread
 * (pino's `destination`, sonic-boom) and each batch goes out with one asynchronous write on libuv's thread pool. pino's
 * file transport, which does the same in a worker thread, cost about 85 us more CPU per chat call in `pnpm bench` on
 * 2 cores (the worker is woken for every line): chat at 50 connections served 0.60 of the bare proxy with it, 0.68
 * without, 0.68 with no log at all. Or
 * pino-pretty's coloured lines for a person at a terminal, written at once (`format: auto` picks by
 * `process.stdout.isTTY`). pino-pretty is loaded only when used.
 * @see https://getpino.io/#/docs/asynchronous
 * @see https://github.com/pinojs/sonic-boom#api
 * @see https://getpino.io/#/docs/pretty
 */
export async function createLogger(
  settings: LogSettings,
  stdoutIsTTY = process.stdout.isTTY === true,
  dest: string | number = 1,
): Promise<Logger> {
  const format = settings.format ?? 'auto';
  const pretty = format === 'pretty' || (format === 'auto' && stdoutIsTTY);
  if (!pretty) {
    // Buffered here, written by libuv's thread pool; flushed synchronously at exit (pino registers that for `destination`).
    const destination = pino.destination({
      dest,
      sync: false,
      minLength: LOG_BUFFER_BYTES,
      maxWrite: LOG_MAX_WRITE_BYTES,
      periodicFlush: LOG_FLUSH_MS,
    });
    await once(destination, 'ready');
    return pino({ level: settings.level }, destination);
  }
  const { default: prettyStream } = await import('pino-pretty');
  return pino(
    { level: settings.level },
    prettyStream({ colorize: stdoutIsTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true }),
  );
}
