import { ConfigError } from "./config-error.js";

const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces ${VAR} (and ${VAR:-fallback}) in every string of a parsed YAML tree.
 * `where(path)` names the place for the error message, e.g. `profile "staging": field "apiKey"`.
 */
export function interpolateEnv(value: unknown, env: NodeJS.ProcessEnv, where: (path: string[]) => string, path: string[] = []): unknown {
  if (typeof value === "string") {
    return value.replace(PATTERN, (_match, name: string, fallback: string | undefined) => {
      const found = env[name];
      if (found !== undefined && found !== "") return found;
      if (fallback !== undefined) return fallback;
      throw new ConfigError(`${where(path)}: environment variable ${name} is not set`);
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => interpolateEnv(item, env, where, [...path, String(i)]));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateEnv(item, env, where, [...path, key])]));
  }
  return value;
}
