import type { ResourceModule } from "../module.js";
import { authenticationModule } from "./auth/authentication.js";
import { cardsModule } from "./cards/cards.js";
import { sandboxFixturesModule } from "./auth/sandbox-fixtures.js";
import { sandboxUserModule } from "./auth/sandbox-user.js";
import { attachmentsModule } from "./accounts/attachments.js";
import { cardReplacementModule } from "./cards/card-replacement.js";
import { categoriesModule } from "./companies/categories.js";
import { certificatePinnedModule } from "./security/certificate-pinned.js";
import { challengeRequestsModule } from "./security/challenge-requests.js";
import { companiesModule } from "./companies/companies.js";
import { featureAnnouncementsModule } from "./feature-announcements.js";
import { idealModule } from "./accounts/ideal.js";
import { oauthCallbackUrlsModule } from "./security/oauth-callback-urls.js";
import { shareInvitesModule } from "./accounts/share-invites.js";
import { versioningModule } from "./versioning.js";

/**
 * Every resource of the reference server, in the order they register and seed. Modules live by area: auth/
 * (installation, devices, sessions, the sandbox user), cards/ (cards, their state table, replacement), companies/
 * (companies and user-defined categories), security/ (pinned certificates, OAuth callback URLs, challenge
 * requests), accounts/ (what hangs off a monetary account: attachments, share invites, iDEAL); feature
 * announcements and versioning stand alone. A new resource is a new module file plus one line here.
 */
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
