import { describe, expect, it } from 'vitest';
import { readChatStream } from '../src/stream-chat.js';

/** A streamed answer split at awkward places, as the network may deliver it. */
function sse(text: string, cut = 7): Response {
  const bytes = new TextEncoder().encode(text);
  return new Response(
    new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += cut) controller.enqueue(bytes.slice(i, i + cut));
        controller.close();
      },
    }),
  );
}
const chunk = (body: object) => `data: ${JSON.stringify(body)}\n\n`;

describe('readChatStream', () => {
  it('collects content deltas, the finish reason and the final usage', async () => {
    const seen: string[] = [];
    const result = await readChatStream(
      sse(
        chunk({ choices: [{ delta: { role: 'assistant', content: '' } }] }) +
          chunk({ choices: [{ delta: { content: 'Hel' } }] }) +
          chunk({ choices: [{ delta: { content: 'lo ✓' }, finish_reason: 'stop' }] }) +
          chunk({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }) +
          'data: [DONE]\n\n',
      ),
      (text) => seen.push(text),
    );
    expect(seen).toEqual(['Hel', 'Hello ✓']);
    expect(result).toMatchObject({
      text: 'Hello ✓',
      finishReason: 'stop',
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    expect(result.firstTokenMs).toBeGreaterThanOrEqual(0);
  });

  it("throws the gateway's message on an error event, and when the stream stops before [DONE]", async () => {
    await expect(
      readChatStream(
        sse(chunk({ choices: [{ delta: { content: 'a' } }] }) + chunk({ error: { message: 'upstream broke' } })),
        () => {},
      ),
    ).rejects.toThrow('upstream broke');
    await expect(readChatStream(sse(chunk({ choices: [{ delta: { content: 'a' } }] })), () => {})).rejects.toThrow(
      'before [DONE]',
    );
  });
});
