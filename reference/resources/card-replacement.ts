import type { ResourceModule } from "../module.js";

/** Placeholder: this resource is being implemented. */
export const cardReplacementModule: ResourceModule = {
  name: "card-replacement",
  faults: [],
  register() {},
};
