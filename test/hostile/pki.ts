// A throw-away PKI made with the openssl command line: a test CA, a server certificate for 127.0.0.1
// (and the names localhost, conformance.test), a client certificate for mutual TLS, and a self-signed one.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface TestPki {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  selfSignedCert: string;
  selfSignedKey: string;
  /** PEM contents by file path, for servers. */
  read(path: string): string;
}

// EC keys: made in milliseconds, where RSA-2048 takes a noticeable share of a small machine.
const NEW_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

export function makeTestPki(dir: string): TestPki {
  const p = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  openssl(
    "req",
    "-x509",
    ...NEW_KEY,
    "-keyout",
    p("ca.key"),
    "-out",
    p("ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=Conformance Test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  );
  const issue = (name: string, subject: string, extensions: string) => {
    writeFileSync(p(`${name}.ext`), extensions);
    openssl("req", ...NEW_KEY, "-keyout", p(`${name}.key`), "-out", p(`${name}.csr`), "-subj", subject);
    openssl(
      "x509",
      "-req",
      "-in",
      p(`${name}.csr`),
      "-CA",
      p("ca.pem"),
      "-CAkey",
      p("ca.key"),
      "-CAcreateserial",
      "-out",
      p(`${name}.pem`),
      "-days",
      "2",
      "-extfile",
      p(`${name}.ext`),
    );
  };
  issue("server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:conformance.test\nextendedKeyUsage=serverAuth\n");
  issue("client", "/CN=conformance client", "extendedKeyUsage=clientAuth\n");
  openssl(
    "req",
    "-x509",
    ...NEW_KEY,
    "-keyout",
    p("self.key"),
    "-out",
    p("self.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1",
  );
  return {
    dir,
    caCert: p("ca.pem"),
    serverCert: p("server.pem"),
    serverKey: p("server.key"),
    clientCert: p("client.pem"),
    clientKey: p("client.key"),
    selfSignedCert: p("self.pem"),
    selfSignedKey: p("self.key"),
    read: (path) => readFileSync(path, "utf8"),
  };
}
