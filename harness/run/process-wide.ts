/**
 * A value made once per thread and kept on globalThis. vitest loads each project's global setup in a module graph
 * of its own, all in the CLI's process (the kill matrix: hundreds), and the CLI has its own graph besides: a module
 * variable would parse the catalogue and compile the schemas again in each. Only for values that depend on nothing
 * but the package's own files, or state meant to be one per thread.
 */
export function processWide<T>(key: string, make: () => T): T {
  const holder = globalThis as Record<symbol, unknown>;
  const symbol = Symbol.for(`banking-api-conformance.${key}`);
  if (!(symbol in holder)) holder[symbol] = make();
  return holder[symbol] as T;
}
