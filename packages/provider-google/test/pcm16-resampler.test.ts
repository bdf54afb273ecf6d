import { describe, expect, it } from 'vitest';
import { Pcm16Resampler } from '../src/pcm16-resampler.js';

/** `seconds` of a sine of `hz` at `rate`, amplitude `amplitude` (PCM16 units), as PCM16 bytes. */
function sine(hz: number, rate: number, seconds: number, amplitude = 10_000): Buffer {
  const out = Buffer.alloc(Math.round(rate * seconds) * 2);
  for (let i = 0; i < out.length / 2; i++)
    out.writeInt16LE(Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)), 2 * i);
  return out;
}

const samplesOf = (bytes: Buffer) => Array.from({ length: bytes.length / 2 }, (_, i) => bytes.readInt16LE(2 * i));

/** The samples after the filter's start-up (the first `skip`), as a frequency (Hz, from zero crossings) and RMS. */
function measure(bytes: Buffer, rate: number, skip = 200) {
  const samples = samplesOf(bytes).slice(skip);
  let crossings = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) crossings++;
  const rms = Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);
  return { hz: (crossings / 2) * (rate / samples.length), rms };
}

describe('Pcm16Resampler', () => {
  it('keeps a 1 kHz sine at 1 kHz and its level from 24 kHz to 16 kHz, with 2 output samples per 3 input', () => {
    const input = sine(1000, 24_000, 1);
    const output = new Pcm16Resampler(24_000, 16_000).push(input);
    expect(Math.abs(output.length / 2 - 16_000)).toBeLessThanOrEqual(24);
    const { hz, rms } = measure(output, 16_000);
    expect(hz).toBeGreaterThan(995);
    expect(hz).toBeLessThan(1005);
    // A sine of amplitude 10,000 has an RMS of 7,071.
    expect(rms).toBeGreaterThan(7_071 * 0.99);
    expect(rms).toBeLessThan(7_071 * 1.01);
  });

  it('keeps a 3.5 kHz sine at 3.5 kHz (speech band) from 24 kHz to 16 kHz', () => {
    const { hz, rms } = measure(new Pcm16Resampler(24_000, 16_000).push(sine(3500, 24_000, 1)), 16_000);
    expect(Math.abs(hz - 3500)).toBeLessThan(10);
    expect(rms).toBeGreaterThan(7_071 * 0.98);
  });

  it('removes a 10 kHz tone that 16 kHz cannot carry instead of folding it to 6 kHz (at least 60 dB down)', () => {
    const { rms } = measure(new Pcm16Resampler(24_000, 16_000).push(sine(10_000, 24_000, 1)), 16_000);
    // -60 dB of 7,071 is 7.1; rounding to integers alone leaves about 0.3.
    expect(rms).toBeLessThan(7.1);
  });

  it('resamples a stream cut into chunks of any size (odd bytes included) to the same samples as in one piece', () => {
    const input = Buffer.concat([sine(440, 24_000, 0.5), sine(2000, 24_000, 0.5, 20_000)]);
    const whole = new Pcm16Resampler(24_000, 16_000).push(input);
    const resampler = new Pcm16Resampler(24_000, 16_000);
    const pieces: Buffer[] = [];
    let random = 7;
    for (let at = 0; at < input.length; ) {
      random = (random * 48_271) % 2_147_483_647;
      const size = 1 + (random % 1999);
      pieces.push(resampler.push(input.subarray(at, at + size)));
      at += size;
    }
    expect(Buffer.concat(pieces).equals(whole)).toBe(true);
  });

  it('converts 48 kHz and 16 kHz to 16 kHz too, and refuses rates out of range', () => {
    const from48 = new Pcm16Resampler(48_000, 16_000).push(sine(1000, 48_000, 1));
    expect(Math.abs(measure(from48, 16_000).hz - 1000)).toBeLessThan(5);
    const same = sine(1000, 16_000, 0.1);
    expect(new Pcm16Resampler(16_000, 16_000).push(same).equals(same)).toBe(true);
    expect(() => new Pcm16Resampler(0, 16_000)).toThrow(RangeError);
    expect(() => new Pcm16Resampler(24_000, 16_000.5)).toThrow(RangeError);
  });

  it('costs well under a millisecond of CPU per 100 ms of 24 kHz audio', () => {
    const resampler = new Pcm16Resampler(24_000, 16_000);
    const chunk = sine(1000, 24_000, 0.1);
    for (let i = 0; i < 20; i++) resampler.push(chunk);
    const started = process.cpuUsage();
    for (let i = 0; i < 100; i++) resampler.push(chunk);
    const used = process.cpuUsage(started);
    const msPerChunk = (used.user + used.system) / 1000 / 100;
    console.log(`Pcm16Resampler 24 -> 16 kHz: ${msPerChunk.toFixed(3)} ms of CPU per 100 ms of audio`);
    expect(msPerChunk).toBeLessThan(1);
  });
});
