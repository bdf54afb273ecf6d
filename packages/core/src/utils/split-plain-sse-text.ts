import type { EventSourceMessage } from 'eventsource-parser';

const DATA_FIELD = 'data: ';
const LF = 10;

/**
 * Splits `text`, the whole text of one network read of an SSE body, when it is in the plain form most servers send:
 * only events of one `data: <line>` each, every one ended by `\n\n`, nothing before, between or after (no comments, no
 * other fields, no `\r`), the last event complete. Pushes each event (as eventsource-parser would give it:
 * `{ id: undefined, event: undefined, data }`) to `events` and the index just past its `\n\n` to `ends`, and returns
 * true; returns false, leaving whatever it pushed for the caller to drop, for any other text (which then goes to
 * eventsource-parser). With ASCII text the indexes are also byte offsets into the read (the caller finds them for
 * other text), so that a run of its events can be forwarded as the upstream's own bytes.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
export function splitPlainSSEText(text: string, events: EventSourceMessage[], ends: number[]): boolean {
  const length = text.length;
  if (length === 0 || text.indexOf('\r') !== -1) return false;
  let at = 0;
  while (at < length) {
    if (!text.startsWith(DATA_FIELD, at)) return false;
    const lineEnd = text.indexOf('\n', at + DATA_FIELD.length);
    if (lineEnd === -1 || text.charCodeAt(lineEnd + 1) !== LF) return false;
    events.push({ id: undefined, event: undefined, data: text.slice(at + DATA_FIELD.length, lineEnd) });
    at = lineEnd + 2;
    ends.push(at);
  }
  return true;
}
