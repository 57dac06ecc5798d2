/** Reading the wire envelope (wire conventions §1–§2): {"Response":[{"<Type>":{...}}], "Pagination"?}. */
import { isObject } from "./json.js";

export type Json = unknown;

export interface Pagination {
  future_url: string | null;
  newer_url: string | null;
  older_url: string | null;
}

/** The elements of Response, or undefined when the body is not an envelope. */
export function responseItems(body: Json): Record<string, unknown>[] | undefined {
  if (!isObject(body) || !Array.isArray(body.Response)) return undefined;
  return body.Response as Record<string, unknown>[];
}

/** The single type key of one Response element, or undefined when it has none or several. */
export function typeKeyOf(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  const keys = Object.keys(item);
  return keys.length === 1 ? keys[0] : undefined;
}

/** Inner objects of every Response element whose type key is one of `types`. */
export function objectsOfType(body: Json, ...types: string[]): Record<string, unknown>[] {
  return (responseItems(body) ?? [])
    .filter((item) => isObject(item) && types.some((t) => t in item))
    .map((item) => {
      const key = types.find((t) => t in item)!;
      return item[key] as Record<string, unknown>;
    });
}

export function firstOfType(body: Json, ...types: string[]): Record<string, unknown> | undefined {
  return objectsOfType(body, ...types)[0];
}

/** The id of {"Response":[{"Id":{"id":N}}]}, or undefined. */
export function createdId(body: Json): number | undefined {
  const id = firstOfType(body, "Id")?.id;
  return typeof id === "number" ? id : undefined;
}

export function paginationOf(body: Json): Pagination | undefined {
  if (!isObject(body) || !isObject(body.Pagination)) return undefined;
  return body.Pagination as unknown as Pagination;
}

/** Each element of an error body {"Error":[{error_description, error_description_translated}]}. */
export function errorEntries(body: Json): { error_description?: unknown; error_description_translated?: unknown }[] | undefined {
  if (!isObject(body) || !Array.isArray(body.Error)) return undefined;
  return body.Error as { error_description?: unknown; error_description_translated?: unknown }[];
}
