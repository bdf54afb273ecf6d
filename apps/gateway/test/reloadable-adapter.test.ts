import {
  ADAPTER_SPEC_VERSION,
  type ModerationRequest,
  type ModerationResponse,
  type ProviderAdapter,
} from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { reloadableAdapter } from '../src/providers/reloadable-adapter.js';

/** An adapter whose `moderations` answers with the API key it was built with (as a reload re-reads it). */
class KeyedAdapter implements ProviderAdapter {
  readonly specVersion = ADAPTER_SPEC_VERSION;
  readonly adapter = 'keyed';
  constructor(readonly apiKey: string) {}
  async moderations(_request: ModerationRequest): Promise<ModerationResponse> {
    return { id: this.apiKey, model: 'm', results: [] };
  }
}

const request = { input: 'hi' } as ModerationRequest;
const context = {} as Parameters<NonNullable<ProviderAdapter['moderations']>>[1];

describe('reloadableAdapter (an adapter swapped while in use)', () => {
  it('calls the current implementation, with methods bound to it, before and after a swap', async () => {
    const reloadable = reloadableAdapter(new KeyedAdapter('old'));
    const { adapter } = reloadable;
    const before = adapter.moderations;
    expect((await adapter.moderations?.(request, context))?.id).toBe('old');
    reloadable.swap(new KeyedAdapter('new'));
    expect(adapter.adapter).toBe('keyed');
    expect((await adapter.moderations?.(request, context))?.id).toBe('new');
    // A method read before the swap (a call in flight) stays on the implementation it was read from.
    expect((await before?.(request, context))?.id).toBe('old');
  });

  it('binds a method once per implementation, and again when the property holds another function', async () => {
    const implementation = new KeyedAdapter('one');
    const reloadable = reloadableAdapter(implementation);
    const { adapter } = reloadable;
    expect(adapter.moderations).toBe(adapter.moderations);
    const replaced = async () => ({ id: 'replaced', model: 'm', results: [] });
    Object.assign(implementation, { moderations: replaced });
    expect((await adapter.moderations?.(request, context))?.id).toBe('replaced');
    const first = adapter.moderations;
    reloadable.swap(new KeyedAdapter('two'));
    expect(adapter.moderations).not.toBe(first);
    expect((await adapter.moderations?.(request, context))?.id).toBe('two');
  });
});
