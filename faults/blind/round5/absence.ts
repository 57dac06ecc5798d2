// Blind round 5 (bug shape: absence): faults written by an author who read only spec/, reference/ and faults/.
import { fault } from "../../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../../variant-spec.js";

export const BLIND5_ABSENCE_FAULTS = [
  // banking-api.md, Endpoints > Share invites: "| PUT | /user/{userID}/share-invite-monetary-account-response/{itemId} |
  // {status (optional), card_id (optional, write-only)} | see gap list |"; Resources > Share invite: "| status | string |
  // read/write | ACTIVE, REVOKED, REJECTED |"
  fault(
    "r5-share-put-without-status-clears-status",
    "SHARE-011",
    "A share-invite PUT without status (card_id alone, or {}) answers the share's Id but stores its status as null, so the " +
      "later read and the list show status null.",
    ["share-invites"],
  ),
  // wire-conventions.md §2: "challenge requests: any single type key whose object has a string `status`."
  fault(
    "r5-challenge-unanswered-status-null",
    "CHAL-004",
    "GET challenge-request/{itemId} of a request not yet answered shows status null (only the two answer values are shown); " +
      "after a PUT the status set is shown.",
    ["challenge-requests"],
  ),
  // banking-api.md, Endpoints > OAuth client callback URLs: "| DELETE |
  // /user/{userID}/oauth-client/{oauth-clientID}/callback-url/{itemId} | none | object of type OauthCallbackUrlDelete |"
  fault(
    "r5-callback-url-delete-answers-null",
    "OCB-005",
    'DELETE callback-url/{itemId} removes the URL but answers {"Response": [{"OauthCallbackUrlDelete": null}]}: null where ' +
      "an (empty) object is meant.",
    ["oauth-callback-urls"],
  ),
] as const;

/** Faults of this round that the blind readers did not both rule stated: legal variants, which the suite must pass. */
export const BLIND5_ABSENCE_VARIANTS = [
  // banking-api.md, Endpoints > Cards: "| monetary_account_id_fallback | integer | optional | account used when balance is
  // insufficient; the fallback is removed when not supplied |"
  {
    name: "r5-card-fallback-null-kept",
    description:
      "A card PUT that sends monetary_account_id_fallback as null keeps the card's fallback account (null members are skipped " +
      "as in a partial update), while a PUT that leaves the field out removes it.",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.cards,
  },
  // banking-api.md, Endpoints > Card replacement: "| POST | /user/{userID}/card/{cardID}/replace | {name_on_card,
  // preferred_name_on_card, second_line}, all optional strings | see gap list |"
  {
    name: "r5-replace-omitted-texts-cleared",
    description:
      "POST /card/{cardID}/replace that does not send preferred_name_on_card or second_line clears them on the card: both read " +
      'back as "" (the texts sent are applied as they should be).',
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.replacement,
  },
  // banking-api.md, Endpoints > Companies: "Company body (write-only fields):" (subscription_type, avatar_uuid and
  // signup_track_type are not in the Company response table)
  {
    name: "r5-company-null-write-only-fields",
    description:
      "A company created without avatar_uuid or signup_track_type shows those write-only fields as null in GET company and " +
      "GET company/{itemId}.",
    requirements: ["COMP-019"],
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Endpoints > User-defined transaction categories: "{category, description, color, icon: optional strings;
  // status: required string, whether the category is active}"
  {
    name: "r5-category-empty-optional-refused",
    description:
      'POST category refuses with 400 a body whose category, description, color or icon is the empty string "" ' +
      "(the optional fields get the non-empty rule of status); leaving them out still works.",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.categories,
  },
  // banking-api.md, Endpoints > Attachments: "header X-Service-Attachment-Description (required) carries the description"
  {
    name: "r5-attachment-empty-description-accepted",
    description:
      'An upload whose Attachment-Description header is sent empty (or blank) is accepted and reads back with description ""; ' +
      "only an upload without the header is refused.",
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.attachments,
  },
  // banking-api.md, Resources > Feature announcement: "| avatar | Avatar |"; Shared objects: "| Avatar | uuid, anchor_uuid,
  // style (string); image: array of {...} |"
  {
    name: "r5-feature-announcement-promotion-avatar-null",
    description:
      "GET feature-announcement/{itemId} of an announcement of type PROMOTION answers avatar null; FEATURE announcements show " +
      "their avatar.",
    requirements: ["FEAT-005"],
    allowedBy: "blind round 5: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.announcements,
  },
  // banking-api.md, Endpoints > Common request rules: "| X-Service-Language | optional | language code (ISO 639-1), underscore,
  // country code (ISO 3166-1 alpha-2); only en_US and nl_NL are supported; anything else defaults to en_US |";
  // wire-conventions.md §1: "`error_description_translated` follows `X-Service-Language`."
  {
    name: "r5-error-translated-empty-without-language",
    description:
      'An error answered to a call without an X-Service-Language header carries error_description_translated "" instead of ' +
      "the en_US text.",
    requirements: ["HDR-019"],
    allowedBy: "blind round 5: the readers split (certifier STATED, vendor OPEN) on whether a sentence forbids it (faults/blind-rounds.md)",
  },
] as const satisfies readonly VariantSpec[];
