import { EventSourceParserStream } from 'eventsource-parser/stream';

/** Token counts of a chat completion (`usage` of the last chunk). */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** What a streamed chat answer came to. */
export interface StreamedChat {
  text: string;
  usage?: ChatUsage;
  finishReason?: string;
  /** Time from the start of reading to the first content, ms. */
  firstTokenMs?: number;
}

/**
 * Reads an OpenAI chat completion stream (`text/event-stream`: `data: {chunk}` events, then `data: [DONE]`), calling
 * `onText` with the text so far after each content delta. Throws an Error with the gateway's message when the stream
 * carries an error event, and when it ends without `[DONE]`.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
export async function readChatStream(
  response: Response,
  onText: (text: string) => void,
  startedAt = performance.now(),
): Promise<StreamedChat> {
  if (!response.body) throw new Error('The answer has no body.');
  const result: StreamedChat = { text: '' };
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const event of events as unknown as AsyncIterable<{ data: string }>) {
    if (event.data === '[DONE]') return result;
    const chunk = JSON.parse(event.data) as {
      error?: { message?: string };
      choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
      usage?: ChatUsage | null;
    };
    if (chunk.error) throw new Error(chunk.error.message ?? 'The stream failed.');
    const choice = chunk.choices?.[0];
    if (choice?.delta?.content) {
      result.firstTokenMs ??= performance.now() - startedAt;
      result.text += choice.delta.content;
      onText(result.text);
    }
    if (choice?.finish_reason) result.finishReason = choice.finish_reason;
    if (chunk.usage) result.usage = chunk.usage;
  }
  throw new Error('The stream ended before [DONE].');
}
