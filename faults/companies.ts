// The faults and legal variants of companies and user-defined transaction categories (reference/resources/companies/).
import { fault, STRICT_ONLY } from "./fault.js";
import { VARIANT_SCOPE, type VariantSpec } from "./variant-spec.js";

const COMPANIES = ["companies"];

export const COMPANY_FAULTS = [
  fault("company-create-answers-company", "COMP-001", "POST company answers the created UserCompany instead of Id.", COMPANIES),
  fault("company-read-first-company", "COMP-002", "GET company/{itemId} answers the user's oldest company, whatever the id.", COMPANIES),
  // Legal by default (COMP-003 is LENIENT, blind ruling 2026-11-28): only the strict profile requires the values read back as created.
  fault("company-read-name-uppercased", "COMP-003", "Companies read back with their name upper-cased.", COMPANIES, STRICT_ONLY),
  fault(
    "company-list-stale",
    "COMP-004",
    "The company list serves only the companies seeded with the user, not those created later.",
    COMPANIES,
  ),
  fault("company-list-leaks-other-users", "COMP-004", "The company list holds the companies of every user.", COMPANIES),
  fault("company-session-timeout-string", "COMP-005", "session_timeout is answered as a string.", COMPANIES),
  fault("company-missing-legal-form-accepted", "COMP-006", "POST company without legal_form is accepted.", COMPANIES),
  fault("company-coc-number-required", "COMP-007", "POST company without chamber_of_commerce_number is refused.", COMPANIES),
  fault("company-minimal-body-500", "COMP-008", "POST company without address_main crashes (500).", COMPANIES),
  fault("company-vat-numbers-refused", "COMP-009", "POST company with vat_numbers is refused as an unsupported field.", COMPANIES),
  // Legal by default (COMP-010 is LENIENT): only the strict profile requires the refusal. The other COMP-010 faults store the
  // wrong-typed value, which the read-back's Company table types (COMP-005) catch by default.
  fault("company-name-type-unchecked", "COMP-010", "POST company accepts a name that is not a string.", COMPANIES, STRICT_ONLY),
  fault(
    "company-enum-fields-type-unchecked",
    "COMP-010",
    "POST company checks the types of name and ubo but takes country and subscription_type of any JSON type.",
    COMPANIES,
  ),
  fault("company-put-types-unchecked", "COMP-010", "PUT company skips the type checks that POST makes.", COMPANIES),
  fault("company-put-ignored", "COMP-011", "PUT company answers Id but changes nothing.", COMPANIES),
  fault("company-put-answers-empty", "ERR-011", "PUT company answers an empty Response.", COMPANIES),
  fault("company-other-user-readable", "AUTH-019", "GET company/{itemId} serves another user's company.", COMPANIES),
  fault(
    "company-put-other-user",
    "AUTH-019",
    "PUT company/{itemId} updates another user's company (the read checks ownership, the update forgot).",
    COMPANIES,
  ),
  fault("company-path-user-unchecked", "AUTH-015", "The company list and read serve any existing user named in the path.", COMPANIES),
  // Legal by default since the blind ruling made ERR-014 LENIENT (variant unknown-item-read-empty): strict only.
  fault(
    "company-unknown-id-empty",
    "ERR-014",
    "GET company/{itemId} of an id that does not exist answers 200 with an empty Response.",
    COMPANIES,
    { target: "reference-strict" },
  ),
  fault("company-id-parsed-leniently", "ERR-006", "The company item id is read with parseInt, so 1234abc reads company 1234.", COMPANIES),
  fault(
    "company-required-null-accepted",
    "COMP-006",
    "POST company checks that the required fields are there, not that they are strings: name null is stored.",
    COMPANIES,
  ),
  // A value not read back as created, like the upper-cased name: legal by default (COMP-003 is LENIENT).
  fault(
    "company-create-coc-dropped",
    "COMP-003",
    "POST company drops chamber_of_commerce_number (the create mapper forgot it); PUT stores it.",
    COMPANIES,
    STRICT_ONLY,
  ),
  // Legal by default (COMP-012 is LENIENT): only the strict profile requires every field read back as the PUT set it.
  fault("company-put-country-ignored", "COMP-012", "PUT company applies every field but country.", COMPANIES, STRICT_ONLY),
  fault(
    "company-put-address-ignored",
    "COMP-012",
    "PUT company applies the scalar fields but keeps the old address_main.",
    COMPANIES,
    STRICT_ONLY,
  ),
  // Legal by default (COMP-013 is LENIENT): only the strict profile requires a refused PUT to change nothing.
  fault(
    "company-put-refused-after-name",
    "COMP-013",
    "PUT company writes the name before it checks the rest of the body, so a refused PUT has renamed the company.",
    COMPANIES,
    STRICT_ONLY,
  ),
  fault(
    "company-put-required-unchecked",
    "COMP-014",
    "PUT company merges whatever fields it gets: a body without name, country, legal_form or subscription_type is accepted.",
    COMPANIES,
  ),
  // Legal by default (COMP-015 is LENIENT): only the strict profile requires a refused create to store nothing.
  fault(
    "company-create-stored-before-check",
    "COMP-015",
    "POST company stores the company once the four required fields check out, then refuses a wrong-typed " +
      "address or ubo: the refused company is in the list.",
    COMPANIES,
    STRICT_ONLY,
  ),
  fault(
    "company-put-path-user-unchecked",
    "AUTH-015",
    "PUT company/{itemId} updates the company of any existing user named in the path.",
    COMPANIES,
  ),
  fault(
    "company-path-user-ignored",
    "AUTH-015",
    "The company endpoints take the user from the session and ignore the userID of the path (a userID naming nobody is served).",
    COMPANIES,
  ),
] as const;

