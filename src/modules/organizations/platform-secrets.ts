import { randomBytes } from "node:crypto";
import { DataSource } from "typeorm";
import { hashSecret, newSecret, sameHash } from "../../auth/secrets";
import { Config } from "../../config";

/**
 * The platform's own secrets: the key that may create organizations (kept hashed) and the token
 * signing secret. Set in the environment, or generated at the first start and kept in the
 * database so that every process of the service shares them.
 */
export class PlatformSecrets {
  private constructor(private readonly platformKeyHash: string, readonly jwtSecret: string) {}

  static async load(db: DataSource, config: Config, announce: (message: string) => void): Promise<PlatformSecrets> {
    let platformKeyHash: string;
    if (config.platformApiKey) {
      platformKeyHash = hashSecret(config.platformApiKey);
    } else {
      const generated = newSecret("wfp");
      const { value, created } = await keep(db, "platform_key_hash", hashSecret(generated));
      if (created) announce(`Generated the platform API key (shown only this once): ${generated}`);
      platformKeyHash = value;
    }
    const jwtSecret = config.jwtSecret ?? (await keep(db, "jwt_secret", randomBytes(32).toString("base64url"))).value;
    return new PlatformSecrets(platformKeyHash, jwtSecret);
  }

  isPlatformKey(presented: string | null): boolean {
    return presented !== null && sameHash(hashSecret(presented), this.platformKeyHash);
  }
}

/** Stores `value` under `key` unless another process got there first; answers the kept value. */
async function keep(db: DataSource, key: string, value: string): Promise<{ value: string; created: boolean }> {
  const inserted = await db.query(
    "INSERT INTO platform_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING value",
    [key, value],
  );
  if (inserted.length) return { value, created: true };
  const [row] = await db.query("SELECT value FROM platform_settings WHERE key = $1", [key]);
  return { value: row.value, created: false };
}
