/** What a scripted agent upstream answers to one turn: a call to the shell tool, or a text. */
export type ShellToolTurn = { kind: 'call'; tool: string; input: { command: string } } | { kind: 'text'; text: string };

/** The command the scripted upstream asks the client's shell tool to run. */
export const SHELL_COMMAND = 'ls';

/** The text of the answer to a turn carrying the tool result: it quotes the result. */
export function quoteToolResult(result: string): string {
  return `The listing: ${result.trim()}`;
}

/**
 * The scripted agent turn (format-independent): when the request carries a tool result, a text quoting it; else when
 * it offers tools, one call to the client's shell tool (`Bash` when offered, else the first tool) running
 * {@link SHELL_COMMAND}; else a short text (a side request such as a title).
 */
export function shellToolTurn(toolNames: readonly string[], toolResult: string | undefined): ShellToolTurn {
  if (toolResult !== undefined) return { kind: 'text', text: quoteToolResult(toolResult) };
  const tool = toolNames.find((name) => name === 'Bash') ?? toolNames[0];
  if (tool) return { kind: 'call', tool, input: { command: SHELL_COMMAND } };
  return { kind: 'text', text: 'OK' };
}
