import type { KeyState } from './key-state.js';

/** Who is calling: a static key from the config file, or a virtual key (with its live limits). */
export type Principal = { kind: 'static' } | { kind: 'virtual'; state: KeyState };