export const COMPANY_VARIANTS = [
  {
    name: "company-null-for-unset",
    suites: VARIANT_SCOPE.companies,
    description:
      "The company read form carries null for every member it has no value for " +
      "(chamber_of_commerce_number, addresses, customer, contract_date_end, ...) instead of leaving it out.",
    allowedBy: "banking-api.md gives the Company fields' types, not their presence (COMP-016, LENIENT)",
    requirements: ["COMP-016"],
  },
  {
    name: "company-relation-ids-integer",
    suites: VARIANT_SCOPE.companies,
    description: "Every company carries a relation whose user_id and counter_user_id are integers.",
    allowedBy: 'Resources: "id fields are integers" against the Relation line\'s "(string)" (both readings pass)',
  },
  {
    name: "company-read-form-sparse",
    suites: VARIANT_SCOPE.companies,
    description:
      "The company read form leaves out the body fields (name, country, legal_form, " +
      'chamber_of_commerce_number, addresses, ubo): the body is headed "write-only fields".',
    allowedBy: "GAP-03 (write-only body heading); COMP-017 (LENIENT)",
    requirements: ["COMP-017"],
  },
  {
    name: "company-category-refusal-codes",
    suites: VARIANT_SCOPE.companiesAndCategories,
    description:
      "Company and category refusals use other 4XX codes: 422 for an invalid body, 403 for a company that " +
      "is not found, 404 for a userID that is not the caller's.",
    allowedBy: "conventions §6 (any 4XX with an error body passes where the specification fixes none)",
    requirements: ["COMP-006", "COMP-010", "COMP-014", "CAT-003", "CAT-004", "AUTH-015", "AUTH-019", "ERR-014"],
  },
  {
    name: "company-names-upper-cased",
    suites: VARIANT_SCOPE.companies,
    description: "Companies read back with their name upper-cased (display_name and public_nick_name too).",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["COMP-003", "COMP-012"],
  },
  {
    name: "company-scalars-coerced",
    suites: VARIANT_SCOPE.companies,
    description:
      "POST and PUT company take a number or boolean for a string field (name, country, legal_form, subscription_type, " +
      'chamber_of_commerce_number) and store it as its string: name 42 reads back as "42".',
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["COMP-010"],
  },
  {
    name: "company-country-kept-on-put",
    suites: VARIANT_SCOPE.companies,
    description: "PUT company applies every field but country: a company keeps the country it was created with.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["COMP-012"],
  },
  {
    name: "company-put-name-written-first",
    suites: VARIANT_SCOPE.companies,
    description: "PUT company writes the name before it checks the rest of the body, so a refused PUT has renamed the company.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["COMP-013"],
  },
  {
    name: "company-stored-before-body-checks",
    suites: VARIANT_SCOPE.companies,
    description:
      "POST company stores the company once the four required fields check out, then refuses a wrong-typed address " +
      "or ubo: the refused company is in the list.",
    allowedBy: "blind ruling 2026-11-28 (certifier OPEN, vendor OPEN)",
    requirements: ["COMP-015"],
  },
] as const satisfies readonly VariantSpec[];

const CATEGORIES = ["categories"];

export const CATEGORY_FAULTS = [
  fault("category-create-id-string", "CAT-001", "POST category answers Id with the id as a string.", CATEGORIES),
  fault("category-status-only-refused", "CAT-002", "POST category refuses a body without category (treats it as required).", CATEGORIES),
  fault("category-status-optional", "CAT-003", "POST category without status is accepted.", CATEGORIES),
  // Legal by default (CAT-004 is LENIENT, blind ruling 2026-11-28): only the strict profile requires the refusal.
  fault(
    "category-color-type-unchecked",
    "CAT-004",
    "POST category accepts a color of any JSON type (only status is type-checked).",
    CATEGORIES,
    STRICT_ONLY,
  ),
  fault(
    "category-name-type-unchecked",
    "CAT-004",
    "POST category accepts a category (the name) of any JSON type.",
    CATEGORIES,
    STRICT_ONLY,
  ),
  fault(
    "category-path-user-unchecked",
    "AUTH-015",
    "POST category creates the category for any existing user named in the path.",
    CATEGORIES,
  ),
  fault(
    "category-status-null-accepted",
    "CAT-003",
    "POST category checks that the body has a status key, not that it holds a string: status null is accepted.",
    CATEGORIES,
  ),
  fault(
    "category-path-user-ignored",
    "AUTH-015",
    "POST category takes the user from the session and ignores the userID of the path (a userID naming nobody is served).",
    CATEGORIES,
  ),
] as const;

export const CATEGORY_VARIANTS = [
  {
    name: "category-status-enabled-disabled",
    suites: VARIANT_SCOPE.categories,
    description: "POST category takes status ENABLED or DISABLED only; any other status (ACTIVE included) is refused with 400.",
    allowedBy: 'GAP-35 (status is a "required string, whether the category is active"; values not shown)',
  },
  {
    name: "category-color-any-type",
    suites: VARIANT_SCOPE.categories,
    description: 'POST category takes a color of any JSON type and stores it as its string (color 3835647 is kept as "3835647").',
    allowedBy: "blind ruling 2026-11-28 (certifier STATED, vendor OPEN)",
    requirements: ["CAT-004"],
  },
] as const satisfies readonly VariantSpec[];
