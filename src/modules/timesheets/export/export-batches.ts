/**
 * Maps each batch (one that maps to nothing, undefined, is skipped) while the database already reads the next one, so reading and writing overlap
 * instead of taking turns. Leaving early closes the source (and its cursor).
 */
export async function* mapBatches<A, B>(batches: AsyncGenerator<A[]>, map: (batch: A[]) => B | undefined): AsyncGenerator<B> {
  let next = batches.next();
  try {
    for (;;) {
      const { value, done } = await next;
      if (done) return;
      next = batches.next();
      // The driver sends that read a few ticks later: let it reach the database before mapping this batch.
      await new Promise((resolve) => setImmediate(resolve));
      const mapped = map(value);
      if (mapped !== undefined) yield mapped;
    }
  } finally {
    // A read still under way finishes (or fails) before the source can close.
    await next.catch(() => undefined);
    await batches.return(undefined);
  }
}
