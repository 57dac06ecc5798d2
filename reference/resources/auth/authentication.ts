// Authentication (banking-api.md "Authentication"; conventions §4): installation, device registration with IP
// binding and lock-out, sessions. The three routes read as the specification; every fault and variant of this
// file hooks in through a named seam below them (refusalStatus, checkClientPublicKey, lockouts, openSession, …).
import { createPublicKey } from "node:crypto";
import type { FastifyReply } from "fastify";
import { HttpError, unauthorized } from "../../http-error.js";
import { objectBody, sendItems, type ReferenceContext, type ResourceModule } from "../../module.js";
import { serverKey } from "../../server-key.js";
import type { ApiKeyRecord, Device, Installation, SessionRecord, User } from "../../state.js";
import { timestamp } from "../../time.js";

function tokenObject(id: number, token: string) {
  const now = timestamp();
  return { Token: { id, created: now, updated: now, token } };
}

type Refuse = (message: string) => HttpError;

function stringField(body: Record<string, unknown>, name: string, required: boolean, invalid: Refuse): string | undefined {
  const value = body[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== "string" || value === "") throw invalid(`Field ${name} must be a non-empty string.`);
  return value;
}

/** POST /installation, /device-server, /session-server (spec: Authentication; conventions §4). */
export const authenticationModule: ResourceModule = {
  name: "authentication",
  register(app, ctx) {
    const { state } = ctx;
    const refuse: Refuse = (message) => new HttpError(refusalStatus(ctx), message);
    const invalid: Refuse = (message) => new HttpError(invalidBodyStatus(ctx), message);
    const lockout = lockouts(ctx);
    // Fault session-user-cached-per-installation: the answered user object, cached by installation token.
    const answeredUsers = new Map<string, Record<string, unknown>>();

    app.post("/v1/installation", { config: { auth: "none" } }, async (request, reply) => {
      const body = objectBody(request);
      const pem = stringField(body, "client_public_key", true, invalid)!;
      checkClientPublicKey(ctx, pem, invalid);
      const id = state.nextId();
      const token = state.token();
      installationOfKeyReplaced(ctx, pem);
      state.installations.set(token, { id, token, publicKeyPem: pem, deviceIds: [] });
      return sendInstallation(ctx, reply, [
        { Id: { id } },
        tokenObject(state.nextId(), token),
        { ServerPublicKey: { server_public_key: answeredServerKey(ctx) } },
      ]);
    });

    app.post("/v1/device-server", { config: { auth: "installation" } }, async (request, reply) => {
      const body = objectBody(request);
      const description = stringField(body, "description", descriptionRequired(ctx), invalid) ?? "";
      trimSecret(ctx, body);
      const secret = stringField(body, "secret", true, invalid)!;
      const permitted = permittedIpsOf(ctx, parsePermittedIps(stringIpWrapped(ctx, body.permitted_ips), invalid));
      const installation = state.installations.get(request.installationToken!)!;
      const ip = request.callerIp;
      const key = apiKeyOf(ctx, secret);
      lockoutReadBeforeKeyCheck(ctx, key);
      if (!key) throw refuse("Incorrect API key or IP address.");
      if (lockoutChecked(ctx, permitted) && lockout.locked(installation, key, ip)) {
        lockedOutDeviceKept(ctx, installation, key, description, ip);
        throw refuse("Incorrect API key or IP address.");
      }
      if (permitted && !callerPermitted(ctx, permitted, ip) && permittedIpsEnforced(ctx)) {
        for (const locked of lockedAddresses(ctx, permitted, ip)) lockout.lock(installation, key, locked);
        // Variant refused-registration-keeps-device (blind round 2, ruled open): the device row was saved before the permitted_ips check.
        if (ctx.variants.on("refused-registration-keeps-device")) storeDevice(ctx, installation, key, description, permitted);
        throw refuse("The calling IP address is not in permitted_ips.");
      }
      if (key.boundIps && !key.boundIps.has(ip) && bindingEnforced(ctx, permitted, ip)) throw refuse("Incorrect API key or IP address.");
      const ips = addressesToBind(ctx, permitted ?? [ip], ip);
      key.boundIps = new Set([...(key.boundIps ?? []), ...ips]);
      const device = storeDevice(ctx, installation, key, description, ips);
      return sendDevice(ctx, reply, deviceAnswer(ctx, device.id));
    });

    app.post("/v1/session-server", { config: { auth: "installation" } }, async (request, reply) => {
      const body = objectBody(request);
      const secret = stringField(body, "secret", true, invalid)!;
      const installation = state.installations.get(request.installationToken!)!;
      sessionsEndedBeforeTheChecks(ctx, installation);
      const device = sessionDevice(ctx, installation, secret, request.callerIp);
      if (!device) return sessionRefused(ctx, reply, refuse("No device is registered for this installation and API key."));
      if (secondSessionRefused(ctx, device)) throw refuse("A session is already open for this device.");
      if (!device.ips.includes(request.callerIp) && deviceIpChecked(ctx))
        return sessionRefused(ctx, reply, refuse("Incorrect API key or IP address."));
      const key = state.apiKeys.get(sessionKey(ctx, device, secret));
      if (!key) throw unauthorized();
      const user = state.users.get(key.userId)!;
      const session = openSession(ctx, device, user.id, request.callerIp);
      const answered = sessionUserOnce(ctx, answeredUsers, installation, () => sessionUser(ctx, user));
      // Fault r5-session-server-no-id-element: the answer carries the token and the user only, not the session's Id.
      const id = ctx.faults.on("r5-session-server-no-id-element") ? [] : [{ Id: { id: session.id } }];
      return sendItems(reply, [...id, tokenObject(state.nextId(), session.token), answered]);
    });
  },
};

