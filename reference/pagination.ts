import type { FastifyRequest } from "fastify";
import { badRequest } from "./http-error.js";
import type { FaultSet, FaultSpec } from "./faults.js";

export const MAX_COUNT = 200;
export const DEFAULT_COUNT = 10;

export const paginationFaults: FaultSpec[] = [];

export interface Page<T> {
  items: T[];
  pagination: { future_url: string | null; newer_url: string | null; older_url: string | null };
}

function integerQuery(query: Record<string, unknown>, name: string): number | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== "string" || !/^\d{1,15}$/.test(raw)) throw badRequest(`Query parameter ${name} must be a non-negative integer.`);
  return Number(raw);
}

/**
 * Pagination per wire conventions §5, in the specification's reading: pages ascend by id,
 * no cursor gives the newest `count` items, newer_url/older_url are null exactly at the ends.
 */
export function paginate<T extends { id: number }>(request: FastifyRequest, all: T[], _faults: FaultSet): Page<T> {
  const query = request.query as Record<string, unknown>;
  const count = integerQuery(query, "count");
  if (count !== undefined && (count < 1 || count > MAX_COUNT)) {
    throw badRequest(`Query parameter count must be between 1 and ${MAX_COUNT}.`);
  }
  const newerId = integerQuery(query, "newer_id");
  const olderId = integerQuery(query, "older_id");
  if (newerId !== undefined && olderId !== undefined) throw badRequest("Use newer_id or older_id, not both.");
  const size = count ?? DEFAULT_COUNT;
  const sorted = [...all].sort((a, b) => a.id - b.id);
  let items: T[];
  if (newerId !== undefined) items = sorted.filter((i) => i.id > newerId).slice(0, size);
  else if (olderId !== undefined) items = sorted.filter((i) => i.id < olderId).slice(-size);
  else items = sorted.slice(-size);

  const path = request.url.split("?")[0]!;
  const link = (cursor: string, id: number) => `${path}?${count === undefined ? "" : `count=${count}&`}${cursor}=${id}`;
  if (items.length === 0) return { items, pagination: { future_url: null, newer_url: null, older_url: null } };
  const max = items[items.length - 1]!.id;
  const min = items[0]!.id;
  const hasNewer = sorted.some((i) => i.id > max);
  const hasOlder = sorted.some((i) => i.id < min);
  return {
    items,
    pagination: {
      future_url: hasNewer ? null : link("newer_id", max),
      newer_url: hasNewer ? link("newer_id", max) : null,
      older_url: hasOlder ? link("older_id", min) : null,
    },
  };
}
