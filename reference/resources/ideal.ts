import type { ResourceModule } from "../module.js";

/** Placeholder: this resource is being implemented. */
export const idealModule: ResourceModule = {
  name: "ideal",
  faults: [],
  register() {},
};