/** A new device of the installation for the key, bound to the given addresses. */
function storeDevice(ctx: ReferenceContext, installation: Installation, key: ApiKeyRecord, description: string, ips: string[]): Device {
  const device = { id: ctx.state.nextId(), installationToken: installation.token, apiKey: key.key, description, ips };
  ctx.state.devices.set(device.id, device);
  installation.deviceIds.push(device.id);
  return device;
}

function parsePermittedIps(value: unknown, invalid: Refuse): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw invalid("permitted_ips must be an array of IP addresses.");
  return (value as string[]).map((v) => v.replace(/^::ffff:/, ""));
}

// ---- Seams: each decides one rule of the routes above and names the faults and variants that bend it. ----

/** permitted_ips is an array of addresses (spec: Authentication); anything else is refused by parsePermittedIps. */
function stringIpWrapped(ctx: ReferenceContext, value: unknown): unknown {
  // Variant r4-permitted-ips-string-wrapped (blind round 4, ruled open): a lone address string is "helpfully" wrapped into
  // a list of one.
  return ctx.variants.on("r4-permitted-ips-string-wrapped") && typeof value === "string" ? [value] : value;
}

/** The status of an authentication refusal: 400 (variant auth-refusals-403: any 4XX passes, conventions §3, §4, §6). */
function refusalStatus(ctx: ReferenceContext): number {
  return ctx.variants.on("auth-refusals-403") ? 403 : 400;
}

/** The status of an invalid body: 400 (variant auth-body-refusals-422). */
function invalidBodyStatus(ctx: ReferenceContext): number {
  return ctx.variants.on("auth-body-refusals-422") ? 422 : 400;
}

