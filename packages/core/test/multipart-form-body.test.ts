import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { multipartFormBody } from '../src/utils/multipart-form-body.js';
import { readUpstreamText, sendUpstreamRequest } from '../src/utils/upstream-request.js';

// Each body is read back by a spec-complete multipart parser (undici's `Response.formData()`, and Node's HTTP server
// for the framing), so what is checked is what an upstream receives.
const parse = (body: Uint8Array[], contentType: string) =>
  new Response(Buffer.concat(body), { headers: { 'content-type': contentType } }).formData();

describe('multipartFormBody', () => {
  it('encodes text fields (repeated names, line breaks) and a file that parse back to the same entries and bytes', async () => {
    const audio = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
    const { body, headers } = multipartFormBody([
      { name: 'model', value: 'whisper-1' },
      { name: 'timestamp_granularities[]', value: 'word' },
      { name: 'timestamp_granularities[]', value: 'segment' },
      { name: 'prompt', value: 'line one\nline two\r\nline three' },
      { name: 'file', data: audio, filename: 'räume.wav', contentType: 'audio/wav' },
    ]);
    expect(headers['content-type']).toMatch(/^multipart\/form-data; boundary=----switchyard-[0-9a-f]{32}$/);
    const form = await parse(body, headers['content-type']);
    expect(form.get('model')).toBe('whisper-1');
    expect(form.getAll('timestamp_granularities[]')).toEqual(['word', 'segment']);
    expect(form.get('prompt')).toBe('line one\r\nline two\r\nline three');
    const file = form.get('file') as File;
    expect([file.name, file.type]).toEqual(['räume.wav', 'audio/wav']);
    expect(Buffer.from(await file.arrayBuffer()).equals(audio)).toBe(true);
    expect(body).toContain(audio); // the file's own buffer, not a copy
    expect(headers['content-length']).toBe(String(Buffer.concat(body).length));
  });

  it('percent-encodes quotes and line breaks in names and file names, and defaults the file type', async () => {
    const { body, headers } = multipartFormBody([
      { name: 'a"b\nc', value: 'x' },
      { name: 'file', data: new Uint8Array([1, 2, 3]), filename: 'say "hi"\r\n.wav' },
    ]);
    const text = Buffer.concat(body).toString('latin1');
    expect(text).toContain('name="a%22b%0Ac"');
    expect(text).toContain('filename="say %22hi%22%0D%0A.wav"\r\nContent-Type: application/octet-stream\r\n\r\n');
    const form = await parse(body, headers['content-type']);
    expect((form.get('file') as File).size).toBe(3);
  });

  it('lowercases a file type, and sends application/octet-stream for one that would add a header line', async () => {
    const injected = multipartFormBody([
      { name: 'file', data: new Uint8Array([1]), filename: 'a.wav', contentType: 'audio/wav\r\nX-Injected: 1' },
    ]);
    const text = Buffer.concat(injected.body).toString('latin1');
    expect(text).not.toContain('X-Injected');
    expect(text).toContain('Content-Type: application/octet-stream\r\n\r\n');
    const upper = multipartFormBody([
      { name: 'file', data: new Uint8Array([1]), filename: 'a.wav', contentType: 'Audio/WAV' },
    ]);
    expect(((await parse(upper.body, upper.headers['content-type'])).get('file') as File).type).toBe('audio/wav');
  });

  it('gives each body its own boundary, and sendUpstreamRequest sends it with its length, not chunked, byte for byte', async () => {
    const a = multipartFormBody([
      { name: 'x', value: '1' },
      { name: 'file', data: Buffer.alloc(100_000, 7), filename: 'a.wav' },
    ]);
    const b = multipartFormBody([{ name: 'x', value: '1' }]);
    expect(a.headers['content-type']).not.toBe(b.headers['content-type']);
    const received: { length?: string; chunked?: string; bytes?: Buffer }[] = [];
    const server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        received.push({
          length: req.headers['content-length'],
          chunked: req.headers['transfer-encoding'],
          bytes: Buffer.concat(parts),
        });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      // Twice, as a retry sends it: the same buffers are read again.
      for (let i = 0; i < 2; i++) {
        const response = await sendUpstreamRequest({
          provider: 'test',
          upstream: undefined,
          url: `http://127.0.0.1:${port}/`,
          body: a.body,
          headers: a.headers,
          mapError: () => {
            throw new Error('unexpected error answer');
          },
        });
        expect(await readUpstreamText('test', response)).toBe('ok');
      }
      const whole = Buffer.concat(a.body);
      expect(received).toEqual([0, 1].map(() => ({ length: String(whole.length), chunked: undefined, bytes: whole })));
    } finally {
      server.close();
    }
  });
});
