export { anthropicShellEvents, anthropicShellMessage, anthropicShellScriptRoutes, anthropicShellTurn, anthropicToolResult } from './anthropic-shell-script.js';
export { bedrockShellScriptRoutes } from './bedrock-shell-script.js';
export { geminiShellScriptRoutes } from './gemini-shell-script.js';
export { openaiShellScriptRoutes } from './openai-shell-script.js';
export { SHELL_COMMAND, type ShellToolTurn, quoteToolResult, shellToolTurn } from './shell-tool-turns.js';