/** client_public_key is a PEM RSA public key (AUTH-002). */
function checkClientPublicKey(ctx: ReferenceContext, pem: string, invalid: Refuse): void {
  if (ctx.faults.on("installation-accepts-non-pem")) return;
  let type: string | undefined;
  try {
    type = createPublicKey(pem).asymmetricKeyType;
  } catch {
    throw invalid("client_public_key is not a PEM public key.");
  }
  // Fault installation-accepts-ec-key: the key type is never looked at, any PEM public key will do.
  const rsaChecked = !ctx.faults.on("installation-accepts-ec-key");
  if ((rsaChecked && type !== "rsa") || !pem.includes("-----BEGIN")) throw invalid("client_public_key must be a PEM RSA public key.");
}

/** Fault device-server-secret-number-500: the secret is trimmed before its type is checked; a number has no trim(). */
function trimSecret(ctx: ReferenceContext, body: Record<string, unknown>): void {
  if (ctx.faults.on("device-server-secret-number-500")) body.secret = (body.secret as string | undefined)?.trim();
}

/**
 * An unknown API key is refused with a 4XX (or provisioned, by a variant); never a crash. Fault r4-device-server-unknown-key-500:
 * the lock-out lookup was moved above the key check and reads the missing key's locked addresses: an unhandled TypeError (500).
 */
function lockoutReadBeforeKeyCheck(ctx: ReferenceContext, key: ApiKeyRecord | undefined): void {
  if (ctx.faults.on("r4-device-server-unknown-key-500") && key === undefined)
    throw new TypeError("Cannot read properties of undefined (reading 'lockedIps')");
}

/** The caller's address is one of permitted_ips (AUTH-012); fault permitted-ips-substring-match searches the joined list. */
function callerPermitted(ctx: ReferenceContext, permitted: string[], ip: string): boolean {
  return ctx.faults.on("permitted-ips-substring-match") ? permitted.join(",").includes(ip) : permitted.includes(ip);
}

/** The session's user object; fault session-user-cached-per-installation answers the installation's first one, whatever the key. */
function sessionUserOnce(
  ctx: ReferenceContext,
  answered: Map<string, Record<string, unknown>>,
  installation: Installation,
  make: () => Record<string, unknown>,
): Record<string, unknown> {
  if (!ctx.faults.on("session-user-cached-per-installation")) return make();
  const cached = answered.get(installation.token) ?? make();
  answered.set(installation.token, cached);
  return cached;
}

/**
 * Every POST /installation makes a new installation beside the others, whatever key it carries. Variant
 * r5-installation-same-key-replaces-first: installations are keyed by the client's public key, so installing again with the
 * same key replaces (drops) the earlier installation, whose token then names nothing.
 */
function installationOfKeyReplaced(ctx: ReferenceContext, pem: string): void {
  if (!ctx.variants.on("r5-installation-same-key-replaces-first")) return;
  for (const [token, installation] of [...ctx.state.installations])
    if (installation.publicKeyPem === pem) ctx.state.installations.delete(token);
}

/** The server's public key, which POST /installation hands out (AUTH-001). */
function answeredServerKey(ctx: ReferenceContext): string {
  // Fault r3-installation-answers-private-key: the answer exports the kept key (its private half, PKCS#8) instead of the public one.
  if (ctx.faults.on("r3-installation-answers-private-key"))
    return serverKey().privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  return serverKey().publicKeyPem;
}

/** POST /installation answers 200 with three elements: Id, Token and ServerPublicKey (AUTH-001, ERR-004, ERR-008). */
function sendInstallation(ctx: ReferenceContext, reply: FastifyReply, items: Record<string, unknown>[]): FastifyReply {
  const { faults } = ctx;
  // Fault installation-token-id-string: the token row's id is serialised as text.
  if (faults.on("installation-token-id-string"))
    items = items.map((item) =>
      "Token" in item ? { Token: { ...(item.Token as object), id: String((item.Token as { id: number }).id) } } : item,
    );
  if (faults.on("installation-no-server-key")) items = items.filter((item) => !("ServerPublicKey" in item));
  if (faults.on("installation-envelope-merged")) return reply.code(200).send({ Response: [Object.assign({}, ...items)] });
  return reply
    .code(faults.on("installation-answers-201") ? 201 : 200)
    .type("application/json")
    .send({ Response: items });
}

