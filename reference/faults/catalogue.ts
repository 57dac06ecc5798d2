// The reference server's catalogue: every fault and every legal variant, joined from the lists each module
// declares `as const` beside the code they switch. FaultName and VariantName are made from the same lists,
// so `ctx.faults.on("no-such-fault")` does not compile, and a name that compiles is one --fault accepts.
// A new list is one line here; the order below is the order `conformance faults` / `variants` print.
import { AUTH_HOOK_FAULTS } from "../auth-hook.js";
import { ENCRYPTION_FAULTS } from "../encryption.js";
import { ERROR_FAULTS } from "../errors.js";
import type { FaultSpec } from "./faults.js";
import { PAGINATION_FAULTS } from "../pagination.js";
import { ATTACHMENT_FAULTS, ATTACHMENT_VARIANTS } from "../resources/attachments.js";
import { AUTHENTICATION_FAULTS, AUTHENTICATION_VARIANTS } from "../resources/authentication.js";
import { CARD_REPLACEMENT_FAULTS, CARD_REPLACEMENT_VARIANTS } from "../resources/card-replacement.js";
import { CARD_FAULTS, CARD_VARIANTS } from "../resources/cards.js";
import { CATEGORY_FAULTS, CATEGORY_VARIANTS } from "../resources/categories.js";
import { CERTIFICATE_PINNED_FAULTS, CERTIFICATE_PINNED_VARIANTS } from "../resources/certificate-pinned.js";
import { CHALLENGE_FAULTS } from "../resources/challenge-requests.js";
import { COMPANY_FAULTS, COMPANY_VARIANTS } from "../resources/companies.js";
import { FEATURE_ANNOUNCEMENT_FAULTS } from "../resources/feature-announcements.js";
import { IDEAL_FAULTS } from "../resources/ideal.js";
import { CALLBACK_URL_FAULTS } from "../resources/oauth-callback-urls.js";
import { SANDBOX_USER_FAULTS } from "../resources/sandbox-user.js";
import { SHARE_INVITE_FAULTS, SHARE_INVITE_VARIANTS } from "../resources/share-invites.js";
import { VERSIONING_FAULTS, VERSIONING_VARIANTS } from "../resources/versioning.js";
import { SIGNING_FAULTS } from "../signing.js";
import type { VariantSpec } from "./variant-spec.js";
import { VARIANTS } from "../variants.js";

/** The fault lists: the request layers first, then the resources in the order of resources/index.ts. */
const FAULT_LISTS = [
  AUTH_HOOK_FAULTS,
  ERROR_FAULTS,
  PAGINATION_FAULTS,
  SIGNING_FAULTS,
  ENCRYPTION_FAULTS,
  AUTHENTICATION_FAULTS,
  SANDBOX_USER_FAULTS,
  CARD_FAULTS,
  CARD_REPLACEMENT_FAULTS,
  COMPANY_FAULTS,
  ATTACHMENT_FAULTS,
  CERTIFICATE_PINNED_FAULTS,
  CALLBACK_URL_FAULTS,
  SHARE_INVITE_FAULTS,
  CATEGORY_FAULTS,
  CHALLENGE_FAULTS,
  FEATURE_ANNOUNCEMENT_FAULTS,
  IDEAL_FAULTS,
  VERSIONING_FAULTS,
] as const;

/** The variant lists: the cross-cutting ones (variants.ts) first, then the resources'. */
const VARIANT_LISTS = [
  VARIANTS,
  AUTHENTICATION_VARIANTS,
  CARD_VARIANTS,
  CARD_REPLACEMENT_VARIANTS,
  COMPANY_VARIANTS,
  ATTACHMENT_VARIANTS,
  CERTIFICATE_PINNED_VARIANTS,
  SHARE_INVITE_VARIANTS,
  CATEGORY_VARIANTS,
  VERSIONING_VARIANTS,
] as const;

/** Every fault name: the only strings `ctx.faults.on()` takes. */
export type FaultName = (typeof FAULT_LISTS)[number][number]["name"];
/** Every legal variant name: the only strings `ctx.variants.on()` takes. */
export type VariantName = (typeof VARIANT_LISTS)[number][number]["name"];

// Guards: a list declared without `as const` (or typed FaultSpec[]) would widen a union to string, and
// every typo would compile again. These lines stop compiling when that happens.
type Literal<T extends string> = string extends T ? false : true;
const faultNamesAreLiterals: Literal<FaultName> = true;
const variantNamesAreLiterals: Literal<VariantName> = true;
void faultNamesAreLiterals;
void variantNamesAreLiterals;

/** Every fault the reference server can switch on, with the requirement it breaks. */
export function faultCatalogue(): FaultSpec[] {
  return FAULT_LISTS.flatMap((list): FaultSpec[] => [...list]);
}

/** Every legal variant the reference server can switch on (the kill matrix requires the suite to pass each one). */
export function variantCatalogue(): VariantSpec[] {
  return VARIANT_LISTS.flatMap((list): VariantSpec[] => [...list]);
}
