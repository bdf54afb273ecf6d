/**
 * Interleaves several async iterables, yielding each item as soon as any source produces it. When one source throws,
 * or the consumer stops early, `onClose` runs first (e.g. aborting the sources' upstream requests, so that a stalled
 * source cannot keep the close waiting), then every source is closed; the error is rethrown.
 */
export async function* mergeAsyncIterables<T>(
  sources: readonly AsyncIterable<T>[],
  onClose: () => void = () => {},
): AsyncGenerator<T> {
  const iterators = sources.map((s) => s[Symbol.asyncIterator]());
  const pending = new Map<number, Promise<{ i: number; result: IteratorResult<T> }>>();
  const pull = (i: number) =>
    pending.set(
      i,
      iterators[i]!.next().then((result) => ({ i, result })),
    );
  for (let i = 0; i < iterators.length; i++) pull(i);
  let completed = false;
  try {
    while (pending.size > 0) {
      const { i, result } = await Promise.race(pending.values());
      if (result.done) pending.delete(i);
      else {
        pull(i);
        yield result.value;
      }
    }
    completed = true;
  } finally {
    if (!completed) {
      onClose();
      for (const promise of pending.values()) promise.catch(() => {});
      await Promise.allSettled(iterators.map((it) => it.return?.()));
    }
  }
}
