/** True when `model` matches one of `patterns` (`*` matches any run of characters, e.g. `gpt-4o*`, `anthropic/*`). */
export function matchesModelGlob(model: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    const source = pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${source}$`).test(model);
  });
}
