/** One conformance test that ran: the adapter (suite name), the test's title and its outcome. */
export interface ConformanceResult {
  /** The suite's `name`, e.g. `openai` or `groq (preset, recording groq/groq-text)`. */
  adapter: string;
  /** The test title, e.g. `translates a completion: shape, content, finish_reason, usage sum`. */
  title: string;
  status: 'passed' | 'failed' | 'skipped';
}
