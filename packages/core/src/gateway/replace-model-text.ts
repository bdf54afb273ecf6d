/** Line feed, the end of an event's one data line. */
const LF = 10;

/**
 * The offsets of `needle` found by the one call of {@link replaceModelText} running (it never awaits), reused across
 * calls instead of a growing array per run (2.2 KB allocated per 100-delta run): written in order from 0, so the array
 * stays packed and keeps its capacity, as `splitPlainSSEBytes`' offsets do.
 */
const positions: number[] = [];

/**
 * A run of one-line SSE events (`data: <chunk JSON>\n\n` each, as a scanner forwards plain text deltas: see
 * `ScannedRun`) with the first `needle` of each event (the upstream's `"model":"<id>"` text) replaced by `replacement`
 * (the requested id's): a new buffer, or `bytes` itself when no event holds `needle`. Found without decoding the run
 * and mostly without searching it: the events of a run repeat one template but for their content, so `needle` sits at
 * the same offset from the start of each event as in the event before, which is checked byte for byte; only where it
 * is not is the rest of the run searched (`Buffer.indexOf`). One allocation of the exact size, the unchanged spans
 * copied into it. A JSON string cannot hold `needle` (its quotes would be escaped), so `needle` only matches the member.
 * In bytes: `bytes.length + k * (replacement.length - needle.length)` for `k` events replaced.
 */
export function replaceModelText(bytes: Uint8Array, needle: Uint8Array, replacement: Uint8Array): Uint8Array {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = buffer.indexOf(needle);
  if (at < 0) return bytes;
  let count = 0;
  // Offset of `needle` from the start of its event (the first byte after the previous event's blank line).
  let offset = at - (buffer.lastIndexOf(LF, at) + 1);
  while (at >= 0) {
    positions[count++] = at;
    const lineEnd = buffer.indexOf(LF, at + needle.length);
    if (lineEnd < 0) break;
    const next = lineEnd + 2;
    const guess = next + offset;
    if (startsWith(buffer, guess, needle)) at = guess;
    else {
      at = buffer.indexOf(needle, next);
      if (at >= 0) offset = at - (buffer.lastIndexOf(LF, at) + 1);
    }
  }
  const out = Buffer.allocUnsafe(bytes.length + count * (replacement.length - needle.length));
  // Buffer.copy takes the span's bounds: no view is made per span (two per event with subarray() and set()).
  let written = 0;
  let from = 0;
  for (let i = 0; i < count; i++) {
    const position = positions[i]!;
    written += buffer.copy(out, written, from, position);
    out.set(replacement, written);
    written += replacement.length;
    from = position + needle.length;
  }
  buffer.copy(out, written, from);
  return out;
}

/** True when `buffer` holds `needle` at byte offset `at` (a short needle: a loop beats a native call here). */
function startsWith(buffer: Buffer, at: number, needle: Uint8Array): boolean {
  if (at + needle.length > buffer.length) return false;
  for (let i = 0; i < needle.length; i++) if (buffer[at + i] !== needle[i]) return false;
  return true;
}
