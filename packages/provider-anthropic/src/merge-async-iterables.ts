/**
 * Interleaves several async iterables, yielding each item as soon as any source produces it. If one source throws,
 * the others are closed and the error is rethrown; closing the merged iterable closes every source.
 */
export async function* mergeAsyncIterables<T>(sources: readonly AsyncIterable<T>[]): AsyncGenerator<T> {
  const iterators = sources.map((s) => s[Symbol.asyncIterator]());
  const pending = new Map<number, Promise<{ i: number; result: IteratorResult<T> }>>();
  const pull = (i: number) => pending.set(i, iterators[i]!.next().then((result) => ({ i, result })));
  for (let i = 0; i < iterators.length; i++) pull(i);
  try {
    while (pending.size > 0) {
      const { i, result } = await Promise.race(pending.values());
      if (result.done) pending.delete(i);
      else {
        pull(i);
        yield result.value;
      }
    }
  } finally {
    await Promise.allSettled(iterators.map((it) => it.return?.()));
  }
}
