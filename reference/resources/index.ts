import type { ResourceModule } from "../module.js";
import { authenticationModule } from "./authentication.js";
import { cardsModule } from "./cards.js";
import { sandboxFixturesModule } from "./sandbox-fixtures.js";
import { sandboxUserModule } from "./sandbox-user.js";
import { attachmentsModule } from "./attachments.js";
import { cardReplacementModule } from "./card-replacement.js";
import { categoriesModule } from "./categories.js";
import { certificatePinnedModule } from "./certificate-pinned.js";
import { challengeRequestsModule } from "./challenge-requests.js";
import { companiesModule } from "./companies.js";
import { featureAnnouncementsModule } from "./feature-announcements.js";
import { idealModule } from "./ideal.js";
import { oauthCallbackUrlsModule } from "./oauth-callback-urls.js";
import { shareInvitesModule } from "./share-invites.js";
import { versioningModule } from "./versioning.js";

/** Every resource of the reference server. A new resource is a new module file plus one line here. */
export const resourceModules: ResourceModule[] = [
  authenticationModule,
  sandboxUserModule,
  sandboxFixturesModule,
  cardsModule,
  cardReplacementModule,
  companiesModule,
  attachmentsModule,
  certificatePinnedModule,
  oauthCallbackUrlsModule,
  shareInvitesModule,
  categoriesModule,
  challengeRequestsModule,
  featureAnnouncementsModule,
  idealModule,
  versioningModule,
];
