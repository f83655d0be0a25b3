import crypto from "node:crypto";

// No configuration here: the relay hashes agent tokens with it and imports only leaf files.

/** A new random bearer token with a readable prefix, e.g. `sb_…`. */
export function newToken(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(32).toString("base64url")}`;
}

/** Tokens are high-entropy random strings, so a plain SHA-256 is the right lookup hash. */
export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}