/** A device registration needs a description (AUTH-021, LENIENT: variant device-description-optional registers without). */
function descriptionRequired(ctx: ReferenceContext): boolean {
  return !(ctx.faults.on("device-server-description-optional") || ctx.variants.on("device-description-optional"));
}

/**
 * The API key the secret names; an unknown one is refused (AUTH-010, LENIENT). Variant
 * device-server-provisions-unknown-key makes a new user for it; the fault hands out the first user's key.
 */
function apiKeyOf(ctx: ReferenceContext, secret: string): ApiKeyRecord | undefined {
  const key = ctx.state.apiKeys.get(secret);
  if (!key && ctx.faults.on("device-server-unknown-key-accepted")) return [...ctx.state.apiKeys.values()][0];
  if (!key && ctx.variants.on("device-server-provisions-unknown-key")) {
    ctx.createUser("Provisioned on first use", secret);
    return ctx.state.apiKeys.get(secret);
  }
  return key;
}

/**
 * The lock-out after a registration whose permitted_ips lack the caller: the key is locked for the caller's
 * address (AUTH-012). Faults: lockout-not-applied locks nothing; lockout-per-installation locks that installation only.
 */
function lockouts(ctx: ReferenceContext) {
  const { faults } = ctx;
  const lockedInstallations = new Set<string>();
  const perInstallation = (installation: Installation, key: ApiKeyRecord) => `${installation.token}|${key.key}`;
  return {
    locked(installation: Installation, key: ApiKeyRecord, ip: string): boolean {
      return faults.on("lockout-per-installation") ? lockedInstallations.has(perInstallation(installation, key)) : key.lockedIps.has(ip);
    },
    lock(installation: Installation, key: ApiKeyRecord, ip: string): void {
      if (faults.on("lockout-per-installation")) lockedInstallations.add(perInstallation(installation, key));
      else if (!faults.on("lockout-not-applied")) key.lockedIps.add(ip);
    },
  };
}

/** The address a refused permitted_ips registration locks out: the caller's (AUTH-012). */
function lockedAddresses(ctx: ReferenceContext, permitted: string[], caller: string): string[] {
  // Fault r3-lockout-locks-permitted-ips: the wrong variable; the addresses of the list are locked, not the caller.
  return ctx.faults.on("r3-lockout-locks-permitted-ips") ? permitted : [caller];
}

/** permitted_ips as sent, an empty array included; the fault's length check reads [] as "no list". */
function permittedIpsOf(ctx: ReferenceContext, permitted: string[] | undefined): string[] | undefined {
  return ctx.faults.on("permitted-ips-empty-binds-caller") && permitted?.length === 0 ? undefined : permitted;
}

/** A locked-out caller is refused whatever the body carries; the fault checks bodies without permitted_ips only. */
function lockoutChecked(ctx: ReferenceContext, permitted: string[] | undefined): boolean {
  return !(ctx.faults.on("lockout-skipped-with-permitted-ips") && permitted !== undefined);
}

/** POST /session-server is made from an address the device is bound to. */
function deviceIpChecked(ctx: ReferenceContext): boolean {
  return !ctx.faults.on("session-bound-to-opening-ip");
}

/** permitted_ips must hold the caller's address (AUTH-012). */
function permittedIpsEnforced(ctx: ReferenceContext): boolean {
  return !ctx.faults.on("permitted-ips-not-enforced");
}

/** A key bound to addresses registers devices from those only (AUTH-014). */
function bindingEnforced(ctx: ReferenceContext, permitted: string[] | undefined, caller: string): boolean {
  // Fault r6-key-rebinds-with-permitted-ips: a permitted_ips list that names the caller is taken as the key's new binding.
  if (ctx.faults.on("r6-key-rebinds-with-permitted-ips") && permitted?.includes(caller)) return false;
  return !ctx.faults.on("key-rebinds-from-new-ip");
}

