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
