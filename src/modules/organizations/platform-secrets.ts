import { randomBytes } from "node:crypto";
import { closeSync, constants, fchmodSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import type { UnitOfWork } from "../../database/unit-of-work";
import { hashSecret, newSecret, sameHash } from "../../auth/secrets";
import { Config } from "../../config";
import { keepSetting } from "./platform-settings.store";

/**
 * The platform's own secrets: the key that may create organizations (kept hashed) and the token
 * signing secret. Set in the environment, or generated at the first start and kept in the
 * database so that every process of the service shares them.
 */
export class PlatformSecrets {
  private constructor(
    private readonly platformKeyHash: string,
    readonly jwtSecret: string,
  ) {}

  static async load(unitOfWork: UnitOfWork, config: Config, announce: (message: string) => void): Promise<PlatformSecrets> {
    let platformKeyHash: string;
    if (config.platformApiKey) {
      platformKeyHash = hashSecret(config.platformApiKey);
    } else {
      const generated = newSecret("wfp");
      const { value, created } = await unitOfWork.run((manager) => keepSetting(manager, "platform_key_hash", hashSecret(generated)));
      if (created)
        announce(
          `Generated the platform API key and wrote it to ${keepGeneratedKey(config.dataDir, generated)} (readable by this user only): keep it somewhere safe and delete the file`,
        );
      platformKeyHash = value;
    }
    const jwtSecret = config.jwtSecret ?? (await unitOfWork.run((manager) => keepSetting(manager, "jwt_secret", randomBytes(32).toString("base64url")))).value;
    return new PlatformSecrets(platformKeyHash, jwtSecret);
  }

  isPlatformKey(presented: string | null): boolean {
    return presented !== null && sameHash(hashSecret(presented), this.platformKeyHash);
  }
}

/**
 * Writes a generated platform key beside the data directory (as its lock is), readable by its owner
 * only: a key is a credential, and logs are read by more people than the operator.
 */
function keepGeneratedKey(dataDir: string, key: string): string {
  const file = `${path.resolve(dataDir === "memory://" ? ".data" : dataDir)}.platform-key`;
  mkdirSync(path.dirname(file), { recursive: true });
  // A file left there (another user's, a wider mode, a symbolic link to elsewhere) is not written
  // through: it is removed, and the key goes into a new file only this user can read.
  rmSync(file, { force: true });
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, `${key}\n`);
  } finally {
    closeSync(fd);
  }
  return file;
}
