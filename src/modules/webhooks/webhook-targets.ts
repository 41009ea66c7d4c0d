import { lookup as dnsLookup, LookupAddress } from "node:dns";
import { promises as dns } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { invalidField } from "../../errors/app-error";

/**
 * Whether a webhook may reach an address: only ordinary unicast, as ipaddr.js classifies it. Every
 * special range is refused: private, loopback, link-local, documentation, and the IPv6 forms that
 * carry or reach an IPv4 address (mapped ::ffff:0:0/96, which is judged as the IPv4 address it is;
 * compatible ::/96; 6to4 2002::/16 and its relays 192.88.99.0/24; NAT64 64:ff9b::/96 and
 * 64:ff9b:1::/48; Teredo 2001::/32), and deprecated site-local fec0::/10.
 */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== "unicast") return false;
  return !(parsed instanceof ipaddr.IPv6 && parsed.match(IPV4_COMPATIBLE));
}

/** ::a.b.c.d, which ipaddr.js leaves as unicast. */
const IPV4_COMPATIBLE: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse("::"), 96];

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
