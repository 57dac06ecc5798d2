import type { ResourceModule } from "../module.js";

/** Placeholder: this resource is being implemented. */
export const oauthCallbackUrlsModule: ResourceModule = {
  name: "oauth-callback-urls",
  faults: [],
  register() {},
};
