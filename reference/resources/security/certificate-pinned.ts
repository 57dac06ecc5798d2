// The routes read as the specification; every fault and variant of this file hooks in through a named seam below them.
import { createPublicKey, X509Certificate } from "node:crypto";
import type { FastifyReply } from "fastify";
import { badRequest } from "../../http-error.js";
import { intParam, objectBody, pathUser, sendId, sendItems, type ReferenceContext, type ResourceModule } from "../../module.js";
import { paginate, type Page } from "../../pagination.js";
import type { Collection } from "../../state.js";
import { timestamp } from "../../time.js";
import { invalidBody, notTheirs } from "../refusals.js";

const CERTIFICATE_PINNED_TYPE_KEY = "CertificatePinned";

interface PinnedChain {
  id: number;
  created: string;
  updated: string;
  /** The chain's certificates as sent, each a single PEM block without surrounding whitespace. */
  certificates: string[];
}

/**
 * Self-signed EC P-256 certificate (CN=Reference Server Seed Certificate) for the seeded chains, made with
 * openssl as harness/test-data/certificates/README.md records. Only its public certificate exists.
 */
const SEED_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIB8TCCAZegAwIBAgIUcBqfNIALmc/1bgH/QvRKjzvkvMgwCgYIKoZIzj0EAwIw
TjEgMB4GA1UECgwXQmFua2luZyBBUEkgQ29uZm9ybWFuY2UxKjAoBgNVBAMMIVJl
ZmVyZW5jZSBTZXJ2ZXIgU2VlZCBDZXJ0aWZpY2F0ZTAeFw0yNjExMjIwMzQ1Mzda
Fw00NjExMTcwMzQ1MzdaME4xIDAeBgNVBAoMF0JhbmtpbmcgQVBJIENvbmZvcm1h
bmNlMSowKAYDVQQDDCFSZWZlcmVuY2UgU2VydmVyIFNlZWQgQ2VydGlmaWNhdGUw
WTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQBXj4PwDBUGgOvN8euYlgyWwMLAOIR
AQpFpvmvnJZ+/IqG/t1pobNUw3QZsfdArWr/lVUlYmaFwEHyhNiCsdBMo1MwUTAd
BgNVHQ4EFgQULbQZnIAomd6fPIIyGrubMYgt4DQwHwYDVR0jBBgwFoAULbQZnIAo
md6fPIIyGrubMYgt4DQwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBF
AiEA0OjKuuPCOibuPi2ftiii6H8LPkqymb9dgGPH58GMoKMCIB0f5XMGnfGTMGjY
gqJwHrX7Uw+9SRP1DkjacgzY0xwn
-----END CERTIFICATE-----`;

/** Chains seeded per user: more than the default page of 10, so list checks see pagination at work. */
const SEED_COUNT = 12;

/** One PEM certificate block and nothing else, parsable as X.509 (wire conventions §7: anything else → 4XX). */
const SINGLE_PEM = /^-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----$/;

const PEM_BLOCKS = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * Texts already parsed as X.509, and how: a run pins the same few certificates hundreds of times (lists grown past 200
 * items), and parsing one costs more than the rest of the request. Bounded: cleared when it grows past the bound.
 */
const parsed = new Map<string, boolean>();
const PARSED_BOUND = 1000;

function isPemCertificate(text: string, armourOnly = false): boolean {
  if (armourOnly) return /-----BEGIN CERTIFICATE-----[\s\S]*-----END CERTIFICATE-----/.test(text);
  if (!SINGLE_PEM.test(text)) return false;
  const known = parsed.get(text);
  if (known !== undefined) return known;
  let ok: boolean;
  try {
    new X509Certificate(text);
    ok = true;
  } catch {
    ok = false;
  }
  if (parsed.size >= PARSED_BOUND) parsed.clear();
  parsed.set(text, ok);
  return ok;
}

/**
 * The PEM certificates of one entry under the legal variants (CERT-010, LENIENT): the reference takes one
 * certificate and nothing else; cert-pem-with-text-accepted drops explanatory text around one block (RFC 7468
 * §5.2), cert-two-pems-per-entry-accepted takes several blocks with only white space between.
 */
function entryCertificates(entry: string, ctx: ReferenceContext): string[] {
  const blocks = entry.match(PEM_BLOCKS) ?? [];
  const outside = entry.replace(PEM_BLOCKS, "");
  if (blocks.length === 1 && outside.trim() !== "" && ctx.variants.on("cert-pem-with-text-accepted")) return blocks;
  if (blocks.length > 1 && outside.trim() === "" && ctx.variants.on("cert-two-pems-per-entry-accepted")) return blocks;
  return [entry];
}

/** The certificates of a create body {"certificate_chain": [{"certificate": PEM}, …]}, or a 4XX (CERT-007, CERT-008). */
function parseChain(body: Record<string, unknown>, ctx: ReferenceContext): string[] {
  const chain = chainArray(ctx, body.certificate_chain);
  if (!Array.isArray(chain)) throw invalidBody(ctx, "certificate_chain must be an array of {certificate} objects.");
  // Variant cert-empty-chain-pinned: neither file says an empty chain is refused (CERT-011, LENIENT).
  if (chain.length === 0 && !ctx.variants.on("cert-empty-chain-pinned"))
    throw invalidBody(ctx, "certificate_chain must hold at least one certificate.");
  const entries = chain.map((entry: unknown) => {
    const certificate = entry !== null && typeof entry === "object" ? (entry as Record<string, unknown>).certificate : undefined;
    if (typeof certificate !== "string") throw invalidBody(ctx, "Every certificate_chain entry needs a certificate string.");
    return certificate.trim();
  });
  if (ctx.faults.on("cert-non-pem-accepted")) return entries;
  const certificates = keyBlocksCut(ctx, entries).flatMap((entry) => entryCertificates(entry, ctx));
  const kept = invalidEntriesDropped(ctx, certificates);
  if (kept !== undefined) return kept;
  const checked = ctx.faults.on("cert-only-first-entry-validated") ? certificates.slice(0, 1) : certificates;
  const bad = checked.findIndex((pem) => !entryAccepted(ctx, pem) || crlfRefused(ctx, pem));
  if (bad >= 0) throw invalidBody(ctx, `certificate_chain[${bad}] is not a PEM certificate.`);
  // Fault r3-cert-bundle-private-key-shown: the checked certificates came from the cut entries, but the entries are pinned as sent.
  return ctx.faults.on("r3-cert-bundle-private-key-shown") ? entries : certificates;
}

/**
 * A chain with an entry that is not a PEM certificate is refused whole (wire conventions §7). Fault
 * r6-cert-invalid-entries-dropped: the chain is "cleaned" by filtering out the entries that fail the check, and only a chain
 * left empty is refused; undefined otherwise (the usual check).
 */
function invalidEntriesDropped(ctx: ReferenceContext, certificates: string[]): string[] | undefined {
  if (!ctx.faults.on("r6-cert-invalid-entries-dropped")) return undefined;
  const kept = certificates.filter((pem) => entryAccepted(ctx, pem) && !crlfRefused(ctx, pem));
  return kept.length > 0 ? kept : undefined;
}

/** An entry is one PEM certificate, parsed as X.509 (wire conventions §7). */
function entryAccepted(ctx: ReferenceContext, pem: string): boolean {
  // Fault r4-cert-any-pem-key-accepted: the entry is "validated" with createPublicKey, which also loads public and private keys.
  if (ctx.faults.on("r4-cert-any-pem-key-accepted")) {
    try {
      createPublicKey(pem);
      return true;
    } catch {
      return false;
    }
  }
  return isPemCertificate(pem, ctx.faults.on("cert-armour-only-checked"));
}

const PRIVATE_KEY_BLOCK = /\s*-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----\s*/g;

/**
 * An entry is one PEM certificate and nothing else (wire conventions §7). Fault r3-cert-bundle-private-key-shown takes a
 * "certificate + key" PEM bundle as users export them: the private key block is cut off for the check only.
 */
function keyBlocksCut(ctx: ReferenceContext, entries: string[]): string[] {
  if (!ctx.faults.on("r3-cert-bundle-private-key-shown")) return entries;
  return entries.map((entry) => entry.replace(PRIVATE_KEY_BLOCK, "\n").trim());
}

/**
 * certificate_chain is an array (spec: create form). Whether anything else is refused is open (CERT-008, LENIENT):
 * the fault and cert-chain-not-array-pinned take one PEM string, the variant also one {certificate} object, as a chain of one.
 */
function chainArray(ctx: ReferenceContext, chain: unknown): unknown {
  const unwrapped = ctx.faults.on("cert-chain-string-accepted") || ctx.variants.on("cert-chain-not-array-pinned");
  if (typeof chain === "string" && unwrapped) return [{ certificate: chain }];
  const single = chain !== null && typeof chain === "object" && !Array.isArray(chain);
  if (single && ctx.variants.on("cert-chain-not-array-pinned")) return [chain];
  return chain;
}

/** Whatever strings the body's chain holds, unchecked (for the cert-refused-chain-stored fault). */
function rawCertificates(body: Record<string, unknown>): string[] {
  const chain = Array.isArray(body.certificate_chain) ? (body.certificate_chain as unknown[]) : [];
  return chain.map((entry) => {
    const certificate = entry !== null && typeof entry === "object" ? (entry as Record<string, unknown>).certificate : undefined;
    return typeof certificate === "string" ? certificate.trim() : "";
  });
}

/** The read form: certificate_chain a string, every certificate in order, glued with newlines (CERT-002, CERT-003). */
function view(chain: PinnedChain, ctx: ReferenceContext): Record<string, unknown> {
  let certificates = chain.certificates;
  if (ctx.faults.on("cert-chain-only-first-certificate")) certificates = certificates.slice(0, 1);
  if (ctx.faults.on("cert-chain-reversed")) certificates = [...certificates].reverse();
  // The read form glues the certificates with newlines (wire conventions §7).
  let certificateChain: unknown = certificates.join(ctx.faults.on("cert-chain-joined-without-separator") ? "" : "\n");
  if (ctx.faults.on("cert-chain-read-as-array")) certificateChain = certificates.map((certificate) => ({ certificate }));
  return { id: chain.id, certificate_chain: certificateChain };
}

/** Chains are answered under CertificatePinned (ERR-015). */
function sendChains(reply: FastifyReply, chains: PinnedChain[], ctx: ReferenceContext, extra: Record<string, unknown> = {}): FastifyReply {
  const typeKey = ctx.faults.on("cert-type-key-wrong") ? "CertificatePinnedRead" : CERTIFICATE_PINNED_TYPE_KEY;
  return sendItems(
    reply,
    chains.map((chain) => ({ [typeKey]: view(chain, ctx) })),
    extra,
  );
}

/**
 * POST, GET list, GET item and DELETE under /user/{userID}/certificate-pinned (spec: Endpoints > Pinned
 * certificates; wire conventions §1, §7).
 */
export const certificatePinnedModule: ResourceModule = {
  name: "certificate-pinned",
  seed(ctx, user) {
    const chains = ctx.state.collection<PinnedChain>("certificate-pinned");
    for (let i = 0; i < Math.max(SEED_COUNT, ctx.listItems); i++) {
      const now = timestamp();
      chains.add(user.id, (id) => ({ id, created: now, updated: now, certificates: [SEED_CERTIFICATE] }));
    }
  },
  register(app, ctx) {
    const chains = ctx.state.collection<PinnedChain>("certificate-pinned");
    /** Ids deleted under the cert-deleted-still-listed fault: gone for reads, still in the collection (empty otherwise). */
    const hidden = new Set<number>();
    /** Chains deleted under fault r3-cert-list-deleted-counted-in-page, by owner: soft-deleted rows the page query still counts. */
    const tombstones = new Map<number, PinnedChain[]>();
    /** Variant r5-cert-repin-answers-deleted-id: the id each chain was first pinned under, by user and chain (empty otherwise). */
    const fingerprints = new Map<string, number>();

    app.post("/v1/user/:userID/certificate-pinned", async (request, reply) => {
      // Faults r6-cert-pin-path-user-unchecked and r6-cert-create-path-user-unchecked (two authors wrote the same bug): the pin
      // takes any existing user's id from the path and pins the chain there (list, read and delete check it).
      const careless = ctx.faults.on("r6-cert-create-path-user-unchecked")
        ? "r6-cert-create-path-user-unchecked"
        : "r6-cert-pin-path-user-unchecked";
      const userId = pathUser(request, ctx, careless);
      const body = objectBody(request);
      const pin = (certificates: string[]) => {
        const now = timestamp();
        return chains.add(userId, (id) => ({ id: pinnedId(ctx, chains, userId, id), created: now, updated: now, certificates }));
      };
      const early = pinnedBeforeTheChecks(ctx, body, pin);
      const certificates = storedCertificates(ctx, parseChain(body, ctx));
      carelessChainRefusals(ctx, certificates);
      const known = pinnedBefore(ctx, fingerprints, userId, certificates);
      if (known !== undefined) return sendId(reply, known);
      const chain = early ?? pin(certificates);
      rememberPinned(ctx, fingerprints, userId, certificates, chain.id);
      return sendPinned(ctx, reply, chain, () => chains.list(userId).length);
    });

    app.get("/v1/user/:userID/certificate-pinned", async (request, reply) => {
      // Fault r3-cert-list-path-user-unchecked: the list takes any existing user's id from the path (read and delete check it).
      const userId = pathUser(request, ctx, "r3-cert-list-path-user-unchecked");
      const deleted = tombstones.get(userId) ?? [];
      const page = paginate(request, [...listedChains(ctx, chains, userId), ...deleted], ctx);
      return sendListed(ctx, reply, withoutDeleted(page, deleted));
    });

    app.get("/v1/user/:userID/certificate-pinned/:itemId", async (request, reply) => {
      const userId = pathUser(request, ctx);
      const id = intParam(request, "itemId");
      const chain = findChain(ctx, chains, userId, id);
      if (!chain || hidden.has(id)) throw notTheirs(ctx);
      return sendChainRead(ctx, reply, chain, (request.params as Record<string, string>).itemId!);
    });

    app.delete("/v1/user/:userID/certificate-pinned/:itemId", async (request, reply) => {
      const userId = pathUser(request, ctx, "cert-delete-path-user-not-checked");
      const id = intParam(request, "itemId");
      const owner = deletingOwner(ctx, chains, userId, id);
      crashOnUnknownId(ctx, chains, id);
      if (foreignDeleteAnswered(ctx, chains, owner, id)) return sendDeleted(ctx, reply);
      if (!chains.get(owner, id) || hidden.has(id)) return unknownChainDeleted(ctx, reply);
      const chain = chains.get(owner, id)!;
      unpin(ctx, chains, hidden, owner, id);
      sharedCertificatesRemoved(ctx, chains, owner, chain);
      softDeleted(ctx, tombstones, owner, chain);
      return sendDeleted(ctx, reply);
    });
  },
};

// ---- Seams of the pinned-chain routes: each decides one rule and names the faults that bend it. ----

/** A refused chain is not pinned (CERT-007); the careless order pins what was sent before checking it. */
function pinnedBeforeTheChecks(
  ctx: ReferenceContext,
  body: Record<string, unknown>,
  pin: (certificates: string[]) => PinnedChain,
): PinnedChain | undefined {
  return ctx.faults.on("cert-refused-chain-stored") ? pin(rawCertificates(body)) : undefined;
}

/** The chain is pinned as sent, every certificate in order (wire conventions §7); the fault drops repeated certificates. */
function storedCertificates(ctx: ReferenceContext, certificates: string[]): string[] {
  return ctx.faults.on("cert-duplicate-certificates-collapsed") ? [...new Set(certificates)] : certificates;
}

/** A new chain gets a new id; reusing a deleted chain's id is a reading the text allows (no sentence keeps ids unique). */
function pinnedId(ctx: ReferenceContext, chains: Collection<PinnedChain>, userId: number, id: number): number {
  // Variant r4-cert-id-reused-after-delete (blind round 4, ruled open): the id is "the user's greatest chain id + 1", so a deleted
  // newest chain's id comes back.
  if (!ctx.variants.on("r4-cert-id-reused-after-delete")) return id;
  const owned = chains.list(userId);
  return owned.length === 0 ? id : owned[owned.length - 1]!.id + 1;
}

/**
 * Every POST pins a new chain and answers its id. Variant r5-cert-repin-answers-deleted-id: a fingerprint index (user and chain)
 * answers a chain pinned before with its first id and pins nothing; the index is never cleaned on DELETE, so a chain pinned
 * again after its deletion is answered with the deleted id. Undefined: pin as usual.
 */
function pinnedBefore(ctx: ReferenceContext, index: Map<string, number>, userId: number, certificates: string[]): number | undefined {
  if (!ctx.variants.on("r5-cert-repin-answers-deleted-id")) return undefined;
  return index.get(`${userId}|${certificates.join("\n")}`);
}

/** Variant r5-cert-repin-answers-deleted-id: the index entry of a chain just pinned. */
function rememberPinned(ctx: ReferenceContext, index: Map<string, number>, userId: number, certificates: string[], id: number): void {
  if (ctx.variants.on("r5-cert-repin-answers-deleted-id")) index.set(`${userId}|${certificates.join("\n")}`, id);
}

/** A chain of one certificate is pinned (CERT-001); the fault demands two. */
function carelessChainRefusals(ctx: ReferenceContext, certificates: string[]): void {
  if (certificates.length === 1 && ctx.faults.on("cert-single-certificate-refused"))
    throw badRequest("A chain needs at least two certificates.");
}

/** POST answers the new chain's Id (ERR-009); the fault answers the user's chain count (the list length) instead. */
function sendPinned(ctx: ReferenceContext, reply: FastifyReply, chain: PinnedChain, pinnedCount: () => number): FastifyReply {
  if (ctx.faults.on("cert-create-answers-bare-id")) return sendItems(reply, [{ id: chain.id }]);
  // Fault cert-create-answers-chain-count: the answer's id is the number of chains the user now has.
  return sendId(reply, ctx.faults.on("cert-create-answers-chain-count") ? pinnedCount() : chain.id);
}

/** A PEM with CRLF line ends is a PEM certificate (RFC 7468); the fault's check knows LF line ends only. */
function crlfRefused(ctx: ReferenceContext, pem: string): boolean {
  // Variant cert-crlf-pem-refused (blind round 2, ruled open): an entry with a carriage return is taken for "not a PEM certificate".
  return ctx.variants.on("cert-crlf-pem-refused") && pem.includes("\r");
}

/** DELETE of an id nobody has is a 4XX (conventions §6); the fault reads the chain before the existence check. */
function crashOnUnknownId(ctx: ReferenceContext, chains: Collection<PinnedChain>, id: number): void {
  // Fault cert-delete-unknown-id-500: the audit line dereferences the chain found by id alone, which is undefined.
  if (ctx.faults.on("cert-delete-unknown-id-500")) void chains.getAny(id)!.certificates.length;
}

/**
 * DELETE of a chain that is not the caller's is refused (AUTH-019). Fault r3-cert-delete-foreign-answers-ok: the existence
 * check looks at every user's chains and the delete (scoped to the caller) removes nothing, yet the route answers 200.
 */
function foreignDeleteAnswered(ctx: ReferenceContext, chains: Collection<PinnedChain>, owner: number, id: number): boolean {
  return ctx.faults.on("r3-cert-delete-foreign-answers-ok") && !chains.get(owner, id) && chains.ownerOf(id) !== undefined;
}

/** The caller's chains, and only theirs (CERT-004). */
function listedChains(ctx: ReferenceContext, chains: Collection<PinnedChain>, userId: number): PinnedChain[] {
  if (!ctx.faults.on("cert-list-leaks-other-users")) return newestDropped(ctx, chains.list(userId));
  return [...ctx.state.users.keys()].flatMap((owner) => chains.list(owner));
}

/** The list holds every chain of the user (wire conventions §5); the fault's loop stops one short, before the newest. */
function newestDropped(ctx: ReferenceContext, owned: PinnedChain[]): PinnedChain[] {
  return ctx.faults.on("cert-list-misses-newest") ? owned.slice(0, -1) : owned;
}

/** List elements are the read form, certificate_chain included (CERT-004). */
function sendListed(ctx: ReferenceContext, reply: FastifyReply, page: Page<PinnedChain>): FastifyReply {
  if (ctx.faults.on("cert-list-ids-only"))
    return sendItems(
      reply,
      page.items.map((c) => ({ [CERTIFICATE_PINNED_TYPE_KEY]: { id: c.id } })),
      { Pagination: page.pagination },
    );
  // Fault r4-cert-list-chain-double-encoded: the list's mapper stores the chain through JSON.stringify and serialises it again.
  if (ctx.faults.on("r4-cert-list-chain-double-encoded"))
    return sendItems(
      reply,
      page.items.map((c) => {
        const shown = view(c, ctx);
        return { [CERTIFICATE_PINNED_TYPE_KEY]: { ...shown, certificate_chain: JSON.stringify(shown.certificate_chain) } };
      }),
      { Pagination: page.pagination },
    );
  // Fault r3-cert-list-first-certificate-only: the list shows each chain by its leaf certificate only (the read, the whole chain).
  const listed = ctx.faults.on("r3-cert-list-first-certificate-only")
    ? page.items.map((c) => ({ ...c, certificates: c.certificates.slice(0, 1) }))
    : page.items;
  // Fault r5-cert-list-elements-unwrapped: the list answers the spec table's bare {certificate_chain, id} objects, no type key.
  if (ctx.faults.on("r5-cert-list-elements-unwrapped"))
    return sendItems(
      reply,
      listed.map((c) => view(c, ctx)),
      { Pagination: page.pagination },
    );
  return sendChains(reply, listed, ctx, { Pagination: page.pagination });
}

/** GET item answers the read form, id an integer (spec: Pinned certificates); the fault echoes the path's itemId string. */
function sendChainRead(ctx: ReferenceContext, reply: FastifyReply, chain: PinnedChain, pathId: string): FastifyReply {
  if (!ctx.faults.on("cert-read-id-string")) return sendChains(reply, [chain], ctx);
  return sendItems(reply, [{ [CERTIFICATE_PINNED_TYPE_KEY]: { ...view(chain, ctx), id: pathId } }]);
}

/** The caller's chain of that id (AUTH-019); the fault serves any user's. */
function findChain(ctx: ReferenceContext, chains: Collection<PinnedChain>, userId: number, id: number): PinnedChain | undefined {
  return ctx.faults.on("cert-other-user-readable") ? chains.getAny(id) : chains.get(userId, id);
}

/** DELETE removes the caller's own chain (AUTH-019); the fault finds the chain's owner, whoever it is. */
function deletingOwner(ctx: ReferenceContext, chains: Collection<PinnedChain>, userId: number, id: number): number {
  return ctx.faults.on("cert-other-user-deletable") ? (chains.ownerOf(id) ?? userId) : userId;
}

/**
 * A deleted chain is gone from reads and the list (CERT-005, CERT-006, LENIENT since the blind ruling): the fault and
 * variant of "keeps" leave it pinned, those of "still listed" hide it from reads only ("keeps" first, so both show).
 */
function unpin(ctx: ReferenceContext, chains: Collection<PinnedChain>, hidden: Set<number>, owner: number, id: number): void {
  const { faults, variants } = ctx;
  if (faults.on("cert-delete-noop") || variants.on("cert-delete-keeps-chain")) return;
  if (faults.on("cert-deleted-still-listed") || variants.on("cert-deleted-chain-listed")) hidden.add(id);
  else chains.delete(owner, id);
}

/**
 * DELETE removes that chain only; the user's other chains keep every certificate they were pinned with. Fault
 * r5-cert-delete-cascades-shared-certificate: certificates are stored once per user and text (chains link to them), and the
 * delete removes the deleted chain's certificate rows too, so other chains that link the same certificate lose it.
 */
function sharedCertificatesRemoved(ctx: ReferenceContext, chains: Collection<PinnedChain>, owner: number, deleted: PinnedChain): void {
  if (!ctx.variants.on("r5-cert-delete-cascades-shared-certificate")) return;
  for (const other of chains.list(owner)) {
    if (other === deleted) continue;
    other.certificates = other.certificates.filter((certificate) => !deleted.certificates.includes(certificate));
  }
}

/**
 * A deleted chain is gone before the page is cut (conventions §5: the newest `count` items); the fault keeps it as a
 * soft-deleted row that the page query still counts and the mapper drops afterwards.
 */
function softDeleted(ctx: ReferenceContext, tombstones: Map<number, PinnedChain[]>, owner: number, chain: PinnedChain): void {
  // Fault r3-cert-list-deleted-counted-in-page: the row is flagged deleted, not removed, and the list filters it after paging.
  if (!ctx.faults.on("r3-cert-list-deleted-counted-in-page")) return;
  tombstones.set(owner, [...(tombstones.get(owner) ?? []), chain]);
}

/** The page without the soft-deleted chains (empty under every other configuration, so the page is unchanged). */
function withoutDeleted(page: Page<PinnedChain>, deleted: PinnedChain[]): Page<PinnedChain> {
  if (deleted.length === 0) return page;
  return { ...page, items: page.items.filter((c) => !deleted.includes(c)) };
}

/**
 * DELETE of an id that names no chain of the user is refused with an error body. Fault r4-cert-delete-unknown-id-404-no-body:
 * the delete answers "not found" with a bare reply.code(404).send(), so the 404 carries no body.
 */
function unknownChainDeleted(ctx: ReferenceContext, reply: FastifyReply): FastifyReply {
  if (ctx.faults.on("r4-cert-delete-unknown-id-404-no-body")) return reply.code(404).send();
  throw notTheirs(ctx);
}

/** DELETE answers {"Response": []} (ERR-010; wire conventions §1, the first reading). */
function sendDeleted(ctx: ReferenceContext, reply: FastifyReply): FastifyReply {
  if (ctx.faults.on("cert-delete-empty-body")) return reply.code(200).send();
  return sendItems(reply, []);
}
