import type { ResourceModule } from "../module.js";

/** Placeholder: this resource is being implemented. */
export const challengeRequestsModule: ResourceModule = {
  name: "challenge-requests",
  faults: [],
  register() {},
};
