import type { MockReply } from '../mock-upstream/mock-reply.js';

/**
 * A streamed reply as separate writes: `chunks` as they are, or a raw `body` split after each blank line (one SSE
 * event per write, LF or CRLF framing kept), so that fault options such as `resetAfterChunks` apply per event.
 */
export function asChunkedReply(reply: MockReply): MockReply {
  if (reply.chunks || reply.body === undefined) return reply;
  const text = typeof reply.body === 'string' ? reply.body : Buffer.from(reply.body).toString('utf8');
  const chunks = text.split(/(?<=\r?\n\r?\n)/).filter((part) => part.length > 0);
  const { body: _body, ...rest } = reply;
  return { ...rest, chunks };
}