/** The addresses a registration binds the key to: every one of permitted_ips, or the caller's (AUTH-013). */
function addressesToBind(ctx: ReferenceContext, ips: string[], caller: string): string[] {
  const { faults } = ctx;
  if (faults.on("permitted-ips-first-only")) ips = ips.slice(0, 1);
  if (faults.on("permitted-ips-not-enforced") && !ips.includes(caller)) ips = [...ips, caller];
  return ips;
}

/** POST /device-server answers 200 (fault r6-device-server-answers-201: 201 Created, as for a new resource). */
function sendDevice(ctx: ReferenceContext, reply: FastifyReply, items: Record<string, unknown>[]): FastifyReply {
  if (!ctx.faults.on("r6-device-server-answers-201")) return sendItems(reply, items);
  return reply.code(201).type("application/json").send({ Response: items });
}

/** POST /device-server answers the device's Id (AUTH-003). */
function deviceAnswer(ctx: ReferenceContext, id: number): Record<string, unknown>[] {
  return ctx.faults.on("device-server-no-id") ? [] : [{ Id: { id } }];
}

/**
 * The installation's device registered with this API key (AUTH-007, AUTH-018; both LENIENT). Variant
 * session-secret-ignored takes the installation's device whatever the secret; session-opens-without-device
 * registers the device on the way (implicitDevice).
 */
function sessionDevice(ctx: ReferenceContext, installation: Installation, secret: string, callerIp: string): Device | undefined {
  const { faults, variants, state } = ctx;
  const devices = installation.deviceIds.map((id) => state.devices.get(id)!);
  const device = devices.find((d) => d.apiKey === secret);
  if (device) return device;
  // Variant r3-session-for-secret-on-other-keys-device (blind round 3, ruled open): any device of the installation will do
  // for a known key (sessionKey).
  if (variants.on("r3-session-for-secret-on-other-keys-device") && devices[0] && state.apiKeys.has(secret)) return devices[0];
  if ((faults.on("session-secret-not-checked") || variants.on("session-secret-ignored")) && devices[0]) return devices[0];
  if (variants.on("session-opens-without-device") && devices.length === 0) return implicitDevice(ctx, installation, secret, callerIp);
  if (faults.on("session-without-device") && state.apiKeys.has(secret)) {
    const implicit = { id: state.nextId(), installationToken: installation.token, apiKey: secret, description: "", ips: [callerIp] };
    state.devices.set(implicit.id, implicit);
    return implicit;
  }
  return undefined;
}

/**
 * Variant session-opens-without-device: session-server registers the device as device-server would have (a known key,
 * not locked out, bound to the caller or already bound to its address), then opens the session.
 */
function implicitDevice(ctx: ReferenceContext, installation: Installation, secret: string, callerIp: string): Device | undefined {
  const { state } = ctx;
  const key = state.apiKeys.get(secret);
  if (!key || key.lockedIps.has(callerIp) || (key.boundIps && !key.boundIps.has(callerIp))) return undefined;
  key.boundIps = new Set([...(key.boundIps ?? []), callerIp]);
  const device = { id: state.nextId(), installationToken: installation.token, apiKey: key.key, description: "", ips: [callerIp] };
  state.devices.set(device.id, device);
  installation.deviceIds.push(device.id);
  return device;
}

/**
 * The session's API key: the device's (AUTH-007). Variant r3-session-for-secret-on-other-keys-device (blind round 3,
 * ruled open): the key is the secret sent, so a device registered for one user's key opens a session for another user's key.
 */
function sessionKey(ctx: ReferenceContext, device: Device, secret: string): string {
  return ctx.variants.on("r3-session-for-secret-on-other-keys-device") ? secret : device.apiKey;
}

/**
 * A refused registration registers nothing; fault r3-device-lockout-refusal-keeps-device saved the device row (bound to the
 * caller) before the lock-out check, and the lock-out refusal does not roll it back.
 */
