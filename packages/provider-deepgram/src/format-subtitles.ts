import type { TranscriptionSegment } from './build-segments.js';

function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/**
 * SubRip subtitles: numbered cues `HH:MM:SS,mmm --> HH:MM:SS,mmm` and the text, separated by blank lines.
 * @see https://en.wikipedia.org/wiki/SubRip#Format
 */
export function toSrt(segments: TranscriptionSegment[]): string {
  return segments
    .map((s, i) => `${i + 1}\n${timestamp(s.start, ',')} --> ${timestamp(s.end, ',')}\n${s.text}\n`)
    .join('\n');
}

/**
 * WebVTT subtitles: the `WEBVTT` header, then cues `HH:MM:SS.mmm --> HH:MM:SS.mmm` and the text.
 * @see https://www.w3.org/TR/webvtt1/#file-structure
 */
export function toVtt(segments: TranscriptionSegment[]): string {
  return `WEBVTT\n\n${segments.map((s) => `${timestamp(s.start, '.')} --> ${timestamp(s.end, '.')}\n${s.text}\n`).join('\n')}`;
}
