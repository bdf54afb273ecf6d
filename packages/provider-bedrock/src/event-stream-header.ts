import type { Message } from '@smithy/eventstream-codec';

/** The string value of header `name` (e.g. `:message-type`, `:event-type`) of an event stream message, or undefined. */
export function eventStreamHeader(message: Message, name: string): string | undefined {
  const value = message.headers[name]?.value;
  return typeof value === 'string' ? value : undefined;
}