function lockedOutDeviceKept(ctx: ReferenceContext, installation: Installation, key: ApiKeyRecord, description: string, ip: string): void {
  if (ctx.faults.on("r3-device-lockout-refusal-keeps-device")) storeDevice(ctx, installation, key, description, [ip]);
}

/**
 * A refused session-server call ends nothing; variant r3-session-refused-ends-open-sessions (blind round 3, ruled open)
 * closes the installation's open sessions ("one session per installation") before it looks at the secret and the device.
 */
function sessionsEndedBeforeTheChecks(ctx: ReferenceContext, installation: Installation): void {
  if (!ctx.variants.on("r3-session-refused-ends-open-sessions")) return;
  for (const session of [...ctx.state.sessions.values()])
    if (installation.deviceIds.includes(session.deviceId)) ctx.state.sessions.delete(session.token);
}

/**
 * A session-server call refused for its secret or the caller's address gets the error body (conventions §4). Fault
 * r4-session-server-refusals-bare-401: the login path answers a bare 401 with an empty body, so as not to say which check failed.
 */
function sessionRefused(ctx: ReferenceContext, reply: FastifyReply, refusal: HttpError): FastifyReply {
  if (!ctx.faults.on("r4-session-server-refusals-bare-401")) throw refusal;
  return reply.code(401).header("www-authenticate", "ServiceSession").send();
}

/** A device may open a session while it has one open (AUTH-020). */
function secondSessionRefused(ctx: ReferenceContext, device: Device): boolean {
  return ctx.faults.on("session-server-once-per-device") && [...ctx.state.sessions.values()].some((s) => s.deviceId === device.id);
}

/** A new session for the device, beside any it has open (AUTH-020 allows the variants' readings too). */
function openSession(ctx: ReferenceContext, device: Device, userId: number, callerIp: string): SessionRecord {
  const { faults, state, variants } = ctx;
  const earlier = [...state.sessions.values()].filter((s) => s.deviceId === device.id);
  // Fault r5-session-reopen-token-not-stored: the session row is upserted by device and keeps its first token; the answer
  // carries the token made for the new row, which is never stored.
  if (faults.on("r5-session-reopen-token-not-stored") && earlier[0]) return { ...earlier[0], token: state.token() };
  // Variant session-token-per-device: the device's open session is answered again.
  const session = (variants.on("session-token-per-device") ? earlier[0] : undefined) ?? {
    id: state.nextId(),
    token: state.token(),
    userId,
    deviceId: device.id,
    // Fault session-bound-to-opening-ip: the session is bound to the address that opened it, not to the device's.
    ips: faults.on("session-bound-to-opening-ip") ? [callerIp] : device.ips,
  };
  // Variant new-session-ends-previous: one open session per device.
  if (variants.on("new-session-ends-previous")) for (const old of earlier) state.sessions.delete(old.token);
  state.sessions.set(session.token, session);
  return session;
}

/** The session's user, as UserPerson with its own id (AUTH-008). */
function sessionUser(ctx: ReferenceContext, user: User): Record<string, unknown> {
  const userId = ctx.faults.on("session-user-id-off-by-one") ? user.id + 1 : user.id;
  // Fault session-user-id-string: the id is serialised as text.
  const id = ctx.faults.on("session-user-id-string") ? String(userId) : userId;
  // Variant session-user-api-key: the user behind an API key of another user (conventions §4 allows any of three keys).
  if (ctx.variants.on("session-user-api-key")) {
    return {
      UserApiKey: {
        id,
        created: user.created,
        updated: user.created,
        requested_by_user: { UserPerson: { id, display_name: user.displayName } },
      },
    };
  }
  return {
    UserPerson: {
      id,
      created: user.created,
      updated: user.created,
      display_name: user.displayName,
      public_nick_name: user.displayName,
      session_timeout: 604800,
    },
  };
}
