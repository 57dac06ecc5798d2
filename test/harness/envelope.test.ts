import { describe, expect, it } from "vitest";
import { createdId, errorEntries, firstOfType, objectsOfType, paginationOf, responseItems, typeKeyOf } from "../../harness/envelope.js";

describe("envelope helpers", () => {
  const body = {
    Response: [{ Id: { id: 7 } }, { Token: { token: "t" } }, { Card: { id: 1 } }, { CardDebit: { id: 2 } }],
    Pagination: { future_url: null, newer_url: "/v1/x?newer_id=2", older_url: null },
  };

  it("reads Response elements, type keys and inner objects", () => {
    expect(responseItems(body)).toHaveLength(4);
    expect(responseItems({ Error: [] })).toBeUndefined();
    expect(typeKeyOf({ Id: {} })).toBe("Id");
    expect(typeKeyOf({ Id: {}, Token: {} })).toBeUndefined();
    expect(objectsOfType(body, "Card", "CardDebit").map((o) => o.id)).toEqual([1, 2]);
    expect(firstOfType(body, "Token")).toEqual({ token: "t" });
    expect(createdId(body)).toBe(7);
    expect(createdId({ Response: [] })).toBeUndefined();
  });

  it("reads Pagination and Error", () => {
    expect(paginationOf(body)?.newer_url).toBe("/v1/x?newer_id=2");
    expect(paginationOf({ Response: [] })).toBeUndefined();
    expect(errorEntries({ Error: [{ error_description: "a", error_description_translated: "a" }] })).toHaveLength(1);
    expect(errorEntries({ error: "x" })).toBeUndefined();
  });
});
