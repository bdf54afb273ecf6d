import {
  type ChatCompletionMessage,
  GOOGLE_REASONING_FORMAT,
  invalidRequestError,
  type ReasoningDetail,
} from '@switchyard/core';
import type { GeminiContent, GeminiPart } from './gemini-types.js';
import { decodeToolCallSignature } from './tool-call-id.js';

type Part = { type: string; text?: string; image_url?: { url: string } };
type ToolCall = { id: string; function: { name: string; arguments?: string } };

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+);base64,(.+)$/s;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Part[]).map((p) => (p.type === 'text' ? (p.text ?? '') : '')).join('');
}

function guessMimeType(url: string): string | undefined {
  const ext = /\.(png|jpe?g|gif|webp|pdf)(?:$|\?)/i.exec(url)?.[1]?.toLowerCase();
  return ext
    ? (
        {
          png: 'image/png',
          jpg: 'image/jpeg',
          jpeg: 'image/jpeg',
          gif: 'image/gif',
          webp: 'image/webp',
          pdf: 'application/pdf',
        } as const
      )[ext as 'png']
    : undefined;
}

function userParts(content: unknown, param: string): GeminiPart[] {
  if (typeof content === 'string') return [{ text: content }];
  if (!Array.isArray(content)) return [];
  return (content as Part[]).map((part, i): GeminiPart => {
    if (part.type === 'text') return { text: part.text ?? '' };
    if (part.type === 'image_url' && part.image_url) {
      const data = DATA_URL.exec(part.image_url.url);
      if (data) return { inlineData: { mimeType: data[1]!, data: data[2]! } };
      const mimeType = guessMimeType(part.image_url.url);
      return { fileData: { fileUri: part.image_url.url, ...(mimeType ? { mimeType } : {}) } };
    }
    throw invalidRequestError(
      `Content parts of type '${part.type}' are not supported by Gemini models here.`,
      `${param}[${i}]`,
      'unsupported_content',
    );
  });
}

function parseArguments(text: string | undefined, param: string): Record<string, unknown> {
  if (!text?.trim()) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw invalidRequestError('Tool call arguments must be a JSON string.', param, 'invalid_tool_arguments');
  }
}

/**
 * The Gemini thought signatures of an assistant message's `reasoning_details` (entries of the `google-gemini-v1`
 * format): per tool call id, and the first one that came with no function call (it goes on the turn's first part).
 */
function geminiSignatures(details: readonly ReasoningDetail[] | null | undefined): {
  byCall: Map<string, string>;
  text?: string;
} {
  const byCall = new Map<string, string>();
  let text: string | undefined;
  for (const detail of details ?? []) {
    if (
      detail.format !== GOOGLE_REASONING_FORMAT ||
      detail.type !== 'reasoning.encrypted' ||
      typeof detail.data !== 'string'
    )
      continue;
    if (detail.id) byCall.set(detail.id, detail.data);
    else text ??= detail.data;
  }
  return { byCall, text };
}

/**
 * OpenAI messages -> Gemini `systemInstruction` + `contents`: `system`/`developer` text joins the system instruction;
 * user text and images (data URLs -> `inlineData`, URLs -> `fileData`) become a `user` turn; assistant text and
 * `tool_calls` (-> `functionCall` parts) a `model` turn, with the thought signatures of its `reasoning_details`
 * (`google-gemini-v1` entries: on the function call part named by `id`, else on the first part) or, for tool call ids
 * made by this adapter, the signature the id carries;
 * `tool` messages become `functionResponse` parts in a `user` turn, named after the earlier call with that id.
 * Consecutive turns of one role are merged. Throws 400 naming the field for unsupported parts, bad arguments, or a
 * tool message answering no known call.
 * @see https://ai.google.dev/api/generate-content#request-body
 */
export function convertToGeminiContents(messages: readonly ChatCompletionMessage[]): {
  systemInstruction?: { parts: { text: string }[] };
  contents: GeminiContent[];
} {
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  const callNames = new Map<string, string>();
  const push = (role: 'user' | 'model', parts: GeminiPart[]) => {
    const kept = parts.filter((p) => p.text !== '' || p.thoughtSignature);
    if (kept.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...kept);
    else contents.push({ role, parts: kept });
  };
  messages.forEach((message, index) => {
    const param = `messages[${index}]`;
    const m = message as {
      role: string;
      content?: unknown;
      tool_calls?: ToolCall[];
      tool_call_id?: string;
      reasoning_details?: ReasoningDetail[] | null;
    };
    if (m.role === 'system' || m.role === 'developer') {
      const text = textOf(m.content);
      if (text) system.push(text);
    } else if (m.role === 'user') push('user', userParts(m.content, `${param}.content`));
    else if (m.role === 'assistant') {
      const signatures = geminiSignatures(m.reasoning_details);
      const text = textOf(m.content);
      // A signature that came with no function call belongs to the turn's first part (text, even empty).
      const parts: GeminiPart[] = [{ text, ...(signatures.text ? { thoughtSignature: signatures.text } : {}) }];
      for (const [j, call] of (m.tool_calls ?? []).entries()) {
        callNames.set(call.id, call.function.name);
        const signature = signatures.byCall.get(call.id) ?? decodeToolCallSignature(call.id);
        parts.push({
          functionCall: {
            name: call.function.name,
            args: parseArguments(call.function.arguments, `${param}.tool_calls[${j}].function.arguments`),
          },
          ...(signature ? { thoughtSignature: signature } : {}),
        });
      }
      push('model', parts);
    } else if (m.role === 'tool') {
      const name = callNames.get(m.tool_call_id ?? '');
      if (!name)
        throw invalidRequestError(
          `No earlier assistant tool call has the id '${m.tool_call_id}'.`,
          `${param}.tool_call_id`,
        );
      const text = textOf(m.content);
      let response: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(text);
        response =
          parsed && typeof parsed === 'object' && !Array.isArray(parsed)
            ? (parsed as Record<string, unknown>)
            : { result: parsed };
      } catch {
        response = { result: text };
      }
      push('user', [{ functionResponse: { name, response } }]);
    } else
      throw invalidRequestError(
        `Messages with role '${m.role}' are not supported by Gemini models; use 'tool'.`,
        `${param}.role`,
      );
  });
  return { ...(system.length > 0 ? { systemInstruction: { parts: [{ text: system.join('\n\n') }] } } : {}), contents };
}
