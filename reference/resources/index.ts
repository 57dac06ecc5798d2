import type { ResourceModule } from "../module.js";
import { authenticationModule } from "./authentication.js";
import { cardsModule } from "./cards.js";
import { sandboxUserModule } from "./sandbox-user.js";

/** Every resource of the reference server. A new resource is a new module file plus one line here. */
export const resourceModules: ResourceModule[] = [authenticationModule, sandboxUserModule, cardsModule];
