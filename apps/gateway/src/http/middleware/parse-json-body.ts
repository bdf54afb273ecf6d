import { isAscii, isUtf8 } from 'node:buffer';
import { GatewayError, type GatewayErrorCode, rememberJsonText } from '@switchyard/core';
import type { NextFunction, Request, RequestHandler } from 'express';
import { MAX_JSON_DEPTH, exceedsJsonDepth } from './json-nesting-depth.js';
import { parseAroundLongStrings } from './parse-around-long-strings.js';
import { type BodyText, decodeInPieces } from './pieced-text.js';
import { type LongJsonString, scanTopLevelValue } from './top-level-value-range.js';

/** Parses a size such as `20mb`, `512kb` or a number of bytes. */
export function parseByteSize(limit: number | string): number {
  if (typeof limit === 'number') return limit;
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(limit.trim());
  if (!match) throw new Error(`Invalid size '${limit}': use bytes or e.g. 20mb.`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(match[2] ?? 'b').toLowerCase() as 'b'];
  return Math.floor(Number(match[1]) * unit);
}

/**
 * Bodies of at least this many bytes (64 KiB) are parsed and handled in separate turns of the event loop (see
 * `parseJsonBody`); smaller ones, nearly every request, at once.
 */
export const SLICED_BODY_BYTES = 64 * 1024;

const error = (status: number, code: GatewayErrorCode, message: string) =>
  new GatewayError({ status, type: 'invalid_request_error', code, message });

/**
 * Parses `text` into `req.body`; false, with `next` called with a 400 `invalid_json`, when it is not JSON. With
 * `longStrings` (those of the body `bytes`, ASCII or not), those strings are taken from the text unparsed
 * (`parseAroundLongStrings`).
 */
function parsedInto(
  req: Request,
  text: BodyText,
  next: NextFunction,
  large?: { bytes: Buffer; ascii: boolean; longStrings: readonly LongJsonString[] },
): boolean {
  try {
    req.body = large?.longStrings.length
      ? parseAroundLongStrings(text, large.bytes, large.longStrings, large.ascii)
      : JSON.parse(String(text));
    return true;
  } catch {
    next(error(400, 'invalid_json', 'We could not parse the JSON body of your request. The body must be valid JSON.'));
    return false;
  }
}

/**
 * Remembers the client's own text of a large body's `messages` on the parsed array (see `rememberJsonText`), when that
 * text says exactly what was parsed (`range`, in bytes, from {@link scanTopLevelValue}), so that an adapter sends it
 * upstream as it is instead of serialising the prompt again (`toRequestJsonBody`).
 */
function rememberMessagesText(
  body: unknown,
  text: BodyText,
  bytes: Buffer,
  ascii: boolean,
  range: [number, number] | undefined,
): void {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages) || range === undefined) return;
  const [start, end] = range;
  // In an ASCII body a character is a byte: the bytes of the range are forwarded without encoding the text again.
  if (ascii) {
    rememberJsonText(messages, text.slice(start, end), bytes.subarray(start, end));
    return;
  }
  // Else the range's characters are found by decoding what lies around it (the range starts and ends on ASCII
  // brackets, so no character spans its edges).
  const textStart = bytes.toString('utf8', 0, start).length;
  const textEnd = text.length - bytes.toString('utf8', end).length;
  rememberJsonText(messages, text.slice(textStart, textEnd));
}

const tooDeepError = () =>
  error(400, 'json_too_deep', `The JSON body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`);

/**
 * Checks, decodes, parses and hands on a body of {@link SLICED_BODY_BYTES} or more (`bytes`, joined in this turn) in
 * four turns of the event loop (`setImmediate` between them), not one: the requests that arrived meanwhile (a small
 * stream's first byte) wait for one slice of its work, not for all of it. Its one scan (this turn) checks the depth
 * and finds the text of its `messages` and its long strings, which the parse takes from the text as they are
 * (`parseAroundLongStrings`); then the decode (in pieces, `decodeInPieces`, when the body is valid UTF-8); then the
 * parse; then `next`.
 */
