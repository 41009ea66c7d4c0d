import { lookup as dnsLookup, LookupAddress } from "node:dns";
import { promises as dns } from "node:dns";
import { BlockList, isIP } from "node:net";
import { invalidField } from "../../errors/app-error";

/** Addresses no webhook may reach unless private targets are allowed: private, loopback, link-local, and other non-public ranges. */
const NON_PUBLIC = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24], ["203.0.113.0", 24],
  ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) NON_PUBLIC.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["2001:db8::", 32], ["64:ff9b::", 96]] as const) {
  NON_PUBLIC.addSubnet(net, bits, "ipv6");
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]);
    return !NON_PUBLIC.check(address, "ipv6");
  }
  return !NON_PUBLIC.check(address, "ipv4");
}

/** Where a developer's receiver on their own machine is refused, the refusal names the setting that allows it. */
const DEVELOPMENT_TARGETS = "WEBHOOK_ALLOW_PRIVATE_TARGETS=true allows plain http and private or loopback targets, for development";

/** Refuses a URL that is not https (or http when private targets are allowed) or whose host resolves to a non-public address. */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidField("url", "url must be an absolute URL");
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) throw invalidField("url", `url must use https (${DEVELOPMENT_TARGETS})`);
  if (url.username || url.password) throw invalidField("url", "url must not carry credentials");
  if (allowPrivate) return url.toString();
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw invalidField("url", `The host ${host} does not resolve`);
  }
  if (!addresses.length || !addresses.every(isPublicAddress)) throw invalidField("url", `url must resolve to public addresses only (${DEVELOPMENT_TARGETS})`);
  return url.toString();
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for outgoing connections that refuses non-public addresses: the check happens on the
 * address actually connected to, so a DNS answer that changed since the endpoint was saved (or
 * changes between a check and the connection) cannot reach an inner network.
 */
export function publicOnlyLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    const refused = list.find((a) => !isPublicAddress(a.address));
    if (refused || !list.length) {
      const error: NodeJS.ErrnoException = new Error(`${hostname} resolves to a non-public address`);
      error.code = "ENONPUBLIC";
      return callback(error, []);
    }
    if ((options as { all?: boolean }).all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}
