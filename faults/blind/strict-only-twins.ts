// The strict-only faults of blind rounds 3 and 4, played as legal variants: the readers found no sentence that forbids
// the behaviour (faults/blind-rounds.md), so the default profile must pass it, as the strict profile must fail the fault.
// And the other way round for the noted readings of rounds 5 and 6: legal variants, played by strict-only faults.
import { fault, STRICT_ONLY } from "../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../variant-spec.js";

const twin = <Plays extends string>(
  plays: Plays,
  requirement: string,
  description: string,
  suites: readonly string[],
): VariantSpec & { name: `${Plays}-noted` } => ({
  name: `${plays}-noted`,
  description,
  allowedBy: `blind rounds 3 and 4: the readers found no sentence that forbids it (faults/blind-rounds.md, ${requirement})`,
  requirements: [requirement],
  suites,
  plays,
});

export const STRICT_ONLY_TWIN_VARIANTS = [
  twin(
    "r3-cert-delete-foreign-answers-ok",
    "AUTH-025",
    "A DELETE of another user's pinned chain under the caller's own userID answers 200 and deletes nothing.",
    VARIANT_SCOPE.certificates,
  ),
  twin(
    "r3-card-list-old-number-after-replace",
    "REPL-018",
    "After a replacement the card list keeps showing the card's first card number; the read by id shows the new one.",
    VARIANT_SCOPE.replacement,
  ),
  twin(
    "r4-replace-expiry-as-mm-yy",
    "REPL-019",
    'A replacement reads its expiry date as MM/YY ("12/29") where the old card read "2029-12-31".',
    VARIANT_SCOPE.replacement,
  ),
  twin(
    "r4-share-rejected-put-ignored",
    "SHARE-014",
    "A share PUT on a REJECTED share answers 200 with its Id and leaves the share REJECTED.",
    VARIANT_SCOPE.shares,
  ),
  twin(
    "r4-feature-announcement-promotion-not-found",
    "FEAT-004",
    "GET feature-announcement/{itemId} answers 404 for the user's PROMOTION announcement; FEATURE ones read.",
    VARIANT_SCOPE.announcements,
  ),
  twin(
    "r4-callback-url-put-reissues-id",
    "OCB-004",
    "A callback-URL PUT stores the URL under a new id and removes the old one: the id it named then answers 404.",
    VARIANT_SCOPE.resources,
  ),
] as const;

/** Round 5's noted readings (legal variants of faults/blind/round5/absence.ts), which the strict profile must fail. */
export const STRICT_ONLY_TWIN_FAULTS = [
  fault(
    "r5-company-null-write-only-fields-strict",
    "COMP-019",
    "Companies show avatar_uuid and signup_track_type as null (variant r5-company-null-write-only-fields), judged strictly.",
    ["companies"],
    { ...STRICT_ONLY, plays: "r5-company-null-write-only-fields" },
  ),
  fault(
    "r5-feature-announcement-promotion-avatar-null-strict",
    "FEAT-005",
    "A PROMOTION announcement answers avatar null (variant r5-feature-announcement-promotion-avatar-null), judged strictly.",
    ["feature-announcements"],
    { ...STRICT_ONLY, plays: "r5-feature-announcement-promotion-avatar-null" },
  ),
  fault(
    "r5-error-translated-empty-without-language-strict",
    "HDR-019",
    "An error without X-Service-Language has an empty translated text (variant r5-error-translated-empty-without-language), " +
      "judged strictly.",
    ["headers"],
    { ...STRICT_ONLY, plays: "r5-error-translated-empty-without-language" },
  ),
] as const;

/** Round 6's noted readings (legal variants of faults/blind/round6/*.ts), which the strict profile must fail. */
export const STRICT_ONLY_TWIN_FAULTS_ROUND6 = [
  // Round 5's re-pin reading, asked again in round 6 as CERT-012's own case (both OPEN): noted under CERT-012, not CERT-002.
  fault(
    "r5-cert-repin-answers-deleted-id-strict",
    "CERT-012",
    "A chain pinned again after its deletion is answered with the deleted chain's id and nothing is pinned (variant " +
      "r5-cert-repin-answers-deleted-id), judged strictly.",
    ["certificate-pinned"],
    { ...STRICT_ONLY, plays: "r5-cert-repin-answers-deleted-id" },
  ),
  fault(
    "r6-feature-announcement-gone-after-first-read-strict",
    "FEAT-006",
    "An announcement read once answers 404 on every later read (variant r6-feature-announcement-gone-after-first-read), " +
      "judged strictly.",
    ["feature-announcements"],
    { ...STRICT_ONLY, plays: "r6-feature-announcement-gone-after-first-read" },
  ),
  fault(
    "r6-request-id-header-exact-case-only-strict",
    "HDR-016",
    "A request id sent under the header name in lower case is neither remembered nor echoed (variant " +
      "r6-request-id-header-exact-case-only), judged strictly.",
    ["headers"],
    { ...STRICT_ONLY, plays: "r6-request-id-header-exact-case-only" },
  ),
  fault(
    "r6-company-put-answers-user-id-strict",
    "COMP-020",
    "A company PUT answers the path's userID as its Id (variant r6-company-put-answers-user-id), judged strictly.",
    ["companies"],
    { ...STRICT_ONLY, plays: "r6-company-put-answers-user-id" },
  ),
  fault(
    "r6-company-read-cached-before-put-strict",
    "COMP-021",
    "A company's read by id still shows it as it was before a PUT the list shows (variant r6-company-read-cached-before-put), " +
      "judged strictly.",
    ["companies"],
    { ...STRICT_ONLY, plays: "r6-company-read-cached-before-put" },
  ),
  fault(
    "r6-callback-url-delete-removes-oldest-strict",
    "OCB-012",
    "A callback-URL DELETE removes the client's oldest URL instead of the one named (variant r6-callback-url-delete-removes-oldest), " +
      "judged strictly.",
    ["oauth-callback-urls"],
    { ...STRICT_ONLY, plays: "r6-callback-url-delete-removes-oldest" },
  ),
] as const;
