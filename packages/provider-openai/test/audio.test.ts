import { makeWav, multipartField } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { callContext, fixtures, useMockUpstream } from './helpers/openai-test-upstream.js';

const { upstream, adapter } = useMockUpstream();
const wav = makeWav();
const file = { data: wav, filename: 'a.wav', contentType: 'audio/wav' };

describe('transcriptions', () => {
  it('forwards the file and every field as multipart and returns a text format as text with its content type', async () => {
    const recorded = fixtures.json<{ headers: Record<string, string>; body: string }>(
      'openai/groq-transcription-text.json',
    );
    upstream().route('POST /openai/v1/audio/transcriptions', { headers: recorded.headers, body: recorded.body });
    const result = await adapter().transcriptions!(
      {
        model: 'whisper-large-v3',
        response_format: 'text',
        language: 'en',
        temperature: 0.2,
        'timestamp_granularities[]': ['word', 'segment'],
        file,
      },
      callContext(),
    );
    expect(result).toEqual({ kind: 'text', contentType: recorded.headers['content-type'], body: recorded.body });
    const sent = upstream().requests[0]!;
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect([
      multipartField(sent, 'model'),
      multipartField(sent, 'language'),
      multipartField(sent, 'temperature'),
    ]).toEqual(['whisper-large-v3', 'en', '0.2']);
    expect(sent.bodyText.match(/name="timestamp_granularities\[\]"/g)).toHaveLength(2);
    expect(sent.bodyText).toMatch(/filename="a.wav"\r\nContent-Type: audio\/wav/);
    expect(sent.body.includes(wav)).toBe(true);
  });

  it('returns a verbose_json answer as JSON, every field kept', async () => {
    const recorded = fixtures.json<{ text: string }>('openai/openai-transcription.json');
    upstream().route('POST /openai/v1/audio/transcriptions', { json: recorded });
    expect(
      await adapter().transcriptions!({ model: 'whisper-1', response_format: 'verbose_json', file }, callContext()),
    ).toEqual({ kind: 'json', body: recorded });
  });
});

describe('speech', () => {
  it('pipes the audio bytes as they arrive with the upstream content type', async () => {
    const audio = makeWav({ durationMs: 100 });
    upstream().route('POST /openai/v1/audio/speech', {
      headers: { 'content-type': 'audio/mpeg' },
      chunks: [audio.subarray(0, 100), audio.subarray(100)],
      chunkDelayMs: 10,
    });
    const result = await adapter().speech!({ model: 'tts-1', input: 'hi', voice: 'alloy' }, callContext());
    expect(result.contentType).toBe('audio/mpeg');
    const parts: Uint8Array[] = [];
    for await (const part of result.body) parts.push(part);
    expect(Buffer.concat(parts).equals(audio)).toBe(true);
    expect(upstream().requests[0]!.json).toEqual({ model: 'tts-1', input: 'hi', voice: 'alloy' });
  });

  it('throws 502 when the audio breaks off, and closes the upstream when the consumer stops early', async () => {
    const audio = makeWav({ durationMs: 100 });
    const chunks = [audio.subarray(0, 100), audio.subarray(100, 200), audio.subarray(200)];
    upstream().route('POST /openai/v1/audio/speech', [
      { headers: { 'content-type': 'audio/mpeg' }, chunks, resetAfterChunks: 1 },
      { headers: { 'content-type': 'audio/mpeg' }, chunks, chunkDelayMs: 200 },
    ]);
    const broken = await adapter().speech!({ model: 'tts-1', input: 'hi', voice: 'alloy' }, callContext());
    await expect(
      (async () => {
        for await (const _ of broken.body);
      })(),
    ).rejects.toMatchObject({ status: 502 });
    const early = await adapter().speech!({ model: 'tts-1', input: 'hi', voice: 'alloy' }, callContext());
    for await (const _ of early.body) break;
    await expect.poll(() => upstream().requests[1]?.closedByClient).toBe(true);
  });
});
