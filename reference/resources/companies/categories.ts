// The route reads as the specification; every fault and variant of this file hooks in through a named seam below it.
import type { FastifyReply, FastifyRequest } from "fastify";
import { badRequest, HttpError } from "../../http-error.js";
import { objectBody, pathUser, sendItems, sendId, type ReferenceContext, type ResourceModule } from "../../module.js";
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
    const categories = ctx.state.collection<CategoryRecord>("categories");
    app.post(
      "/v1/user/:userID/additional-transaction-information-category-user-defined",
      { ...fieldErrors(ctx) },
      recoded(ctx, async (request, reply) => {
        const userId = categoryUser(ctx, request);
        const body = objectBody(request);
        const status = body.status;
        checkStatus(ctx, status);
        enabledOrDisabled(ctx, status);
        const fields = optionalFields(ctx, body);
        utf8mb3Column(ctx, { status, ...fields });
        varchar255Description(ctx, fields.description);
        uniqueName(ctx, categories.list(userId), fields.category);
        const category = categories.add(userId, (id) => ({
          id,
          created: timestamp(),
          status: typeof status === "string" ? status : "ACTIVE",
          ...fields,
        }));
        return sendCreated(ctx, reply, answeredCategoryId(ctx, categories.list(userId), category.id));
      }),
    );
  },
};

// ---- Seams of the category route: each decides one rule and names the faults and variants that bend it. ----

/**
 * Refusals carry the error envelope with error_description a string (conventions §1). Fault r4-category-error-description-object:
 * the route's newer validator answers its body refusals (400, or 422 under a variant) itself, with error_description as a
 * {field, message} object; other errors go on to the server's handler.
 */
function fieldErrors(ctx: ReferenceContext) {
  if (!ctx.faults.on("r4-category-error-description-object")) return {};
  return {
    errorHandler: (error: Error, _request: FastifyRequest, reply: FastifyReply) => {
      const bodyRefusal = error instanceof HttpError && /^(Field |The request body)/.test(error.message);
      if (!bodyRefusal) throw error;
      const field = /^Field (\w+)/.exec(error.message)?.[1] ?? null;
      return reply
        .code(error.status)
        .type("application/json")
        .send({ Error: [{ error_description: { field, message: error.message }, error_description_translated: error.message }] });
    },
  };
}

/** The userID of the path, which must be the caller's (AUTH-015); the faults take the session's user, or any existing user. */
function categoryUser(ctx: ReferenceContext, request: FastifyRequest): number {
  if (ctx.faults.on("category-path-user-ignored") && request.session) return request.session.userId;
  return pathUser(request, ctx, "category-path-user-unchecked");
}

/** status is a required non-empty string (CAT-003); the faults take a body without it, or with status null. */
function checkStatus(ctx: ReferenceContext, status: unknown): void {
  const { faults } = ctx;
  if (status === undefined || (status === null && !faults.on("category-status-null-accepted"))) {
    if (!faults.on("category-status-optional")) throw badRequest("Field status is required.");
  } else if (status !== null && (typeof status !== "string" || status === "") && !activeFlag(ctx, status))
    throw badRequest("Field status must be a non-empty string.");
}

/** The fault reads "whether the category is active" as a flag: a boolean status passes the type check. */
function activeFlag(ctx: ReferenceContext, status: unknown): boolean {
  return typeof status === "boolean" && ctx.faults.on("category-status-boolean-accepted");
}

/** Variant category-status-enabled-disabled (GAP-35: the values are not shown): status is ENABLED or DISABLED. */
function enabledOrDisabled(ctx: ReferenceContext, status: unknown): void {
  if (ctx.variants.on("category-status-enabled-disabled") && status !== "ENABLED" && status !== "DISABLED")
    throw badRequest("Field status must be ENABLED or DISABLED.");
}

/** category, description, color and icon are optional strings (CAT-002, CAT-004); the faults require the name, or take any JSON type. */
function optionalFields(ctx: ReferenceContext, body: Record<string, unknown>): Partial<Record<(typeof OPTIONAL)[number], string>> {
  const { faults } = ctx;
  const fields: Partial<Record<(typeof OPTIONAL)[number], string>> = {};
  for (const name of OPTIONAL) {
    const value = body[name];
    if (value === undefined || value === null) {
      if (name === "category" && faults.on("category-status-only-refused")) throw badRequest("Field category is required.");
      continue;
    }
    if (typeof value !== "string" && !anyType(ctx, name)) throw badRequest(`Field ${name} must be a string.`);
    // Variant r5-category-empty-optional-refused: the optional texts were given the non-empty rule of status.
    if (value === "" && ctx.variants.on("r5-category-empty-optional-refused"))
      throw badRequest(`Field ${name} must be a non-empty string.`);
    fields[name] = name === "color" ? hexColor(ctx, String(value)) : String(value);
  }
  // Fault r6-category-color-requires-icon: the validator treats color and icon as a pair (a colour is for an icon).
  if (faults.on("r6-category-color-requires-icon") && fields.color !== undefined && fields.icon === undefined)
    throw badRequest("Field icon is required when color is given.");
  return fields;
}

