import { readFileSync, statSync } from "node:fs";
import { rootCertificates } from "node:tls";
import { dirname, resolve } from "node:path";
import { ConfigError } from "../profile/config-error.js";
import { registerSecret } from "../redact.js";

/**
 * TLS towards a target (profile `tls:`): a private CA for staging servers, a client certificate for
 * mutual TLS, or no verification at all for a throw-away test server. The profile holds file paths
 * (absolute after loading); the PEM contents are read when the client is made, so a private key is
 * never part of the profile that is handed around and printed.
 */
export interface TlsFiles {
  /** PEM file with the CA certificate(s) to trust besides the system ones. */
  ca?: string;
  /** PEM client certificate (mutual TLS); needs key. */
  cert?: string;
  /** PEM private key of the client certificate; needs cert. */
  key?: string;
  /** false: accept any server certificate (test servers only). Default true. */
  rejectUnauthorized?: boolean;
}

/** What undici's connect options take. */
export interface TlsConnectOptions {
  ca?: string[];
  cert?: string;
  key?: string;
  rejectUnauthorized?: boolean;
}

const FILE_FIELDS = ["ca", "cert", "key"] as const;

/** Checks the profile's tls block at load: every file readable and PEM, cert and key together; paths made absolute. */
export function loadTlsFiles(raw: TlsFiles, targetsFile: string, where: string): TlsFiles {
  const out: TlsFiles = {};
  for (const field of FILE_FIELDS) {
    const value = raw[field];
    if (value === undefined) continue;
    const path = resolve(dirname(targetsFile), value);
    const text = readPem(path, `${where}: field "tls.${field}"`);
    if (field === "key" && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
      throw new ConfigError(`${where}: field "tls.key": ${path} holds no PEM private key (no "-----BEGIN … PRIVATE KEY-----" line)`);
    }
    if (field !== "key" && !text.includes("-----BEGIN CERTIFICATE-----")) {
      throw new ConfigError(`${where}: field "tls.${field}": ${path} holds no PEM certificate (no "-----BEGIN CERTIFICATE-----" line)`);
    }
    out[field] = path;
  }
  if ((out.cert === undefined) !== (out.key === undefined)) {
    throw new ConfigError(`${where}: field "tls.${out.cert ? "key" : "cert"}": a client certificate needs both tls.cert and tls.key`);
  }
  if (raw.rejectUnauthorized !== undefined) out.rejectUnauthorized = raw.rejectUnauthorized;
  return out;
}

function readPem(path: string, where: string): string {
  let text: string;
  try {
    if (statSync(path).isDirectory()) throw new ConfigError(`${where}: ${path} is a directory, expected a PEM file`);
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${where}: cannot read ${path} (${fileProblem(error)})`);
  }
  return text;
}

/** A file system error in words: "no such file", "permission denied", or the code. */
export function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const plain: Record<string, string> = {
    ENOENT: "no such file",
    EACCES: "permission denied",
    EPERM: "permission denied",
    EISDIR: "is a directory",
    ENOTDIR: "a part of the path is not a directory",
    ELOOP: "too many symbolic links",
  };
  return (code && plain[code]) ?? code ?? String(error);
}

/** The connect options for undici: PEM contents, the private CA added to the system roots. */
export function tlsConnectOptions(files: TlsFiles | undefined): TlsConnectOptions | undefined {
  if (!files) return undefined;
  const read = (path: string) => readFileSync(path, "utf8");
  const out: TlsConnectOptions = {};
  if (files.ca) out.ca = [...rootCertificates, read(files.ca)];
  if (files.cert) out.cert = read(files.cert);
  if (files.key) {
    out.key = read(files.key);
    registerSecret(out.key, "private key");
  }
  if (files.rejectUnauthorized !== undefined) out.rejectUnauthorized = files.rejectUnauthorized;
  return out;
}

/** Certificate verification failures, in words a person can act on. */
const TLS_PROBLEMS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's certificate is self-signed and not trusted",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's certificate chain ends in a CA that is not trusted",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's certificate was issued by a CA that is not trusted",
  UNABLE_TO_GET_ISSUER_CERT: "the server's certificate was issued by a CA that is not trusted",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "the server's certificate was issued by a CA that is not trusted",
  CERT_UNTRUSTED: "the server's certificate is not trusted",
  CERT_HAS_EXPIRED: "the server's certificate has expired",
  CERT_NOT_YET_VALID: "the server's certificate is not valid yet",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's certificate is not for this host name",
};

/** A plain description of a TLS failure, or undefined when the error is not one. */
export function describeTlsProblem(code: string, message: string): string | undefined {
  const problem = TLS_PROBLEMS[code];
  if (problem) {
    return (
      `TLS: ${problem} (${code}); to trust a private CA set tls.ca in the profile to its PEM file, ` +
      `or tls.rejectUnauthorized: false for a test server`
    );
  }
  if (code.startsWith("ERR_SSL_") || code === "EPROTO" || /certificate required|handshake failure|alert/i.test(message)) {
    const hint = /certificate required|handshake/i.test(message)
      ? " (does the server want a client certificate? set tls.cert and tls.key)"
      : "";
    return `TLS handshake failed: ${message.split("\n")[0]}${hint} (${code || "TLS"})`;
  }
  return undefined;
}
