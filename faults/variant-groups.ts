import type { VariantSpec } from "./variant-spec.js";

/**
 * The kill matrix runs legal variants in groups: one reference server with several variants on, and the suites
 * any of them can change. A conformant server may combine legal behaviours, so a group that passes clears each
 * member; a group that fails is run again member by member to say which one (cli/commands/kill-matrix.ts). Twelve groups
 * cost what seventy single runs did.
 *
 * Two variants share a group only where neither hides the other: test/variants.test.ts proves, for every group
 * made here, that each member's probe still finds its mark with the others on. Pairs that play the same seam
 * differently (two status tables for one refusal, two id schemes) are listed here and kept apart.
 */
// Found by probing every pair with both on (the probe of one no longer finds its mark). Most share a seam: two
// status tables for one refusal, two id schemes, two "future_url" rules; primary-without-cards empties the list
// other probes read.
const VARIANT_CONFLICTS: readonly (readonly [string, string])[] = [
  ["ids-large", "ids-per-user"],
  ["ids-large", "ids-per-user-per-resource"],
  ["ids-per-user", "primary-without-cards"],
  ["announcements-same-for-everyone", "sparse-optional-fields"],
  ["other-4xx-statuses", "4xx-per-endpoint"],
  ["other-4xx-statuses", "4xx-per-endpoint-mirror"],
  ["other-4xx-statuses", "auth-refusals-403"],
  ["other-4xx-statuses", "auth-token-refusals-400"],
  ["other-4xx-statuses", "client-signature-checked-when-sent"],
  ["4xx-per-endpoint", "4xx-per-endpoint-mirror"],
  ["4xx-per-endpoint", "auth-refusals-403"],
  ["4xx-per-endpoint-mirror", "auth-refusals-403"],
  ["extra-fields", "primary-without-cards"],
  ["timestamps-iso-8601", "primary-without-cards"],
  ["pages-descending", "primary-without-cards"],
  ["future-url-null", "future-url-every-page"],
  ["future-url-every-page", "primary-without-cards"],
  ["delete-answers-empty-object", "delete-answers-typed-element"],
  ["page-links-always-count", "primary-without-cards"],
  ["page-links-params-swapped", "primary-without-cards"],
  ["primary-without-cards", "ids-per-user-per-resource"],
  ["replace-issues-new-card", "replace-new-card-answers-old-id"],
  ["card-country-permission-merged", "card-limits-refused"],
  ["company-provider-body-rules", "company-category-refusal-codes"],
  // With any type taken, the refused PUT whose url the other writes is never refused.
  ["callback-url-put-url-any-type", "callback-url-refused-put-writes-url"],
  // An unknown id answered 200 with nothing hides the refusal codes the others play on the same reads.
  ["unknown-item-read-empty", "other-4xx-statuses"],
  ["unknown-item-read-empty", "4xx-per-endpoint"],
  ["unknown-item-read-empty", "4xx-per-endpoint-mirror"],
  ["unknown-item-read-empty", "errors-two-elements"],
  ["unknown-item-read-empty", "error-text-names-request"],
  ["unknown-item-read-empty", "company-category-refusal-codes"],
  ["unknown-item-read-empty", "resource-refusal-codes"],
  // Retired share invites leave nothing for the share variants to answer.
  ["deprecated-share-invites-gone", "share-answered-moves-refused"],
  ["deprecated-share-invites-gone", "share-pending-invites"],
  ["deprecated-share-invites-gone", "share-card-id-checked-after-status"],
  ["client-signature-presence-only", "client-signature-checked-when-sent"],
  ["auth-header-canonical-case-only", "put-answers-object"],
  ["auth-header-canonical-case-only", "version-prefix-aliases"],
  ["geolocation-header-required", "other-4xx-statuses"],
  // A wrong-typed name is taken, so the refusal-codes probe's refused create is not refused.
  ["company-scalars-coerced", "company-category-refusal-codes"],
  // Country not shown: the kept country cannot be seen.
  ["company-read-form-sparse", "company-country-kept-on-put"],
  // Encryption not taken at all leaves no HMAC to leave unchecked.
  ["card-encryption-unsupported", "card-encryption-hmac-unchecked"],
  // Refusals answered 400 and an unknown id replacing the first card play the same refused replace.
  ["replace-refusals-400", "replace-unknown-id-replaces-first-card"],
  ["auth-refusals-403", "auth-token-refusals-400"],
  ["session-token-per-device", "new-session-ends-previous"],
  ["new-session-ends-previous", "client-signature-checked-when-sent"],
  ["company-category-refusal-codes", "category-status-enabled-disabled"],
  // Item read and list both hide a new callback URL: its dropped query shows nowhere.
  ["callback-url-item-read-first-of-client", "callback-url-query-dropped"],
  // The sparse read form leaves address_postal and ubo out: the copied main address and the one UBO show nowhere.
  ["company-read-form-sparse", "company-read-postal-shows-main"],
  ["company-read-form-sparse", "company-ubo-first-only"],
  ["deprecated-share-invites-gone", "share-invite-card-id-digit-string-accepted"],
  ["deprecated-share-invites-gone", "share-invite-read-cached"],
  // A list of the seeded URLs only never shows a new URL in its normalised form.
  ["callback-url-list-seeded-only", "r3-callback-url-list-url-normalised"],
  // Every DELETE removes the caller's URL of that id before the client check, so no delete keeps the URL.
  ["callback-url-delete-keeps-url", "r3-callback-url-delete-other-client-removes"],
  // Texts written before the name check are written on every replace, so a replace that ignores them still shows them.
  ["replace-ignores-texts", "r3-replace-refused-name-applies-texts"],
  // Retired share invites leave no share to send a card_id to or to read.
  ["deprecated-share-invites-gone", "r4-share-card-id-any-number"],
  ["deprecated-share-invites-gone", "r4-share-invite-read-account-omitted"],
  ["deprecated-share-invites-gone", "r4-share-rejected-put-ignored-noted"],
  ["deprecated-share-invites-gone", "r6-share-read-without-share-type"],
  // A replace that makes a new card and answers the old id leaves the old card as it was: no changed expiry or number to see.
  ["replace-new-card-answers-old-id", "r3-card-list-old-number-after-replace-noted"],
  ["replace-new-card-answers-old-id", "r4-replace-expiry-as-mm-yy-noted"],
  // The sparse read drops the attachment urls, the stamps and the avatar: what these variants change shows nowhere.
  ["sparse-optional-fields", "r3-attachment-url-carries-session-token"],
  ["sparse-optional-fields", "r5-attachment-stamped-local-time"],
  ["sparse-optional-fields", "r5-feature-announcement-promotion-avatar-null"],
  // The PROMOTION announcement reads 404, so its avatar shows nowhere.
  ["r4-feature-announcement-promotion-not-found-noted", "r5-feature-announcement-promotion-avatar-null"],
  // Limits refused, a PUT that keeps the url, a first activation refused, texts ignored: the other's change is never made.
  ["card-limits-refused", "r5-card-limit-cents-floored"],
  ["callback-url-put-keeps-url", "r5-callback-url-put-updated-iso"],
  ["card-activation-refused-before-delivery", "r5-card-activation-retry-refused"],
  ["replace-ignores-texts", "r5-replace-omitted-texts-cleared"],
  // A card id taken as a fallback account shows only where ids are unique across the server.
  ["ids-per-user", "r5-card-fallback-any-owned-id"],
  ["ids-per-user-per-resource", "r5-card-fallback-any-owned-id"],
  // Moves out of an answered share refused: the PUT on a REJECTED share is refused, not answered 200.
  ["share-answered-moves-refused", "r4-share-rejected-put-ignored-noted"],
  // A name outside ASCII is refused, so no company shows one in ISO-8859-1.
  ["company-name-non-ascii-refused", "r4-company-read-latin1-body"],
];

