// Blind round 2 (faults/blind-rounds.md): faults written by an author who read only spec/, reference/ and faults/,
// never the suites or the requirement catalogue. Each entry's comment quotes the sentence of spec/banking-api.md or
// spec/wire-conventions.md it breaks. The requirement and the suites are mapped after the first run.
import { fault, FRESH_USERS } from "../fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "../variant-spec.js";

export const BLIND2_COMPANIES_FAULTS = [
  // banking-api.md, Endpoints > Companies: "The sample body additionally carries address_main and address_postal (Address,
  // request form), ubo (array of UBO), vat_number (VatNumber) and vat_numbers (array of VatNumber)."
  fault(
    "company-empty-ubo-500",
    "ERR-003",
    "POST company with an empty ubo array crashes with a 500 (the handler reads ubo[0] unchecked).",
    ["error-bodies"],
    FRESH_USERS,
  ),
  // banking-api.md, Shared objects: "| Amount | value (string), currency (string) |"
  fault(
    "company-daily-limit-value-number",
    "COMP-001",
    "The company read form answers daily_limit_without_confirmation_login.value as the number 250 instead of a string.",
    ["companies"],
  ),
  // banking-api.md, Endpoints > User-defined transaction categories: "| POST | /user/{userID}/additional-transaction-
  // information-category-user-defined
  // | {category, description, color, icon: optional strings; status: required string, whether the category is active} |
  // {Id: {id: integer}} |"
  fault(
    "category-color-non-hex-500",
    "ERR-003",
    'POST category with a color that is not a #RRGGBB hex code ("blue") crashes with a 500.',
    ["error-bodies"],
    FRESH_USERS,
  ),
  // banking-api.md, Endpoints > Common request rules: "Successful responses are HTTP 200 with application/json."
  fault("category-create-answers-201", "CAT-001", "POST category answers its Id with HTTP 201 instead of 200.", ["categories"]),
] as const;

/** Faults of this round that both blind readers (or one) ruled a legal reading: legal variants, which the suite must pass. */
export const BLIND2_COMPANIES_VARIANTS = [
  // banking-api.md, Company table: "| address_main, address_postal, address_shipping | Address (response) |"
  {
    name: "company-read-postal-shows-main",
    description:
      "The company read form answers address_main under address_postal too (a copy-pasted serialiser line): the" +
      " postal address sent is never shown.",
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Endpoints > Companies: "| GET | /user/{userID}/company | none | array of {UserCompany: Company} |"
  {
    name: "company-list-cached-view",
    description:
      "The company list serves each company as it was when first listed (a view cache PUT never clears), while " +
      "the item read shows the update.",
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Company table: "| ubo | array of UBO |"
  {
    name: "company-ubo-first-only",
    description: "The company read form keeps only the first UBO of the ubo array the company was created with.",
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Shared objects: "| Address (request) | street, house_number, po_box, postal_code, city, country,
  // extra, mailbox_name (all string) |"
  {
    name: "company-address-street-required",
    description: "POST company refuses (400) an address without street, such as a PO-box address, though every Address member is optional.",
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Endpoints > Companies, Company body: "| name | string | yes |"
  {
    name: "company-name-non-ascii-refused",
    description: 'POST company refuses (400) a name with characters outside printable ASCII ("Café Müller BV").',
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.companies,
  },
  // banking-api.md, Endpoints > User-defined transaction categories: "| POST | ... | {category, description, color, icon: optional
  // strings; status: required string, whether the category is active} | {Id: {id: integer}} |"
  {
    name: "category-duplicate-name-refused",
    description: "POST category refuses (400) a second category with the same category name as one the user already has.",
    allowedBy: "blind round 2: both readers OPEN on whether a sentence forbids it (faults/blind-rounds.md)",
    suites: VARIANT_SCOPE.categories,
  },
] as const satisfies readonly VariantSpec[];
