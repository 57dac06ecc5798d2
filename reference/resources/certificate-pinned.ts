import type { ResourceModule } from "../module.js";

/** Placeholder: this resource is being implemented. */
export const certificatePinnedModule: ResourceModule = {
  name: "certificate-pinned",
  faults: [],
  register() {},
};
