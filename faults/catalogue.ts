// The catalogue: every fault and every legal variant, joined from the lists each area declares `as const` in a
// file of this folder. FaultName and VariantName are made from the same lists, so `ctx.faults.on("no-such-fault")`
// does not compile in reference/, and a name that compiles is one --fault accepts. The kill matrix plans from this
// catalogue and the CLI lists it; neither loads the reference server for that.
// A new list is one line here; the order below is the order `conformance faults` / `variants` print.
import {
  ATTACHMENT_FAULTS,
  ATTACHMENT_VARIANTS,
  IDEAL_FAULTS,
  IDEAL_VARIANTS,
  SHARE_INVITE_FAULTS,
  SHARE_INVITE_VARIANTS,
} from "./accounts.js";
import { AUTHENTICATION_FAULTS, AUTHENTICATION_VARIANTS, SANDBOX_USER_FAULTS } from "./auth.js";
import { CARD_FAULTS, CARD_REPLACEMENT_FAULTS, CARD_REPLACEMENT_VARIANTS, CARD_VARIANTS } from "./cards.js";
import { CATEGORY_FAULTS, CATEGORY_VARIANTS, COMPANY_FAULTS, COMPANY_VARIANTS } from "./companies.js";
import type { FaultSpec } from "./fault.js";
import { BLIND_ACCOUNTS_FAULTS } from "./blind/accounts.js";
import { BLIND_CARDS_FAULTS } from "./blind/cards.js";
import { BLIND_REQUESTS_FAULTS } from "./blind/requests.js";
import { BLIND_SECURITY_FAULTS } from "./blind/security.js";
import { BLIND2_AUTH_FAULTS, BLIND2_AUTH_VARIANTS } from "./blind/round2-auth.js";
import { BLIND2_CARDS_FAULTS } from "./blind/round2-cards.js";
import { BLIND2_COMPANIES_FAULTS, BLIND2_COMPANIES_VARIANTS } from "./blind/round2-companies.js";
import { BLIND2_ACCOUNTS_FAULTS, BLIND2_ACCOUNTS_VARIANTS } from "./blind/round2-accounts.js";
import { BLIND2_SECURITY_FAULTS, BLIND2_SECURITY_VARIANTS } from "./blind/round2-security.js";
import { BLIND2_REQUESTS_FAULTS, BLIND2_REQUESTS_VARIANTS } from "./blind/round2-requests.js";
import { BLIND3_READBACK_FAULTS, BLIND3_READBACK_VARIANTS } from "./blind/round3/readback.js";
import { BLIND3_AUTHZ_FAULTS, BLIND3_AUTHZ_VARIANTS } from "./blind/round3/authz.js";
import { BLIND3_SECRETS_FAULTS, BLIND3_SECRETS_VARIANTS } from "./blind/round3/secrets.js";
import { BLIND3_LISTS_FAULTS, BLIND3_LISTS_VARIANTS } from "./blind/round3/lists.js";
import { BLIND3_SESSION_FAULTS, BLIND3_SESSION_VARIANTS } from "./blind/round3/session.js";
import { BLIND3_REFUSED_FAULTS, BLIND3_REFUSED_VARIANTS } from "./blind/round3/refused.js";
import { BLIND4_STATE_FAULTS, BLIND4_STATE_VARIANTS } from "./blind/round4/state.js";
import { BLIND4_LESSER_FAULTS, BLIND4_LESSER_VARIANTS } from "./blind/round4/lesser.js";
import { BLIND4_VALIDATION_FAULTS, BLIND4_VALIDATION_VARIANTS } from "./blind/round4/validation.js";
import { BLIND4_ENCODING_FAULTS, BLIND4_ENCODING_VARIANTS } from "./blind/round4/encoding.js";
import { BLIND4_LIFECYCLE_FAULTS, BLIND4_LIFECYCLE_VARIANTS } from "./blind/round4/lifecycle.js";
import { BLIND4_ERRORS_FAULTS } from "./blind/round4/errors.js";
import { BLIND5_NUMBERS_FAULTS, BLIND5_NUMBERS_VARIANTS } from "./blind/round5/numbers.js";
import { BLIND5_LINKS_FAULTS, BLIND5_LINKS_VARIANTS } from "./blind/round5/links.js";
import { BLIND5_REPEAT_FAULTS, BLIND5_REPEAT_VARIANTS } from "./blind/round5/repeat.js";
import { BLIND5_ABSENCE_FAULTS, BLIND5_ABSENCE_VARIANTS } from "./blind/round5/absence.js";
import { BLIND5_CONVENTIONS_FAULTS } from "./blind/round5/conventions.js";
import { BLIND5_TIME_FAULTS, BLIND5_TIME_VARIANTS } from "./blind/round5/time.js";
import { BLIND6_ACCOUNTS_FAULTS, BLIND6_ACCOUNTS_VARIANTS } from "./blind/round6/accounts.js";
import { BLIND6_AUTH_FAULTS, BLIND6_AUTH_VARIANTS } from "./blind/round6/auth.js";
import { BLIND6_COMPANIES_FAULTS, BLIND6_COMPANIES_VARIANTS } from "./blind/round6/companies.js";
import { BLIND6_CROSSCUT_FAULTS } from "./blind/round6/crosscut.js";
import { BLIND6_SECURITY_FAULTS, BLIND6_SECURITY_VARIANTS } from "./blind/round6/security.js";
import { BLIND6_CARDS_FAULTS, BLIND6_CARDS_VARIANTS } from "./blind/round6/cards.js";
import { FEATURE_ANNOUNCEMENT_FAULTS } from "./feature-announcements.js";
import { AUTH_HOOK_FAULTS, ENCRYPTION_FAULTS, ERROR_FAULTS, PAGINATION_FAULTS, SIGNING_FAULTS } from "./requests.js";
import {
  CALLBACK_URL_FAULTS,
  CALLBACK_URL_VARIANTS,
  CERTIFICATE_PINNED_FAULTS,
  CERTIFICATE_PINNED_VARIANTS,
  CHALLENGE_FAULTS,
  CHALLENGE_VARIANTS,
} from "./security.js";
import type { VariantSpec } from "./variant-spec.js";
import { STRICT_ONLY_TWIN_FAULTS, STRICT_ONLY_TWIN_FAULTS_ROUND6, STRICT_ONLY_TWIN_VARIANTS } from "./blind/strict-only-twins.js";
import { VARIANTS } from "./variants.js";
import { VERSIONING_FAULTS, VERSIONING_VARIANTS } from "./versioning.js";

