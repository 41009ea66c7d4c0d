import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A new high-entropy secret with a readable prefix, such as `wfk_…` for API keys. */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString("base64url")}`;
}

/** Secrets carry 192 random bits, so a plain SHA-256 is enough to store them; no salt or stretching needed. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}