function handLargeBodyOn(req: Request, bytes: Buffer, next: NextFunction): void {
  const scan = scanTopLevelValue(bytes, 'messages', MAX_JSON_DEPTH);
  if (scan.tooDeep) {
    next(tooDeepError());
    return;
  }
  setImmediate(() => {
    // Decoded in pieces (`decodeInPieces`): one 400 KB string costs its allocation in V8's large-object space. A body
    // that is not valid UTF-8 is decoded whole, as `toString` replaces its bad bytes.
    const ascii = isAscii(bytes);
    const text = ascii || isUtf8(bytes) ? decodeInPieces(bytes) : bytes.toString('utf8');
    setImmediate(() => {
      if (!parsedInto(req, text, next, { bytes, ascii, longStrings: scan.longStrings })) return;
      rememberMessagesText(req.body, text, bytes, ascii, scan.range);
      setImmediate(next);
    });
  });
}

/**
 * Reads and parses a JSON body into `req.body` in one pass (bytes collected up to `limit`, then one `JSON.parse`),
 * the cheapest way Node offers. A content type other than `application/json` gets 415, a body over the limit 413
 * (`request_too_large`, answered without reading the rest), bad JSON 400 (`invalid_json`), objects and arrays nested
 * deeper than {@link MAX_JSON_DEPTH} 400 (`json_too_deep`). A body of {@link SLICED_BODY_BYTES} or more is checked,
 * decoded, parsed and handed on in four turns of the event loop (`setImmediate` between them), so that a 400 KB prompt
 * does not hold the loop for all of it at once.
 */
export function parseJsonBody(limit: number | string): RequestHandler[] {
  const maxBytes = parseByteSize(limit);
  const read: RequestHandler = (req, _res, next) => {
    const type = req.headers['content-type'];
    if (!type || !/^application\/json\s*(;|$)/i.test(type)) {
      next(
        error(
          415,
          'unsupported_media_type',
          `Unsupported Content-Type '${type ?? '(none)'}': send the body as application/json.`,
        ),
      );
      return;
    }
    const declared = Number(req.headers['content-length']);
    if (declared > maxBytes) {
      next(error(413, 'request_too_large', `The request body exceeds the ${maxBytes} byte limit.`));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const onData = (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > maxBytes) {
        failed = true;
        next(error(413, 'request_too_large', `The request body exceeds the ${maxBytes} byte limit.`));
        return;
      }
      chunks.push(chunk);
    };
    const onError = (cause: unknown) => {
      if (!failed) {
        failed = true;
        next(
          new GatewayError({
            status: 400,
            type: 'invalid_request_error',
            message: 'The request body could not be read.',
            cause,
          }),
        );
      }
    };
    req.on('data', onData);
    req.once('end', () => {
      // A stream's request stays open for minutes: it keeps neither the read buffers nor these listeners (the error
      // listener would keep `next`, and with it Express's routing state; a request that has ended is destroyed by
      // Node, so no error can follow).
      req.off('data', onData);
      req.off('error', onError);
      if (failed) return;
      const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      chunks.length = 0;
      if (bytes.length < SLICED_BODY_BYTES) {
        if (exceedsJsonDepth(bytes)) next(tooDeepError());
        else if (parsedInto(req, bytes.toString('utf8'), next)) next();
        return;
      }
      handLargeBodyOn(req, bytes, next);
    });
    req.once('error', onError);
  };
  return [read];
}

/**
 * Like {@link parseJsonBody}, but a request without a body (no `content-type`, no `content-length` or `0`, not chunked)
 * gets `req.body = {}`: for admin actions whose fields all have defaults (`POST /admin/keys/:id/rotate`).
 */
export function optionalJsonBody(limit: number | string): RequestHandler[] {
  const [read] = parseJsonBody(limit) as [RequestHandler];
  const readIfSent: RequestHandler = (req, res, next) => {
    const empty =
      !req.headers['content-type'] &&
      !req.headers['transfer-encoding'] &&
      Number(req.headers['content-length'] ?? 0) === 0;
    if (!empty) return read(req, res, next);
    req.body = {};
    next();
  };
  return [readIfSent];
}
