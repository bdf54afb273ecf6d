import { useEffect, useRef, useState } from 'preact/hooks';
import type { AdminApi } from '../api.js';
import { ErrorNote } from '../error-note.js';
import { costUsd, formatCount, formatMs, formatUsd } from '../format.js';
import { findLedgerRow } from '../find-ledger-row.js';
import { readChatStream, type StreamedChat } from '../stream-chat.js';
import { useLoad } from '../use-load.js';

interface Message {
  role: 'user' | 'assistant';
  content: string;
}

interface Outcome extends StreamedChat {
  requestedModel: string;
  servedModel: string;
  provider: string;
  upstreamModel: string;
  attempts: string;
  requestId: string;
  latencyMs: number;
  costUsd: number | null;
  /** `config`, `catalog` or `none` (from the ledger row), or undefined when the row was not found. */
  priceSource?: string | null;
}

function costText(outcome: Outcome): string {
  if (outcome.priceSource === 'none' || outcome.costUsd === null) return 'no price known';
  return outcome.priceSource
    ? `${formatUsd(outcome.costUsd)} (${outcome.priceSource} price)`
    : formatUsd(outcome.costUsd);
}

/**
 * The Playground: pick a model, write messages, stream the answer through `POST /admin/playground/chat/completions`,
 * and see tokens, cost (the ledger row's, else from the serving deployment's configured price) and which deployment
 * served it.
 */
export function PlaygroundPage({ api }: { api: AdminApi }) {
  const models = useLoad(() => api.models(), [api]);
  const [model, setModel] = useState('');
  const [system, setSystem] = useState('');
  const [draft, setDraft] = useState('');
  const [messages, setMessages] = useState<Message[]>([]);
  const [answer, setAnswer] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);
  /** What is sent when the field is empty: the first configured model (a placeholder, never typed into the field). */
  const chosenModel = model.trim() || models.data?.[0]?.id || '';
  useEffect(() => () => abort.current?.abort(), []);

  const send = async (event: Event) => {
    event.preventDefault();
    if (!draft.trim() || !chosenModel) return;
    const history: Message[] = [...messages, { role: 'user', content: draft }];
    setMessages(history);
    setDraft('');
    setAnswer('');
    setOutcome(null);
    setError(null);
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    const startedAt = performance.now();
    try {
      const body = {
        model: chosenModel,
        stream: true,
        stream_options: { include_usage: true },
        messages: [...(system.trim() ? [{ role: 'system', content: system }] : []), ...history],
      };
      const res = await api.send('POST', '/admin/playground/chat/completions', body, controller.signal);
      const streamed = await readChatStream(res, setAnswer, startedAt);
      const header = (name: string) => res.headers.get(name) ?? '';
      const target = models.data
        ?.flatMap((m) => m.targets)
        .find(
          (t) =>
            t.provider === header('x-switchyard-provider') &&
            t.upstream_model === header('x-switchyard-upstream-model'),
        );
      const latencyMs = performance.now() - startedAt;
      const ledger = await findLedgerRow(api, body.model, header('x-request-id'));
      const configured =
        target?.price && streamed.usage
          ? costUsd(target.price, streamed.usage.prompt_tokens, streamed.usage.completion_tokens)
          : null;
      setOutcome({
        ...streamed,
        requestedModel: body.model,
        servedModel: header('x-switchyard-model'),
        provider: header('x-switchyard-provider'),
        upstreamModel: header('x-switchyard-upstream-model'),
        attempts: header('x-switchyard-attempts'),
        requestId: header('x-request-id'),
        latencyMs,
        costUsd: ledger ? ledger.cost_usd : configured,
        priceSource: ledger?.price_source,
      });
      setMessages([...history, { role: 'assistant', content: streamed.text }]);
      setAnswer(null);
    } catch (e) {
      setError((e as Error).name === 'AbortError' ? 'Stopped.' : (e as Error).message);
    } finally {
      abort.current = null;
      setBusy(false);
    }
  };

  return (
    <section class="playground">
      <div class="page-head">
        <h1>Playground</h1>
      </div>
      <form class="stack" onSubmit={send}>
        <label for="pg-model">Model</label>
        <input
          id="pg-model"
          list="pg-model-list"
          placeholder={models.data?.[0]?.id ?? 'provider/model'}
          value={model}
          onInput={(e) => setModel(e.currentTarget.value)}
        />
        <datalist id="pg-model-list">
          {models.data?.map((m) => (
            <option key={m.id} value={m.id} />
          ))}
        </datalist>
        <label for="pg-system">System message</label>
        <textarea id="pg-system" rows={2} value={system} onInput={(e) => setSystem(e.currentTarget.value)} />
        <ol class="conversation" aria-label="Conversation">
          {messages.map((m, i) => (
            <li key={i} class={m.role}>
              <span class="role">{m.role}</span>
              <p>{m.content}</p>
            </li>
          ))}
          {answer !== null && (
            <li class="assistant streaming">
              <span class="role">assistant</span>
              <p data-testid="streaming-answer">{answer}</p>
            </li>
          )}
        </ol>
        <label for="pg-message">Message</label>
        <textarea id="pg-message" rows={3} value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Send
          </button>
          {busy && (
            <button type="button" class="secondary" onClick={() => abort.current?.abort()}>
              Stop
            </button>
          )}
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => {
              setMessages([]);
              setOutcome(null);
              setError(null);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <ErrorNote message={error ?? models.error} />
      {outcome && (
        <dl class="totals" aria-label="Last answer">
          <div>
            <dt>Served by</dt>
            <dd data-testid="served-by">
              {outcome.provider} / {outcome.upstreamModel}
              {outcome.servedModel && outcome.servedModel !== outcome.requestedModel
                ? ` (fallback ${outcome.servedModel})`
                : ''}
            </dd>
          </div>
          <div>
            <dt>Tokens</dt>
            <dd data-testid="answer-tokens">
              {outcome.usage
                ? `${formatCount(outcome.usage.prompt_tokens)} in + ${formatCount(outcome.usage.completion_tokens)} out`
                : 'not reported'}
            </dd>
          </div>
          <div>
            <dt>Cost</dt>
            <dd data-testid="answer-cost">{costText(outcome)}</dd>
          </div>
          <div>
            <dt>First token / total</dt>
            <dd>
              {formatMs(outcome.firstTokenMs)} / {formatMs(outcome.latencyMs)}
            </dd>
          </div>
          <div>
            <dt>Attempts</dt>
            <dd>{outcome.attempts}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
