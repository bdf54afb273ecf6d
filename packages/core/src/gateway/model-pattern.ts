/**
 * A model id pattern of config (`models[].id` holding `*`): `*` matches any run of characters (none included), every
 * other character itself, e.g. `claude-*` matches `claude-sonnet-4-5` and `claude-`. Matching walks the id once per
 * literal part (no regular expression is built from config text), so a long id costs time linear in its length.
 */
export interface ModelPattern {
  /** The pattern as configured. */
  readonly pattern: string;
  /** True when `id` matches the whole pattern. */
  matches(id: string): boolean;
}

/** True when a configured model id is a pattern (holds `*`). */
export function isModelPattern(id: string): boolean {
  return id.includes('*');
}

/** Compiles `pattern` (see {@link ModelPattern}); an id without `*` matches only itself. */
export function modelPattern(pattern: string): ModelPattern {
  const parts = pattern.split('*');
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  const middle = parts.slice(1, -1).filter((p) => p !== '');
  const fixed = parts.reduce((n, p) => n + p.length, 0);
  const exact = parts.length === 1;
  return {
    pattern,
    matches(id: string): boolean {
      if (exact) return id === pattern;
      if (id.length < fixed || !id.startsWith(first) || !id.endsWith(last)) return false;
      // Each middle part at its leftmost place after the one before; what remains must still hold the last part.
      let at = first.length;
      const end = id.length - last.length;
      for (const part of middle) {
        const found = id.indexOf(part, at);
        if (found < 0 || found + part.length > end) return false;
        at = found + part.length;
      }
      return true;
    },
  };
}
