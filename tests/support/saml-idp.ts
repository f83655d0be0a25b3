import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import * as samlify from "samlify";

const POST = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";
const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

export interface SamlIdp {
  /** The IdP's SSO URL (SWITCHBOARD_SAML_ENTRY_POINT) and entity ID (SWITCHBOARD_SAML_ISSUER). */
  entryPoint: string;
  entityId: string;
  /** Its signing certificate, PEM (SWITCHBOARD_SAML_CERT). */
  cert: string;
  /** The person the next sign-in is (the test's stand-in for typing a password at the IdP). */
  account: string;
  /** People by account: their email. */
  people: Map<string, { email: string }>;
  /** The console as the IdP knows it: its entity ID and assertion consumer service URL. */
  serviceProvider: { entityId: string; acsUrl: string } | null;
  /** Sign the next responses with a key that is not the configured certificate's (a forger's). */
  forge: boolean;
  close(): Promise<void>;
}

/** An RSA key and a self-signed X.509 certificate for it (openssl makes the certificate). */
function keyAndCertificate(dir: string, name: string): { key: string; cert: string } {
  const key = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const keyFile = path.join(dir, `${name}.key`);
  const certFile = path.join(dir, `${name}.crt`);
  writeFileSync(keyFile, key);
  execFileSync("/usr/bin/openssl", ["req", "-x509", "-new", "-key", keyFile, "-out", certFile, "-days", "2", "-subj", `/CN=${name}`], { stdio: "ignore" });
  return { key, cert: readFileSync(certFile, "utf8") };
}

/**
 * A company SAML 2.0 identity provider for SSO tests: samlify's IdentityProvider on 127.0.0.1
 * with a fresh key and self-signed certificate. Its SSO URL reads the console's AuthnRequest
 * (HTTP-Redirect binding) and answers, as `account`, with the auto-submitting HTML form that
 * POSTs a signed SAMLResponse (assertion signed) to the console's ACS URL.
 */
export async function startSamlIdp(): Promise<SamlIdp> {
  // A stand-in IdP in a test: the console's own samlify validates what it receives.
  samlify.setSchemaValidator({ validate: async () => "skipped in the test IdP" });
  const dir = mkdtempSync(path.join(os.tmpdir(), "saml-idp-"));
  const real = keyAndCertificate(dir, "idp");
  const forger = keyAndCertificate(dir, "forger");
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const entryPoint = `${origin}/sso`;
  const state: SamlIdp = { entryPoint, entityId: `${origin}/metadata`, cert: real.cert, account: "carol", people: new Map(), serviceProvider: null, forge: false, close: async () => undefined };
  const identityProvider = (keys: { key: string; cert: string }) =>
    samlify.IdentityProvider({
      entityID: state.entityId,
      privateKey: keys.key,
      signingCert: keys.cert,
      nameIDFormat: ["urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"],
      singleSignOnService: [{ Binding: REDIRECT, Location: entryPoint }],
    });
  const idps = { real: identityProvider(real), forger: identityProvider(forger) };

  server.on("request", async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", origin);
      if (url.pathname !== "/sso" || !state.serviceProvider) return void res.writeHead(404).end();
      const sp = samlify.ServiceProvider({
        entityID: state.serviceProvider.entityId,
        assertionConsumerService: [{ Binding: POST, Location: state.serviceProvider.acsUrl }],
        wantAssertionsSigned: true,
      });
      const query = Object.fromEntries(url.searchParams);
      const request = await idps.real.parseLoginRequest(sp, "redirect", { query, octetString: url.search.slice(1) });
      const person = state.people.get(state.account);
      if (!person) return void res.writeHead(403).end(`no such person: ${state.account}`);
      const signer = state.forge ? idps.forger : idps.real;
      const response = (await signer.createLoginResponse(sp, { ...request }, "post", { email: person.email }, { relayState: query.RelayState })) as { context: string; entityEndpoint: string };
      const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
      res.writeHead(200, { "content-type": "text/html" }).end(
        `<!DOCTYPE html><html><body onload="document.forms[0].submit()"><form method="POST" action="${escape(response.entityEndpoint)}">` +
          `<input type="hidden" name="SAMLResponse" value="${escape(response.context)}"/>` +
          (query.RelayState ? `<input type="hidden" name="RelayState" value="${escape(query.RelayState)}"/>` : "") +
          `</form></body></html>`,
      );
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  state.close = () =>
    new Promise<void>((resolve) => {
      rmSync(dir, { recursive: true, force: true });
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
