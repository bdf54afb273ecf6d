import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const demo = fileURLToPath(new URL('../dist/demo.js', import.meta.url));

describe('the demo (README: ./dev demo)', () => {
  it('calls every operation through the gateway and prints what came back', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [demo, '--once', '--port', '0'], { timeout: 30_000 });
    expect(stdout).toContain('REPLAYS RECORDED');
    for (const label of ['chat ', 'chat (stream)', 'models', 'embeddings', 'transcription', 'speech', 'image']) expect(stdout).toContain(label);
    expect(stdout).toContain('Galaxy Day');
  });
});
