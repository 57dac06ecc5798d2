import { HttpClient } from "../../harness/http/client.js";
import { createSandboxUser } from "../../harness/session/session.js";

/** A fresh user's API key from a target that provisions them (POST /sandbox-user-person): a second user for a profile. */
export async function sandboxApiKey(baseUrl: string): Promise<string> {
  const client = new HttpClient({ baseUrl, headerPrefix: "X-Service-", userAgent: "t", requestMs: 5000, maxResponseBytes: 1 << 20 });
  try {
    const { apiKey, exchange } = await createSandboxUser(client);
    if (!apiKey) throw new Error(`POST /sandbox-user-person answered ${exchange.status} without an ApiKey`);
    return apiKey;
  } finally {
    await client.close();
  }
}
