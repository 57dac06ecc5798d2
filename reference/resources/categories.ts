import { badRequest } from "../http-error.js";
import { objectBody, pathUser, sendItems, sendId, type ResourceModule } from "../module.js";
import { timestamp } from "../time.js";
import { recoded } from "./companies.js";
import { VARIANT_SCOPE } from "../faults/variant-spec.js";
import { fault } from "../faults/faults.js";
import type { VariantSpec } from "../faults/variant-spec.js";

const SUITES = ["categories"];
const OPTIONAL = ["category", "description", "color", "icon"] as const;

interface CategoryRecord {
  id: number;
  created: string;
  status: string;
  category?: string;
  description?: string;
  color?: string;
  icon?: string;
}

export const CATEGORY_FAULTS = [
  fault("category-create-id-string", "CAT-001", "POST category answers Id with the id as a string.", SUITES),
  fault("category-status-only-refused", "CAT-002", "POST category refuses a body without category (treats it as required).", SUITES),
  fault("category-status-optional", "CAT-003", "POST category without status is accepted.", SUITES),
  fault(
    "category-color-type-unchecked",
    "CAT-004",
    "POST category accepts a color of any JSON type (only status is type-checked).",
    SUITES,
  ),
  fault("category-name-type-unchecked", "CAT-004", "POST category accepts a category (the name) of any JSON type.", SUITES),
  fault("category-path-user-unchecked", "AUTH-015", "POST category creates the category for any existing user named in the path.", SUITES),
  fault(
    "category-status-null-accepted",
    "CAT-003",
    "POST category checks that the body has a status key, not that it holds a string: status null is accepted.",
    SUITES,
  ),
  fault(
    "category-path-user-ignored",
    "AUTH-015",
    "POST category takes the user from the session and ignores the userID of the path (a userID naming nobody is served).",
    SUITES,
  ),
] as const;

export const CATEGORY_VARIANTS = [
  {
    name: "category-status-enabled-disabled",
    suites: VARIANT_SCOPE.categories,
    description: "POST category takes status ENABLED or DISABLED only; any other status (ACTIVE included) is refused with 400.",
    allowedBy: 'GAP-35 (status is a "required string, whether the category is active"; values not shown)',
  },
] as const satisfies readonly VariantSpec[];

/**
 * POST /user/{userID}/additional-transaction-information-category-user-defined (spec: Endpoints >
 * User-defined transaction categories; GAP-35). There is no read endpoint: the categories are kept only
 * so the module is a faithful store.
 */
export const categoriesModule: ResourceModule = {
  name: "categories",
  register(app, ctx) {
    const { faults, variants } = ctx;
    const categories = ctx.state.collection<CategoryRecord>("categories");
    app.post(
      "/v1/user/:userID/additional-transaction-information-category-user-defined",
      recoded(ctx, async (request, reply) => {
        const userId =
          faults.on("category-path-user-ignored") && request.session
            ? request.session.userId
            : pathUser(request, ctx, "category-path-user-unchecked");
        const body = objectBody(request);
        const status = body.status;
        if (status === undefined || (status === null && !faults.on("category-status-null-accepted"))) {
          if (!faults.on("category-status-optional")) throw badRequest("Field status is required.");
        } else if (status !== null && (typeof status !== "string" || status === ""))
          throw badRequest("Field status must be a non-empty string.");
        if (variants.on("category-status-enabled-disabled") && status !== "ENABLED" && status !== "DISABLED")
          throw badRequest("Field status must be ENABLED or DISABLED.");
        const fields: Partial<Record<(typeof OPTIONAL)[number], string>> = {};
        for (const name of OPTIONAL) {
          const value = body[name];
          if (value === undefined || value === null) {
            if (name === "category" && faults.on("category-status-only-refused")) throw badRequest("Field category is required.");
            continue;
          }
          if (
            typeof value !== "string" &&
            !(name === "color" && faults.on("category-color-type-unchecked")) &&
            !(name === "category" && faults.on("category-name-type-unchecked"))
          )
            throw badRequest(`Field ${name} must be a string.`);
          fields[name] = String(value);
        }
        const category = categories.add(userId, (id) => ({
          id,
          created: timestamp(),
          status: typeof status === "string" ? status : "ACTIVE",
          ...fields,
        }));
        if (faults.on("category-create-id-string")) return sendItems(reply, [{ Id: { id: String(category.id) } }]);
        return sendId(reply, category.id);
      }),
    );
  },
};
