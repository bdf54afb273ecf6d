/**
 * Thrown by {@link parseSSEStream} when an event stream holds text that is not server-sent events, e.g. the bare JSON
 * error body Gemini appends to a stream that fails after its first events (`{"error":{"code":499,...}}` on lines of
 * their own). `text` holds those lines (joined with `\n`) so that an adapter can map the upstream's own error; an
 * adapter that does not catch it turns it into a 502, so a broken stream never ends as a success.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
export class StrayStreamTextError extends Error {
  /** The lines that were not part of any event, `\n`-joined. */
  readonly text: string;

  constructor(text: string) {
    super('The event stream contains text that is not a server-sent event.');
    this.name = 'StrayStreamTextError';
    this.text = text;
  }

  /** True when `value` is a StrayStreamTextError (from any copy of `@switchyard/core`). */
  static isInstance(value: unknown): value is StrayStreamTextError {
    return (
      value instanceof Error &&
      value.name === 'StrayStreamTextError' &&
      typeof (value as { text?: unknown }).text === 'string'
    );
  }
}
