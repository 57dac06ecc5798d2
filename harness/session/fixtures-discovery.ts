import type { HttpClient } from "../http/client.js";
import { firstOfType } from "../envelope.js";
import type { Fixtures } from "../profile/profile.js";
import type { Session } from "./session.js";

/**
 * `fixtures: discover`: the ids a profile would list, read from the target's sandbox-only
 * GET /user/{userID}/sandbox-fixtures (the embedded and standalone reference offer it). A target without
 * it gives none, and the checks that need a fixture skip with that reason.
 */
export async function discoverFixtures(client: HttpClient, session: Session): Promise<{ fixtures: Fixtures; problem?: string }> {
  const exchange = await client.request({
    path: `/user/${session.userId}/sandbox-fixtures`,
    token: session.sessionToken,
    from: session.from,
  });
  const found = firstOfType(exchange.json, "SandboxFixtures");
  if (exchange.status !== 200 || !found) {
    return {
      fixtures: {},
      problem:
        `fixtures: discover: GET /user/${session.userId}/sandbox-fixtures answered ${exchange.status}; list the ids in the profile ` +
        `instead`,
    };
  }
  const ids = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v)) : undefined);
  const fixtures: Fixtures = {};
  if (Number.isInteger(found.monetaryAccountId)) fixtures.monetaryAccountId = found.monetaryAccountId as number;
  if (Number.isInteger(found.oauthClientId)) fixtures.oauthClientId = found.oauthClientId as number;
  const challenges = ids(found.challengeRequestIds);
  if (challenges) fixtures.challengeRequestIds = challenges;
  const announcements = ids(found.featureAnnouncementIds);
  if (announcements) fixtures.featureAnnouncementIds = announcements;
  return { fixtures };
}
