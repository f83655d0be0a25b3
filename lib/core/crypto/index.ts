import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/core/config";

export { hashToken, newToken } from "./tokens";

let cachedKey: Buffer | undefined;

/**
 * The 32-byte key for secrets at rest: derived from SWITCHBOARD_SECRET, or generated once into
 * ./data/secret.key (mode 0600).
 */
export function secretKey(): Buffer {
  if (cachedKey) return cachedKey;
  const fromEnv = config().secret;
  let material: string;
  if (fromEnv) {
    material = fromEnv;
  } else {
    const file = path.resolve(process.cwd(), "data", "secret.key");
    if (!fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      try {
        fs.writeFileSync(file, crypto.randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
    }
    material = fs.readFileSync(file, "utf8").trim();
  }
  cachedKey = Buffer.from(crypto.hkdfSync("sha256", material, "switchboard", "secrets-at-rest", 32));
  return cachedKey;
}

/** A string derived from the secret key, for libraries that want their own secret (better-auth). */
export function derivedSecret(purpose: string): string {
  return Buffer.from(crypto.hkdfSync("sha256", secretKey(), "switchboard", purpose, 32)).toString("base64");
}

/** AES-256-GCM encryption of a JSON value. Output: v1.<iv>.<tag>.<ciphertext>, base64url parts. */
export function encryptJson(value: unknown): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", secretKey(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export function decryptJson<T>(sealed: string): T {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("Unrecognised secret format");
  const decipher = crypto.createDecipheriv("aes-256-gcm", secretKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  const plain = Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]);
  return JSON.parse(plain.toString("utf8")) as T;
}
