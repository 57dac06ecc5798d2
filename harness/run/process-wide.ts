/**
 * A value made once per thread and kept on globalThis. vitest gives each project a module graph of its own; where
 * a thread serves several of them, a module variable would parse the catalogue and compile the schemas again for
 * each one. Only for values that depend on nothing but the package's own files, and that nobody mutates.
 */
export function processWide<T>(key: string, make: () => T): T {
  const holder = globalThis as Record<symbol, unknown>;
  const symbol = Symbol.for(`banking-api-conformance.${key}`);
  if (!(symbol in holder)) holder[symbol] = make();
  return holder[symbol] as T;
}