/** The fault lists: the request layers first, then the resources in the order of reference/resources/index.ts. */
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
  BLIND_REQUESTS_FAULTS,
  BLIND_CARDS_FAULTS,
  BLIND_ACCOUNTS_FAULTS,
  BLIND_SECURITY_FAULTS,
  BLIND2_AUTH_FAULTS,
  BLIND2_CARDS_FAULTS,
  BLIND2_COMPANIES_FAULTS,
  BLIND2_ACCOUNTS_FAULTS,
  BLIND2_SECURITY_FAULTS,
  BLIND2_REQUESTS_FAULTS,
  BLIND3_READBACK_FAULTS,
  BLIND3_AUTHZ_FAULTS,
  BLIND3_SECRETS_FAULTS,
  BLIND3_LISTS_FAULTS,
  BLIND3_SESSION_FAULTS,
  BLIND3_REFUSED_FAULTS,
  BLIND4_STATE_FAULTS,
  BLIND4_LESSER_FAULTS,
  BLIND4_VALIDATION_FAULTS,
  BLIND4_ENCODING_FAULTS,
  BLIND4_LIFECYCLE_FAULTS,
  BLIND4_ERRORS_FAULTS,
  BLIND5_NUMBERS_FAULTS,
  BLIND5_LINKS_FAULTS,
  BLIND5_REPEAT_FAULTS,
  BLIND5_ABSENCE_FAULTS,
  BLIND5_CONVENTIONS_FAULTS,
  BLIND5_TIME_FAULTS,
  STRICT_ONLY_TWIN_FAULTS,
  BLIND6_ACCOUNTS_FAULTS,
  BLIND6_AUTH_FAULTS,
  BLIND6_COMPANIES_FAULTS,
  BLIND6_CROSSCUT_FAULTS,
  BLIND6_SECURITY_FAULTS,
  BLIND6_CARDS_FAULTS,
  STRICT_ONLY_TWIN_FAULTS_ROUND6,
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
  CALLBACK_URL_VARIANTS,
  CHALLENGE_VARIANTS,
  SHARE_INVITE_VARIANTS,
  IDEAL_VARIANTS,
  CATEGORY_VARIANTS,
  VERSIONING_VARIANTS,
  BLIND2_ACCOUNTS_VARIANTS,
  BLIND2_AUTH_VARIANTS,
  BLIND2_COMPANIES_VARIANTS,
  BLIND2_REQUESTS_VARIANTS,
  BLIND2_SECURITY_VARIANTS,
  BLIND3_READBACK_VARIANTS,
  BLIND3_AUTHZ_VARIANTS,
  BLIND3_SECRETS_VARIANTS,
  BLIND3_LISTS_VARIANTS,
  BLIND3_SESSION_VARIANTS,
  BLIND3_REFUSED_VARIANTS,
  BLIND4_STATE_VARIANTS,
  BLIND4_LESSER_VARIANTS,
  BLIND4_VALIDATION_VARIANTS,
  BLIND4_ENCODING_VARIANTS,
  BLIND4_LIFECYCLE_VARIANTS,
  STRICT_ONLY_TWIN_VARIANTS,
  BLIND5_NUMBERS_VARIANTS,
  BLIND5_TIME_VARIANTS,
  BLIND5_LINKS_VARIANTS,
  BLIND5_REPEAT_VARIANTS,
  BLIND5_ABSENCE_VARIANTS,
  BLIND6_ACCOUNTS_VARIANTS,
  BLIND6_AUTH_VARIANTS,
  BLIND6_COMPANIES_VARIANTS,
  BLIND6_SECURITY_VARIANTS,
  BLIND6_CARDS_VARIANTS,
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
