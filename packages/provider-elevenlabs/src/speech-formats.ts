import { invalidRequestError } from '@switchyard/core';

/** How one OpenAI `response_format` is served: ElevenLabs' `output_format` and the content type sent to the client. */
export interface ElevenLabsFormat {
  /** ElevenLabs `output_format` query value, e.g. `mp3_44100_128`. */
  outputFormat: string;
  /** Content type of the answer, e.g. `audio/mpeg`. */
  contentType: string;
  /** True when the PCM stream is sent behind a WAV header (`wav`). */
  wavHeader?: boolean;
}

/** PCM sample rate used for `pcm` and `wav`, Hz: OpenAI's `pcm` is 24 kHz, 16-bit little-endian, mono. */
export const PCM_SAMPLE_RATE = 24_000;

/**
 * OpenAI `response_format` -> ElevenLabs `output_format`: mp3 (default) -> `mp3_44100_128`, opus -> `opus_48000_128`,
 * pcm -> `pcm_24000` (raw 16-bit LE mono, as OpenAI's), wav -> `pcm_24000` behind a streamed WAV header.
 * `aac` and `flac` are not served by ElevenLabs: 400 naming `response_format`.
 * @see https://elevenlabs.io/docs/api-reference/text-to-speech/convert#request.query.output_format
 */
export function elevenLabsFormat(responseFormat: string | undefined): ElevenLabsFormat {
  switch (responseFormat ?? 'mp3') {
    case 'mp3':
      return { outputFormat: 'mp3_44100_128', contentType: 'audio/mpeg' };
    case 'opus':
      return { outputFormat: 'opus_48000_128', contentType: 'audio/ogg' };
    case 'pcm':
      return { outputFormat: `pcm_${PCM_SAMPLE_RATE}`, contentType: 'audio/pcm' };
    case 'wav':
      return { outputFormat: `pcm_${PCM_SAMPLE_RATE}`, contentType: 'audio/wav', wavHeader: true };
    default:
      throw invalidRequestError(
        `ElevenLabs serves response_format mp3, opus, pcm and wav, not '${responseFormat}'.`,
        'response_format',
        'unsupported_value',
      );
  }
}

/**
 * A 44-byte WAV (RIFF) header for 16-bit mono PCM of unknown length, as streamed WAV answers use: the RIFF and data
 * sizes are 0xFFFFFFFF ("until the end of the stream").
 * @see http://soundfile.sapp.org/doc/WaveFormat/
 */
export function streamingWavHeader(sampleRate = PCM_SAMPLE_RATE): Uint8Array {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(0xffffffff, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(0xffffffff, 40);
  return header;
}
