// The strict-only faults of blind rounds 3 and 4, played as legal variants: the readers found no sentence that forbids
// the behaviour (faults/blind-rounds.md), so the default profile must pass it, as the strict profile must fail the fault.
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