/** The description is any string, stored as sent; the fault's store has a VARCHAR(255) column in strict mode, unhandled: a 500. */
function varchar255Description(ctx: ReferenceContext, description: string | undefined): void {
  // Fault r6-category-long-description-500: "Data too long for column 'description'" from the store, uncaught.
  if (ctx.faults.on("r6-category-long-description-500") && description !== undefined && description.length > 255)
    throw new Error("Data too long for column 'description' at row 1.");
}

/**
 * Whether an optional field of any JSON type is taken (and stored as its string): the faults take a color or a category of any
 * type; variant category-color-any-type a color (CAT-004 is LENIENT).
 */
function anyType(ctx: ReferenceContext, name: (typeof OPTIONAL)[number]): boolean {
  const { faults, variants } = ctx;
  if (name === "color") return faults.on("category-color-type-unchecked") || variants.on("category-color-any-type");
  return name === "category" && faults.on("category-name-type-unchecked");
}

/** POST answers the new category's Id, an integer (CAT-001). */
function sendCreated(ctx: ReferenceContext, reply: FastifyReply, id: number): FastifyReply {
  if (ctx.faults.on("category-create-id-string")) return sendItems(reply, [{ Id: { id: String(id) } }]);
  // Fault category-create-answers-201: "Created" for a create, where every success is 200.
  if (ctx.faults.on("category-create-answers-201"))
    return reply
      .code(201)
      .type("application/json")
      .send({ Response: [{ Id: { id } }] });
  return sendId(reply, id);
}

/**
 * The texts are stored as sent, any Unicode included (spec: optional strings); the fault's store has 3-byte UTF-8 columns,
 * which refuse characters outside the Basic Multilingual Plane (emoji) with a database error: a 500.
 */
function utf8mb3Column(ctx: ReferenceContext, texts: Record<string, unknown>): void {
  if (!ctx.faults.on("r3-category-emoji-500")) return;
  // Fault r3-category-emoji-500: "Incorrect string value" from the store, unhandled.
  for (const [column, text] of Object.entries(texts))
    if (typeof text === "string" && /[\u{10000}-\u{10FFFF}]/u.test(text)) throw new Error(`Incorrect string value for column '${column}'.`);
}

/** Nothing makes a category name unique; the fault's store has a unique index on (user, category). */
function uniqueName(ctx: ReferenceContext, existing: CategoryRecord[], name: string | undefined): void {
  // Fault r5-category-same-name-500: the store's unique index on (user, category) raises on a repeated name, and nothing catches it.
  if (ctx.faults.on("r5-category-same-name-500") && name !== undefined && existing.some((c) => c.category === name))
    throw new Error("Duplicate entry for key 'category_user_defined.user_category'.");
  // Variant category-duplicate-name-refused (blind round 2, ruled open): a second category of the same name is a 400.
  if (ctx.variants.on("category-duplicate-name-refused") && name !== undefined && existing.some((c) => c.category === name))
    throw badRequest("A category with this name already exists.");
}

/** color is any string, stored as sent; the fault normalises it as a #RRGGBB code without looking, so "blue" crashes (a 500). */
function hexColor(ctx: ReferenceContext, color: string): string {
  if (!ctx.faults.on("category-color-non-hex-500")) return color;
  // Fault category-color-non-hex-500: exec() answers null for anything else, and destructuring null throws a TypeError.
  const [, hex] = /^#?([0-9a-f]{6})$/i.exec(color) as RegExpExecArray;
  return `#${hex!.toLowerCase()}`;
}

/** POST answers the new category's id (CAT-001); the variant's lookup after the insert takes the user's first category. */
function answeredCategoryId(ctx: ReferenceContext, existing: CategoryRecord[], id: number): number {
  // Variant r4-category-create-answers-first-id (blind round 4, ruled open): SELECT id ... WHERE user_id = ? LIMIT 1,
  // without ordering or the new row's key.
  if (!ctx.variants.on("r4-category-create-answers-first-id")) return id;
  return existing.reduce((first, c) => Math.min(first, c.id), id);
}
