import { createPublicKey } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { badRequest, unauthorized } from "../http-error.js";
import { objectBody, sendItems, type ReferenceContext, type ResourceModule } from "../module.js";
import { serverKey } from "../server-key.js";
import { timestamp } from "../time.js";

const AUTH = ["authentication"];

function tokenObject(id: number, token: string) {
  const now = timestamp();
  return { Token: { id, created: now, updated: now, token } };
}

function stringField(body: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = body[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== "string" || value === "") throw badRequest(`Field ${name} must be a non-empty string.`);
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
  register(app, ctx) {
    const { state, faults } = ctx;
    const lockedInstallations = new Set<string>();

    app.post("/v1/installation", { config: { auth: "none" } }, async (request, reply) => {
      const body = objectBody(request);
      const pem = stringField(body, "client_public_key", true)!;
      if (!faults.on("installation-accepts-non-pem")) {
        let type: string | undefined;
        try {
          type = createPublicKey(pem).asymmetricKeyType;
        } catch {
          throw badRequest("client_public_key is not a PEM public key.");
        }
        if (type !== "rsa" || !pem.includes("-----BEGIN")) throw badRequest("client_public_key must be a PEM RSA public key.");
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
      const description = stringField(body, "description", !faults.on("device-server-description-optional")) ?? "";
      const secret = stringField(body, "secret", true)!;
      const permitted = parsePermittedIps(body.permitted_ips);
      const installation = state.installations.get(request.installationToken!)!;
      const ip = request.callerIp;
      let key = state.apiKeys.get(secret);
      if (!key && faults.on("device-server-unknown-key-accepted")) key = [...state.apiKeys.values()][0];
      if (!key) throw badRequest("Incorrect API key or IP address.");
      const lockedHere = faults.on("lockout-per-installation") ? lockedInstallations.has(`${installation.token}|${key.key}`) : key.lockedIps.has(ip);
      if (lockedHere) throw badRequest("Incorrect API key or IP address.");
      if (permitted && !permitted.includes(ip) && !faults.on("permitted-ips-not-enforced")) {
        if (faults.on("lockout-per-installation")) lockedInstallations.add(`${installation.token}|${key.key}`);
        else if (!faults.on("lockout-not-applied")) key.lockedIps.add(ip);
        throw badRequest("The calling IP address is not in permitted_ips.");
      }
      if (key.boundIps && !key.boundIps.has(ip) && !faults.on("key-rebinds-from-new-ip")) {
        throw badRequest("Incorrect API key or IP address.");
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
      const secret = stringField(body, "secret", true)!;
      const installation = state.installations.get(request.installationToken!)!;
      const devices = installation.deviceIds.map((id) => state.devices.get(id)!);
      let device = devices.find((d) => d.apiKey === secret);
      if (!device && faults.on("session-secret-not-checked")) device = devices[0];
      if (!device && faults.on("session-without-device") && state.apiKeys.has(secret)) {
        device = { id: state.nextId(), installationToken: installation.token, apiKey: secret, description: "", ips: [request.callerIp] };
        state.devices.set(device.id, device);
      }
      if (!device) throw badRequest("No device is registered for this installation and API key.");
      if (faults.on("session-server-once-per-device") && [...state.sessions.values()].some((s) => s.deviceId === device.id)) {
        throw badRequest("A session is already open for this device.");
      }
      if (!device.ips.includes(request.callerIp)) throw badRequest("Incorrect API key or IP address.");
      const key = state.apiKeys.get(device.apiKey);
      if (!key) throw unauthorized();
      const user = state.users.get(key.userId)!;
      const session = { id: state.nextId(), token: state.token(), userId: user.id, deviceId: device.id, ips: device.ips };
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

function parsePermittedIps(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw badRequest("permitted_ips must be an array of IP addresses.");
  return (value as string[]).map((v) => v.replace(/^::ffff:/, ""));
}

export type { FastifyRequest, ReferenceContext };
