import { createHash } from 'node:crypto';

/** Separator between a namespace and a tool name in a flattened function name: `<namespace>__<name>`. */
export const NAMESPACE_SEPARATOR = '__';

/** Longest function name every translated provider accepts (OpenAI and Gemini: 64; Anthropic: 128). */
const MAX_NAME_LENGTH = 64;

/**
 * A Responses tool (or call) name, with its namespace when it has one -> a function name every provider accepts:
 * `<namespace>__<name>`, characters outside `[A-Za-z0-9_-]` replaced by `_`, a leading digit or `-` prefixed with `_`
 * (Gemini wants a letter or `_` first), and a name over 64 characters cut to 55 plus `_` and 8 hex characters of its
 * SHA-256 (so it stays unique). The same input always gives the same name, so calls in a replayed history map to the
 * same function as the tools of the request.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools (`^[a-zA-Z0-9_-]{1,64}$`)
 */
export function flattenToolName(name: string, namespace?: string | null): string {
  const joined = namespace ? `${namespace}${NAMESPACE_SEPARATOR}${name}` : name;
  let safe = joined.replace(/[^A-Za-z0-9_-]/g, '_');
  if (!/^[A-Za-z_]/.test(safe)) safe = `_${safe}`;
  if (safe.length <= MAX_NAME_LENGTH) return safe;
  const digest = createHash('sha256').update(joined).digest('hex').slice(0, 8);
  return `${safe.slice(0, MAX_NAME_LENGTH - 9)}_${digest}`;
}

/** What a flattened function name stands for in the client's Responses terms. */
export interface ResponsesToolRef {
  /** The tool's own name (without its namespace). */
  name: string;
  /** The namespace of a tool declared inside a `namespace` tool. */
  namespace?: string;
  /** `custom` for a freeform tool (calls come back as `custom_tool_call` with raw `input`), else `function`. */
  kind: 'function' | 'custom';
}

/**
 * The function names a translated request declared, each mapped back to the client's tool: built from the request's
 * `tools` (see `convertResponsesTools`), read when the model's calls are turned into output items. A name that is not
 * in the map (the model invented it) comes back as a plain function call of that name.
 */
export class ToolNameMap {
  readonly #byFlatName = new Map<string, ResponsesToolRef>();

  /** Records `ref` under its flattened name; returns that name. */
  add(ref: ResponsesToolRef): string {
    const flat = flattenToolName(ref.name, ref.namespace);
    this.#byFlatName.set(flat, ref);
    return flat;
  }

  /** The client's tool behind a function name the model called. */
  resolve(flatName: string): ResponsesToolRef {
    return this.#byFlatName.get(flatName) ?? { name: flatName, kind: 'function' };
  }

  /** How many tools are mapped. */
  get size(): number {
    return this.#byFlatName.size;
  }
}
