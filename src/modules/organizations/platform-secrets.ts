import { randomBytes } from "node:crypto";
import { DataSource } from "typeorm";
import { hashSecret, newSecret, sameHash } from "../../auth/secrets";
import { Config } from "../../config";
import { keepSetting } from "./platform-settings.store";

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
      const { value, created } = await keepSetting(db, "platform_key_hash", hashSecret(generated));
      if (created) announce(`Generated the platform API key (shown only this once): ${generated}`);
      platformKeyHash = value;
    }
    const jwtSecret = config.jwtSecret ?? (await keepSetting(db, "jwt_secret", randomBytes(32).toString("base64url"))).value;
    return new PlatformSecrets(platformKeyHash, jwtSecret);
  }

  isPlatformKey(presented: string | null): boolean {
    return presented !== null && sameHash(hashSecret(presented), this.platformKeyHash);
  }
}
