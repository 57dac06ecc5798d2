import { badRequest } from "../../http-error.js";
import { objectBody, pathUser, sendItems, sendId, type ResourceModule } from "../../module.js";
import { timestamp } from "../../time.js";
import { recoded } from "./companies.js";

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
