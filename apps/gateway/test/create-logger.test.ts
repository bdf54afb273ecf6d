import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOG_MAX_WRITE_BYTES, createLogger } from '../src/index.js';

const linesOf = async (file: string) =>
  (await readFile(file, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');

describe('createLogger (JSON lines)', () => {
  it('writes a lone line within the flush interval, without waiting for the buffer to fill', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'switchyard-log-')), 'gateway.log');
    const logger = await createLogger({ level: 'info', format: 'json' }, false, file);
    logger.info({ request_id: 'r1', status: 200 }, 'POST /v1/chat/completions 200');
    await expect.poll(() => linesOf(file), { timeout: 2_000 }).toHaveLength(1);
    expect(JSON.parse((await linesOf(file))[0]!)).toMatchObject({
      request_id: 'r1',
      status: 200,
      msg: 'POST /v1/chat/completions 200',
    });
  });

  it('writes many lines in batches of whole lines, none lost or cut', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'switchyard-log-')), 'gateway.log');
    const logger = await createLogger({ level: 'info', format: 'json' }, false, file);
    // Lines of about 300 bytes: several batches, each at most LOG_MAX_WRITE_BYTES.
    for (let i = 0; i < 500; i++) logger.info({ request_id: `r${i}`, pad: 'x'.repeat(200) }, 'line');
    await expect.poll(async () => (await linesOf(file)).length, { timeout: 2_000 }).toBe(500);
    const ids = (await linesOf(file)).map((line) => (JSON.parse(line) as { request_id: string }).request_id);
    expect(ids).toEqual(Array.from({ length: 500 }, (_, i) => `r${i}`));
    expect(LOG_MAX_WRITE_BYTES).toBeLessThanOrEqual(4096);
  });
});
