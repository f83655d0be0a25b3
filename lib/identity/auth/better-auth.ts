import "server-only";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { config } from "@/lib/core/config";
import { databaseProvider, prisma } from "@/lib/core/db/client";
import { operatorTrustedOrigins } from "@/lib/core/access";
import { derivedSecret } from "@/lib/core/crypto";
import { requestOrigin } from "./index";
import { authAuditHooks } from "./audit-hooks";
import { gatewayOAuthPlugins } from "./gateway-oauth";
import { operatorProvider, SSO_MANAGEMENT_PATHS, ssoDatabaseHooks, ssoPlugins, withOpenedProviderSecrets } from "@/lib/identity/sso/server";

/**
 * better-auth owns users, password hashing (scrypt) and browser sessions (signed cookies).
 * Public sign-up is off: the first account comes from set-up, later ones from an owner.
 */
export const auth = betterAuth({
  appName: "Switchboard",
  // No base URL on purpose: the console answers on whatever host name it is reached by (links follow
  // the request, or SWITCHBOARD_URL). A dynamic one ({ allowedHosts }) would refuse the server-side
  // token checks the gateway makes without a request, so only the warning about it is dropped.
  logger: { log: authLog },
  secret: config().betterAuthSecret ?? derivedSecret("better-auth"),
  database: prismaAdapter(withOpenedProviderSecrets(prisma), { provider: databaseProvider }),
  emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8 },
  // Declared so the sign-in answer carries the person's theme: the browser applies it before the console's first page.
  user: { additionalFields: { theme: { type: "string", required: false, input: false } } },
  session: { expiresIn: 60 * 60 * 24 * 30, cookieCache: { enabled: true, maxAge: 60 } },
  // Same-origin requests are trusted whatever host name the console is reached by.
  trustedOrigins: (request) => [...(request ? [requestOrigin(request)] : []), ...extraOrigins()],
  telemetry: { enabled: false },
  hooks: authAuditHooks,
  // Single sign-on (lib/identity/sso): a workspace that requires it refuses its members' passwords; IdP tokens are kept encrypted.
  databaseHooks: ssoDatabaseHooks,
  account: { encryptOAuthTokens: true },
  // Its limiter keys on X-Forwarded-For and one bucket per path: sign-in-limit.ts replaces it.
  rateLimit: { enabled: false },
  // Secure cookies whenever the console is reached over HTTPS (its configured URL says so).
  advanced: {
    useSecureCookies: config().secureCookies || config().url?.startsWith("https:") === true,
  },
  // The console is the OAuth authorization server of its gateway endpoints (docs/gateway.md).
  plugins: [...gatewayOAuthPlugins, ...ssoPlugins()],
  // Identity providers are registered by the operator or through the console's API (owners), never the plugin's own endpoints.
  disabledPaths: SSO_MANAGEMENT_PATHS,
});


function authLog(level: "debug" | "info" | "warn" | "error", message: string, ...args: unknown[]): void {
  if (level === "warn" && message.includes("Base URL is not set")) return;
  if (level === "debug") return;
  console[level === "info" ? "log" : level](message, ...args);
}

function extraOrigins(): string[] {
  // The operator's identity provider: better-auth fetches its endpoints only from trusted origins.
  const idp = operatorProvider()?.issuer;
  return [...operatorTrustedOrigins(), ...(idp ? [new URL(idp).origin] : [])];
}

/** Creates a credential account through better-auth's own adapter and password hasher. */
export async function createUserWithPassword(input: { name: string; email: string; password: string }) {
  const ctx = await auth.$context;
  const { minPasswordLength, maxPasswordLength } = ctx.password.config;
  if (input.password.length < minPasswordLength || input.password.length > maxPasswordLength) {
    throw new RangeError(`Password must be ${minPasswordLength}–${maxPasswordLength} characters`);
  }
  const hash = await ctx.password.hash(input.password);
  const user = await ctx.internalAdapter.createUser(
    { name: input.name, email: input.email.toLowerCase(), emailVerified: false },
    { method: "email-password" },
  );
  await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: hash });
  return user;
}

/**
 * The user with this email, or a new one without a password (provisioned by SCIM: they sign in
 * with the workspace's identity provider). Whether it was created.
 */
export async function findOrCreateUser(input: { name: string; email: string }): Promise<{ id: string; name: string; email: string; created: boolean }> {
  const ctx = await auth.$context;
  const email = input.email.toLowerCase();
  const found = await ctx.internalAdapter.findUserByEmail(email);
  if (found) return { id: found.user.id, name: found.user.name, email: found.user.email, created: false };
  const user = await ctx.internalAdapter.createUser({ name: input.name, email, emailVerified: true }, { method: "scim" });
  return { id: user.id, name: user.name, email: user.email, created: true };
}
