import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const demo = fileURLToPath(new URL('../dist/demo.js', import.meta.url));

describe('the demo (README: ./dev demo)', () => {
  // The demo runs as a process that starts three mock upstreams and the gateway and makes a dozen calls: about 2 s
  // here, but under heavy load it ran past the 20 s test timeout, which was shorter than the 30 s the process was
  // allowed (so the failure said "timed out" instead of showing the demo's output). The process gets 50 s, the test 60 s.
  it('asks OpenAI, Anthropic and Gemini models the same thing, calls every operation, shows metrics and a ledger row', {
    timeout: 60_000,
  }, async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [demo, '--once', '--port', '0'], {
      timeout: 50_000,
    }).catch((error: Error & { stdout?: string; stderr?: string; signal?: string }) => {
      // What the demo had printed when it failed or was stopped: "Command failed" alone says nothing.
      throw new Error(
        `${error.message.split('\n')[0]} (signal ${error.signal ?? 'none'})\nstdout:\n${error.stdout?.slice(-3000)}\nstderr:\n${error.stderr?.slice(-3000)}`,
      );
    });
    expect(stdout).toContain('REPLAY RECORDED');
    // The same SDK call answered by each provider's recorded reply, labelled.
    expect(stdout).toMatch(/OpenAI +gpt-4\.1-nano +\*\*Holiday Name:\*\* Galaxy Day/);
    expect(stdout).toMatch(/Anthropic claude-sonnet-4-5 +Hello! I'm doing well/);
    expect(stdout).toMatch(/Gemini +gemini-2\.5-flash +There are \*\*3\*\* r's in strawberry/);
    for (const label of ['chat (stream, Anthropic)', 'models', 'embeddings', 'transcription', 'speech', 'image'])
      expect(stdout).toContain(label);
    // The models list has real ids only: no placeholder ids from the spec's examples.
    const models = /^models +(.*)$/m.exec(stdout)?.[1] ?? '';
    expect(models).toContain('anthropic/claude-sonnet-4-5-20250929');
    expect(models).not.toMatch(/VAR_|placeholder/i);
    // The metrics endpoint and the ledger row of a call.
    expect(stdout).toMatch(
      /switchyard_requests_total\{operation="chat\.completions",model="gemini-2\.5-flash",provider="google",status="200"\} 1/,
    );
    const ledger = JSON.parse(/The ledger row[^\n]*\n +(\{.*\})/.exec(stdout)?.[1] ?? '{}') as Record<string, unknown>;
    expect(ledger).toMatchObject({ model: 'gemini-2.5-flash', provider: 'google', status: 200 });
    expect(ledger.completion_tokens).toBeGreaterThan(0);
    // The request log goes to its own file, not between the demo's lines.
    expect(stdout).not.toMatch(/^\{"level"/m);
    expect(stdout).not.toMatch(/"msg":"POST \/v1/);
    const logFile = /request log: (\S+)/.exec(stdout)?.[1];
    expect(logFile).toBeDefined();
    await expect
      .poll(
        async () =>
          (await readFile(logFile!, 'utf8')).split('\n').filter((l) => l.includes('"path":"/v1/chat/completions"'))
            .length,
      )
      .toBe(4);
    expect(stderr).not.toContain('Warning');
  });
});
