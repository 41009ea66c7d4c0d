import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";

/** Express's compiled `trust proxy` setting: whether the hop at `address` (the i-th from the service) is a trusted proxy. */
export type TrustProxy = (address: string, i: number) => boolean;

/**
 * The client's address as Express's `req.ip` has it, for requests Express does not see (WebSocket
 * upgrades): the nearest hop that is not a trusted proxy, reading X-Forwarded-For from the right.
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string {
  const forwarded = String(req.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean)
    .reverse();
  const hops = [req.socket.remoteAddress ?? "unknown", ...forwarded];
  let i = 0;
  while (i < hops.length - 1 && trust(hops[i], i)) i += 1;
  return hops[i];
}

/**
 * The group of addresses one budget counts for: an IPv4 address itself, an IPv6 address its /64
 * (one subscriber's network: a host may take any address of it), an IPv4-mapped IPv6 address its IPv4.
 */
export function addressGroup(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(":")}::/64`;
}
