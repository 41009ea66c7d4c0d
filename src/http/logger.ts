import pino, { DestinationStream, Logger } from "pino";

/** Names under which a credential travels: never written to the log. */
const CREDENTIAL_NAMES = ["token", "accessToken", "apiKey", "api_key", "authorization", "Authorization", "secret", "jwtSecret", "password"];

/** Those names at the top of a log line and up to three levels down (pino's paths match one level per `*`). */
const REDACTED_PATHS = CREDENTIAL_NAMES.flatMap((name) => [name, `*.${name}`, `*.*.${name}`, `*.*.*.${name}`]);

const CREDENTIAL_PARAMETER = new RegExp(`^(${CREDENTIAL_NAMES.join("|")})$`, "i");

/** Paths whose last segment is itself a credential: a calendar feed's secret (the one credential a URL may carry). */
const CREDENTIAL_PATH = /^(\/+calendar\/)[^?#]*/i;

/**
 * A request URL fit for the log: the secret of a calendar feed's path and the values of query
 * parameters that carry credentials are replaced.
 */
export function loggableUrl(url: string): string {
  url = url.replace(CREDENTIAL_PATH, "$1[Redacted]");
  const query = url.indexOf("?");
  if (query < 0) return url;
  const params = url
    .slice(query + 1)
    .split("&")
    .map((pair) => {
      const name = pair.split("=", 1)[0];
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // A malformed name is logged as it came; its value is still checked by the raw name.
      }
      return CREDENTIAL_PARAMETER.test(decoded) || CREDENTIAL_PARAMETER.test(name) ? `${name}=[Redacted]` : pair;
    });
  return `${url.slice(0, query)}?${params.join("&")}`;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, base: { service: "workforce" }, timestamp: pino.stdTimeFunctions.isoTime, redact: { paths: REDACTED_PATHS, censor: "[Redacted]" } },
    destination,
  );
}
