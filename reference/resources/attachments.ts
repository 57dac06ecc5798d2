import type { ResourceModule } from "../module.js";

/** Placeholder: this resource is being implemented. */
export const attachmentsModule: ResourceModule = {
  name: "attachments",
  faults: [],
  register() {},
};
