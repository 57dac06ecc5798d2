import type { ResourceModule } from "../module.js";

/** Placeholder: this resource is being implemented. */
export const shareInvitesModule: ResourceModule = {
  name: "share-invites",
  faults: [],
  register() {},
};
