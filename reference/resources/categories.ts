import type { ResourceModule } from "../module.js";

/** Placeholder: this resource is being implemented. */
export const categoriesModule: ResourceModule = {
  name: "categories",
  faults: [],
  register() {},
};
