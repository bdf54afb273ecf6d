import type { AdapterCallContext } from './adapter-context.js';

/**
 * Reports every request field an adapter does not send upstream: for each top-level field of `request` that is set
 * (not `undefined` or `null`) and not in `handled` (the fields the adapter translates, or rejects when their value
 * matters), it records a `dropped_parameter` warning naming the field and the provider, which the gateway sends in
 * `x-switchyard-warning`. Unknown fields (new OpenAI parameters) are reported the same way, so nothing is dropped
 * silently. Returns the names reported.
 */
export function reportDroppedParameters(request: object, handled: ReadonlySet<string>, context: Pick<AdapterCallContext, 'warn' | 'provider'>): string[] {
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(request)) {
    if (value === undefined || value === null || handled.has(name)) continue;
    dropped.push(name);
    context.warn({ code: 'dropped_parameter', param: name, message: `'${name}' is not supported by provider '${context.provider}' and was not sent` });
  }
  return dropped;
}