/** Variants in one group at most: a failing group costs one rerun per member. */
const VARIANT_GROUP_SIZE = 8;

const conflict = (a: string, b: string) => VARIANT_CONFLICTS.some(([x, y]) => (x === a && y === b) || (x === b && y === a));

/**
 * The groups: variants that reach every suite first, then the scoped ones by scope (so a group's suites stay
 * few); each variant joins the first group with room that holds no variant it conflicts with.
 */
export function variantGroups(variants: readonly VariantSpec[], size = VARIANT_GROUP_SIZE): VariantSpec[][] {
  const scope = (v: VariantSpec) => (v.suites === undefined ? "" : [...v.suites].sort().join(","));
  const ordered = [...variants].sort((a, b) => scope(a).localeCompare(scope(b)));
  const groups: VariantSpec[][] = [];
  for (const variant of ordered) {
    const home = groups.find(
      (g) =>
        g.length < size && (scope(g[0]!) === "") === (scope(variant) === "") && g.every((member) => !conflict(member.name, variant.name)),
    );
    if (home) home.push(variant);
    else groups.push([variant]);
  }
  return groups;
}

/** The suites a group runs: every suite when a member names none, else the union of theirs. */
export function groupSuites(group: readonly VariantSpec[]): string[] | undefined {
  if (group.some((v) => v.suites === undefined)) return undefined;
  return [...new Set(group.flatMap((v) => v.suites ?? []))].sort();
}

/** The vitest project of a group (or of one variant alone): "variant:<name>+<name>…". */
export const variantProject = (names: readonly string[]) => `variant:${names.join("+")}`;
