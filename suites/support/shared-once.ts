/**
 * What the tests of a file share, made once: the first caller's promise serves every test. A rejected one is forgotten,
 * so that a test run again after weather (a connection dropped while the shared thing was made) makes it anew, instead
 * of failing again on the same rejection (seen at 2 % chaos: one dropped POST broke every test of a file, twice).
 */
export function sharedOnce<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    if (made === undefined) {
      const making = make();
      made = making;
      making.catch(() => {
        if (made === making) made = undefined;
      });
    }
    return made;
  };
}

/**
 * What one run keeps, made on first use: the kill matrix runs one target after another in a worker, each with ids of its
 * own, so state about a target's objects is kept per run (the run object `useTarget()` hands out), never per module.
 */
export function perRun<T>(make: () => T): (run: object) => T {
  const kept = new WeakMap<object, T>();
  return (run) => {
    if (!kept.has(run)) kept.set(run, make());
    return kept.get(run)!;
  };
}
