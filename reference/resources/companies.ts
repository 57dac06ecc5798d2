import type { ResourceModule } from "../module.js";

/** Placeholder: this resource is being implemented. */
export const companiesModule: ResourceModule = {
  name: "companies",
  faults: [],
  register() {},
};
