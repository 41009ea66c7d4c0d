import { jwtVerify, SignJWT, errors as joseErrors } from "jose";
import { unauthenticated } from "../errors/app-error";

const ISSUER = "workforce-service";
const AUDIENCE = "workforce-api";
const ALGORITHM = "HS256";

export interface TokenClaims {
  organizationId: string;
  apiKeyId: string;
  staffId: string | null;
}

/** Signs and verifies the short-lived bearer tokens handed out by the token exchange. */
export class TokenSigner {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  get lifetimeSeconds(): number {
    return this.ttlSeconds;
  }

  async sign(claims: TokenClaims, now: Date): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({ org: claims.organizationId, key: claims.apiKeyId })
      .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(claims.staffId ?? `apikey:${claims.apiKeyId}`)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.ttlSeconds)
      .sign(this.key);
  }

  async verify(token: string, now: Date): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: now,
        requiredClaims: ["exp", "sub", "org", "key"],
      });
      const sub = String(payload.sub);
      return {
        organizationId: String(payload.org),
        apiKeyId: String(payload.key),
        staffId: sub.startsWith("apikey:") ? null : sub,
      };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired)
        throw unauthenticated("The access token has expired: exchange the API key again (POST /api/auth/token-exchange) for a new one");
      throw unauthenticated("The access token is invalid: exchange the API key again (POST /api/auth/token-exchange) for a new one");
    }
  }
}
