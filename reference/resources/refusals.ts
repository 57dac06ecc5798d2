// Refusals of the attachment, certificate, callback-url, share, challenge and announcement modules. With the
// legal variant resource-refusal-codes on they use other 4XX codes than the reference's default 400 and 404:
// conventions §6 fixes none of them ("any 4XX with an error body passes").
import { HttpError } from "../http-error.js";
import type { ReferenceContext } from "../module.js";

/** An invalid body: 400, or 422 with the variant. */
export function invalidBody(ctx: ReferenceContext, message: string): HttpError {
  return new HttpError(ctx.variants.on("resource-refusal-codes") ? 422 : 400, message);
}

/** An item that is not the caller's (or does not exist): 404, or 403 with the variant. */
export function notTheirs(ctx: ReferenceContext, message = "The requested object was not found."): HttpError {
  return new HttpError(ctx.variants.on("resource-refusal-codes") ? 403 : 404, message);
}
