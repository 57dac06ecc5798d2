// The request schema each endpoint of harness/endpoints.ts takes, and filling a path template with chosen
// path ids (well-formed or not).
import { endpointOf, type Endpoint } from "../harness/endpoints.js";
import { BODY_NAMES, type BodyName } from "./bodies.js";

/** The schema of an endpoint's JSON body (the endpoint table's `request`), if it takes one. */
export function bodyNameOf(endpoint: Pick<Endpoint, "method" | "path">): BodyName | undefined {
  const name = endpointOf(endpoint.method, endpoint.path)?.request;
  return name !== undefined && (BODY_NAMES as string[]).includes(name) ? (name as BodyName) : undefined;
}

/** The placeholders of a path template, in order: ["userID", "itemId"]. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** Fills a template; undefined when a placeholder has no value. */
export function fill(template: string, values: Record<string, string | number | undefined>): string | undefined {
  let missing = false;
  const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) missing = true;
    return String(value ?? "");
  });
  return missing ? undefined : path;
}

/** The list an item endpoint's ids come from (".../card/{itemId}" → ".../card"), if the catalogue has it. */
export function listPathOf(itemPath: string): string | undefined {
  const match = /^(.*)\/\{itemId\}(?:\/[a-z-]+)?$/.exec(itemPath);
  return match?.[1];
}
