// Probes of the variants of the lists, errors and versioning area (reference/status-variants.ts,
// reference/resources/versioning.ts).
import type { ProbeFn } from "./support.js";

export const PROBES: Record<string, ProbeFn> = {
  "4xx-per-endpoint": async (p) => {
    const user = `/user/${p.session.userId}`;
    const company = (await p.get(`${user}/company/999999999`)).status;
    const certificate = (await p.get(`${user}/certificate-pinned/999999999`)).status;
    const method = await p.send("DELETE", `${user}/company`);
    const badId = (await p.get(`${user}/company/abc`)).status;
    return company === 404 && certificate === 410 && method.status === 405 && /GET/.test(method.headers.allow ?? "") && badId === 404;
  },
  "4xx-per-endpoint-mirror": async (p) => {
    const user = `/user/${p.session.userId}`;
    const company = (await p.get(`${user}/company/999999999`)).status;
    const unknownPath = (await p.get(`${user}/no-such-resource`)).status;
    const method = (await p.send("DELETE", `${user}/company`)).status;
    const badId = (await p.get(`${user}/company/abc`)).status;
    return company === 400 && unknownPath === 400 && method === 404 && badId === 422;
  },
  "version-prefix-aliases": async (p) => {
    // The client resolves paths against the base URL (…/v1): /v1/../v2/… leaves it for /v2/….
    const answer = await p.get(`/v1/../v2/user/${p.session.userId}/card`);
    return answer.status === 200;
  },
};
