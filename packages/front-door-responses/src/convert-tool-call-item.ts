import { newId } from './new-id.js';
import type { CustomToolCallItem, FunctionCallItem } from './response-object.js';
import type { ToolNameMap } from './responses-tool-names.js';

/**
 * The raw `input` of a custom tool call from the arguments of the function it was declared as (`{"input": "..."}`):
 * the string when the arguments are that JSON, else the arguments text as it is (a model that wrote raw text).
 */
export function customInputOf(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { input?: unknown }).input === 'string')
      return (parsed as { input: string }).input;
  } catch {
    // Not JSON: the text is the input.
  }
  return args;
}

/**
 * A chat tool call (the function name the gateway declared upstream, its JSON arguments) -> the client's output item:
 * a `custom_tool_call` with the raw `input` for a custom tool, else a `function_call`; either with its `namespace`
 * and own `name` when the tool sat in a namespace (see `ToolNameMap`).
 */
export function toToolCallItem(
  callId: string,
  flatName: string,
  args: string,
  names: ToolNameMap,
  status: FunctionCallItem['status'],
): FunctionCallItem | CustomToolCallItem {
  const ref = names.resolve(flatName);
  const namespace = ref.namespace ? { namespace: ref.namespace } : {};
  if (ref.kind === 'custom') {
    return {
      type: 'custom_tool_call',
      id: newId('ctc'),
      call_id: callId,
      ...namespace,
      name: ref.name,
      input: customInputOf(args),
      status,
    };
  }
  return {
    type: 'function_call',
    id: newId('fc'),
    call_id: callId,
    ...namespace,
    name: ref.name,
    arguments: args,
    status,
  };
}
