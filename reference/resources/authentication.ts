import { createPublicKey } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { HttpError, unauthorized } from "../http-error.js";
import { objectBody, sendItems, type ReferenceContext, type ResourceModule } from "../module.js";
import { serverKey } from "../server-key.js";
import { timestamp } from "../time.js";

const AUTH = ["authentication"];

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
  faults: [
    { name: "installation-accepts-non-pem", requirement: "AUTH-002", description: "POST /installation accepts a client_public_key that is not a PEM RSA public key.", suites: AUTH },
    { name: "installation-no-server-key", requirement: "AUTH-001", description: "POST /installation leaves out ServerPublicKey.", suites: AUTH },
    { name: "installation-answers-201", requirement: "ERR-008", description: "POST /installation answers 201 instead of 200.", suites: AUTH },
    { name: "installation-envelope-merged", requirement: "ERR-004", description: "POST /installation puts Id, Token and ServerPublicKey under one Response element.", suites: AUTH },
    { name: "device-server-description-optional", requirement: "AUTH-021", description: "POST /device-server without a description registers the device.", suites: AUTH },
    { name: "session-server-once-per-device", requirement: "AUTH-020", description: "A second POST /session-server on the same installation and device is refused.", suites: AUTH },
    { name: "device-server-no-id", requirement: "AUTH-003", description: "POST /device-server answers an empty Response.", suites: AUTH },
    { name: "device-server-unknown-key-accepted", requirement: "AUTH-010", description: "POST /device-server registers an unknown API key (as the first user).", suites: AUTH },
    { name: "permitted-ips-not-enforced", requirement: "AUTH-012", description: "POST /device-server accepts permitted_ips that lack the caller.", suites: AUTH },
    { name: "lockout-not-applied", requirement: "AUTH-012", description: "A refused device registration does not lock the key out for the caller.", suites: AUTH },
    { name: "permitted-ips-first-only", requirement: "AUTH-013", description: "Only the first address of permitted_ips is bound.", suites: AUTH },
    { name: "lockout-per-installation", requirement: "AUTH-012", description: "The lock-out after a refused permitted_ips registration applies to that installation only; a new installation from the same address registers the key.", suites: AUTH },
    { name: "key-rebinds-from-new-ip", requirement: "AUTH-014", description: "A bound key can register a device from any other address.", suites: AUTH },
    { name: "session-without-device", requirement: "AUTH-007", description: "POST /session-server works on an installation with no registered device.", suites: AUTH },
    { name: "session-secret-not-checked", requirement: "AUTH-018", description: "POST /session-server ignores the secret and opens a session for the device's key.", suites: AUTH },
    { name: "session-user-id-off-by-one", requirement: "AUTH-008", description: "POST /session-server answers a user id one greater than the real one.", suites: AUTH },
  ],
  variants: [
    {
      name: "auth-refusals-403",
      description: "Every authentication refusal (missing, unknown or wrong-kind token, unbound IP address, lock-out, unknown API key, wrong secret, missing User-Agent) is answered 403.",
      allowedBy: "conventions §3, §4, §6 (any 4XX passes)",
      requirements: ["AUTH-004", "AUTH-005", "AUTH-006", "AUTH-007", "AUTH-009", "AUTH-010", "AUTH-011", "AUTH-012", "AUTH-014", "AUTH-018", "AUTH-024", "HDR-001"],
    },
    {
      name: "auth-token-refusals-400",
      description: "A missing, unknown or wrong-kind token is answered 400 instead of 401.",
      allowedBy: "conventions §3 (any 4XX passes)",
      requirements: ["AUTH-004", "AUTH-005", "AUTH-006", "AUTH-009", "AUTH-024"],
    },
    {
      name: "path-user-refusals-404",
      description: "A userID other than the session's, or one that names nobody, is answered 404 on every route, card routes included.",
      allowedBy: "conventions §6 (a userID other than the session's user → 4XX); GAP-69",
      requirements: ["AUTH-015", "AUTH-022"],
    },
    {
      name: "request-id-reuse-409",
      description: "A reused X-Service-Client-Request-Id is answered 409 Conflict.",
      allowedBy: "banking-api.md Errors (the status of the duplicate-request-id error: not shown); conventions §3",
      requirements: ["HDR-002", "HDR-015"],
    },
    {
      name: "request-ids-session-calls-only",
      description: "Request ids are remembered on calls made with a session token only; POST /session-server never refuses a reused id.",
      allowedBy: "banking-api.md headers table (id unique for the logged-in user); GAP-60",
      requirements: ["HDR-015"],
    },
    {
      name: "auth-body-refusals-422",
      description: "POST /installation without a PEM RSA key and POST /device-server without description or secret are answered 422.",
      allowedBy: "conventions §4, §6 (any 4XX passes)",
      requirements: ["AUTH-002", "AUTH-021"],
    },
    {
      name: "session-token-per-device",
      description: "A second POST /session-server on the same installation and device answers the token of the session already open.",
      allowedBy: "banking-api.md Authentication (a session is opened with call 3; whether each call makes a new token is not shown)",
      requirements: ["AUTH-020"],
    },
    {
      name: "new-session-ends-previous",
      description: "POST /session-server ends the sessions the device had open: one open session per device.",
      allowedBy: "banking-api.md Authentication (how long a session lasts is not shown)",
      requirements: ["AUTH-020"],
    },
    {
      name: "client-signature-checked-when-sent",
      description: "Unsigned requests are served, but a request that carries a Client-Signature which does not verify is refused.",
      allowedBy: "conventions §3 (request signing is not required; the scheme is the provider's)",
      requirements: ["HDR-009"],
    },
  ],
  register(app, ctx) {
    const { state, faults } = ctx;
    const lockedInstallations = new Set<string>();
    const refuse: Refuse = (message) => new HttpError(faults.on("auth-refusals-403") ? 403 : 400, message);
    const invalid: Refuse = (message) => new HttpError(faults.on("auth-body-refusals-422") ? 422 : 400, message);

    app.post("/v1/installation", { config: { auth: "none" } }, async (request, reply) => {
      const body = objectBody(request);
      const pem = stringField(body, "client_public_key", true, invalid)!;
      if (!faults.on("installation-accepts-non-pem")) {
        let type: string | undefined;
        try {
          type = createPublicKey(pem).asymmetricKeyType;
        } catch {
          throw invalid("client_public_key is not a PEM public key.");
        }
        if (type !== "rsa" || !pem.includes("-----BEGIN")) throw invalid("client_public_key must be a PEM RSA public key.");
      }
      const id = state.nextId();
      const token = state.token();
      state.installations.set(token, { id, token, publicKeyPem: pem, deviceIds: [] });
      const items: Record<string, unknown>[] = [{ Id: { id } }, tokenObject(state.nextId(), token)];
      if (!faults.on("installation-no-server-key")) items.push({ ServerPublicKey: { server_public_key: serverKey().publicKeyPem } });
      if (faults.on("installation-envelope-merged")) return reply.code(200).send({ Response: [Object.assign({}, ...items)] });
      if (faults.on("installation-answers-201")) reply.code(201);
      else reply.code(200);
      return reply.type("application/json").send({ Response: items });
    });

    app.post("/v1/device-server", { config: { auth: "installation" } }, async (request, reply) => {
      const body = objectBody(request);
      const description = stringField(body, "description", !faults.on("device-server-description-optional"), invalid) ?? "";
      const secret = stringField(body, "secret", true, invalid)!;
      const permitted = parsePermittedIps(body.permitted_ips, invalid);
      const installation = state.installations.get(request.installationToken!)!;
      const ip = request.callerIp;
      let key = state.apiKeys.get(secret);
      if (!key && faults.on("device-server-unknown-key-accepted")) key = [...state.apiKeys.values()][0];
      if (!key) throw refuse("Incorrect API key or IP address.");
      const lockedHere = faults.on("lockout-per-installation") ? lockedInstallations.has(`${installation.token}|${key.key}`) : key.lockedIps.has(ip);
      if (lockedHere) throw refuse("Incorrect API key or IP address.");
      if (permitted && !permitted.includes(ip) && !faults.on("permitted-ips-not-enforced")) {
        if (faults.on("lockout-per-installation")) lockedInstallations.add(`${installation.token}|${key.key}`);
        else if (!faults.on("lockout-not-applied")) key.lockedIps.add(ip);
        throw refuse("The calling IP address is not in permitted_ips.");
      }
      if (key.boundIps && !key.boundIps.has(ip) && !faults.on("key-rebinds-from-new-ip")) {
        throw refuse("Incorrect API key or IP address.");
      }
      let ips = permitted ?? [ip];
      if (faults.on("permitted-ips-first-only")) ips = ips.slice(0, 1);
      if (faults.on("permitted-ips-not-enforced") && !ips.includes(ip)) ips = [...ips, ip];
      key.boundIps = new Set([...(key.boundIps ?? []), ...ips]);
      const device = { id: state.nextId(), installationToken: installation.token, apiKey: key.key, description, ips };
      state.devices.set(device.id, device);
      installation.deviceIds.push(device.id);
      return sendItems(reply, faults.on("device-server-no-id") ? [] : [{ Id: { id: device.id } }]);
    });

    app.post("/v1/session-server", { config: { auth: "installation" } }, async (request, reply) => {
      const body = objectBody(request);
      const secret = stringField(body, "secret", true, invalid)!;
      const installation = state.installations.get(request.installationToken!)!;
      const devices = installation.deviceIds.map((id) => state.devices.get(id)!);
      let device = devices.find((d) => d.apiKey === secret);
      if (!device && faults.on("session-secret-not-checked")) device = devices[0];
      if (!device && faults.on("session-without-device") && state.apiKeys.has(secret)) {
        device = { id: state.nextId(), installationToken: installation.token, apiKey: secret, description: "", ips: [request.callerIp] };
        state.devices.set(device.id, device);
      }
      if (!device) throw refuse("No device is registered for this installation and API key.");
      if (faults.on("session-server-once-per-device") && [...state.sessions.values()].some((s) => s.deviceId === device.id)) {
        throw refuse("A session is already open for this device.");
      }
      if (!device.ips.includes(request.callerIp)) throw refuse("Incorrect API key or IP address.");
      const key = state.apiKeys.get(device.apiKey);
      if (!key) throw unauthorized();
      const user = state.users.get(key.userId)!;
      const earlier = [...state.sessions.values()].filter((s) => s.deviceId === device.id);
      // Variant session-token-per-device: the device's open session is answered again.
      const session = (faults.on("session-token-per-device") ? earlier[0] : undefined) ?? { id: state.nextId(), token: state.token(), userId: user.id, deviceId: device.id, ips: device.ips };
      // Variant new-session-ends-previous: one open session per device.
      if (faults.on("new-session-ends-previous")) for (const old of earlier) state.sessions.delete(old.token);
      state.sessions.set(session.token, session);
      const shownId = faults.on("session-user-id-off-by-one") ? user.id + 1 : user.id;
      return sendItems(reply, [
        { Id: { id: session.id } },
        tokenObject(state.nextId(), session.token),
        // Variant session-user-api-key: the user behind an API key of another user (conventions §4 allows any of three keys).
        faults.on("session-user-api-key")
          ? { UserApiKey: { id: shownId, created: user.created, updated: user.created, requested_by_user: { UserPerson: { id: shownId, display_name: user.displayName } } } }
          : { UserPerson: { id: shownId, created: user.created, updated: user.created, display_name: user.displayName, public_nick_name: user.displayName, session_timeout: 604800 } },
      ]);
    });
  },
};

function parsePermittedIps(value: unknown, invalid: Refuse): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw invalid("permitted_ips must be an array of IP addresses.");
  return (value as string[]).map((v) => v.replace(/^::ffff:/, ""));
}

export type { FastifyRequest, ReferenceContext };
