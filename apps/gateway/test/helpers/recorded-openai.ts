import { testkitFixtures } from '@switchyard/testkit';

// What the recorded OpenAI answers (testkit fixtures openai/openai-text.json and openai-text.chunks.txt, which
// openaiReplayRoutes and multiProviderRoutes serve) say, for tests to compare the gateway's answers with.
const fixtures = testkitFixtures();
const chunks = fixtures
  .chunkLines('openai/openai-text.chunks.txt')
  .map((line) => JSON.parse(line) as { choices: { delta?: { content?: string } }[]; usage?: RecordedUsage });

/** Token counts of a recorded answer. */
export interface RecordedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** The message text of the recorded chat completion. */
export const recordedOpenAIText = fixtures.json<{ choices: { message: { content: string } }[] }>(
  'openai/openai-text.json',
).choices[0]!.message.content;

/** The text of the recorded chat stream: every chunk's `delta.content`, joined. */
export const recordedOpenAIStreamText = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');

/** The usage of the recorded chat stream's last chunk (the stream was recorded with `include_usage`). */
export const recordedOpenAIStreamUsage = chunks.at(-1)!.usage!;
