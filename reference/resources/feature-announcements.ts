import type { ResourceModule } from "../module.js";

/** Placeholder: this resource is being implemented. */
export const featureAnnouncementsModule: ResourceModule = {
  name: "feature-announcements",
  faults: [],
  register() {},
};
