// The faults and legal variant of versioning (reference/resources/versioning.ts): paths served without /v1, a
// deprecated endpoint retired, other version prefixes served.
import { fault } from "./fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "./variant-spec.js";

const SUITES = ["versioning"];

export const VERSIONING_FAULTS = [
  fault(
    "unversioned-paths-served",
    "ERR-007",
    "Every endpoint is also served without the /v1 prefix (/user/{userID}/card answers like /v1/user/{userID}/card).",
    SUITES,
  ),
  // VER-003 is LENIENT (blind ruling 2026-11-28): a retired deprecated endpoint fails only the strict profile.
  fault(
    "deprecated-share-invites-retired",
    "VER-003",
    "The deprecated share-invite endpoints answer 410 Gone.",
    [...SUITES, "share-invites"],
    {
      target: "reference-strict",
    },
  ),
] as const;

/**
 * Serving another version prefix is not forbidden (banking-api.md: "Policy for future versions ... not
 * shown"): a server that also runs a /v2 may answer there. VER-002 is LENIENT; strict requires a 4XX.
 */
export const VERSIONING_VARIANTS = [
  {
    name: "version-prefix-aliases",
    suites: VARIANT_SCOPE.versioning,
    description: "Any version prefix (/v2/..., /v0/...) is served as /v1, as by a server that runs several versions.",
    allowedBy: "Versioning: policy for future versions not shown (VER-002 LENIENT)",
    requirements: ["VER-002"],
  },
  {
    name: "deprecated-share-invites-gone",
    suites: VARIANT_SCOPE.shares,
    description: "The deprecated share-invite endpoints are retired: every call to them answers 410 Gone with an error body.",
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN); banking-api.md Versioning (retiring deprecated items: not shown)",
    requirements: ["VER-003"],
  },
] as const satisfies readonly VariantSpec[];
