// The turn logic shared by the scripted agent upstreams (scripted-agent-upstream.ts, scripted-responses-route.ts).

/**
 * The shell call a scripted upstream answers a coding agent's first turn with: the agent's shell tool by name (Codex:
 * `exec_command`, Claude Code: `Bash`) and its JSON arguments (e.g. `{cmd: "ls"}`).
 */
export interface ScriptedShellCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** Streams the call's JSON arguments in pieces of this many characters (default: two pieces). */
  pieceLength?: number;
}

/** `json` cut where a stream sends its argument fragments: in `pieceLength` pieces, else at `split` (two pieces). */
export function argumentPieces(json: string, call: ScriptedShellCall, split: number): string[] {
  if (!call.pieceLength) return [json.slice(0, split), json.slice(split)];
  const pieces: string[] = [];
  for (let i = 0; i < json.length; i += call.pieceLength) pieces.push(json.slice(i, i + call.pieceLength));
  return pieces;
}

/** The reply text of the second turn: quotes what the tool returned (first 300 characters, trimmed). */
export const quoteToolResult = (result: string) => `The command printed: ${result.trim().slice(0, 300)}`;
/** The reply text of a turn without tools, or whose tools lack the scripted shell tool. */
export const SCRIPTED_PLAIN_TEXT = 'Hello from the scripted upstream.';
/** The token usage every scripted answer reports. */
export const SCRIPTED_USAGE = { input: 42, output: 7 };

/** One scripted answer: a call of the shell tool, or text. */
export type Turn = { kind: 'call'; call: ScriptedShellCall } | { kind: 'text'; text: string };

/** What to answer: text quoting the tool result when there is one, else the shell call when the tool is offered, else text. */
export function nextTurn(result: string | undefined, offered: readonly string[], shell: ScriptedShellCall): Turn {
  if (result !== undefined) return { kind: 'text', text: quoteToolResult(result) };
  if (offered.includes(shell.tool)) return { kind: 'call', call: shell };
  return { kind: 'text', text: SCRIPTED_PLAIN_TEXT };
}

/** The text of a message content: a string, or the text parts of an array (nested `content` included). */
export const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      typeof part === 'string' ? part : typeof part?.text === 'string' ? part.text : textOf(part?.content),
    )
    .join('');
};
