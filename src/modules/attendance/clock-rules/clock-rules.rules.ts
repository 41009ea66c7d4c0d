import ipaddr from "ipaddr.js";

/** The rules a punch can break, as the 403 CLOCK_RULE names them. */
export enum ClockRuleName {
  OUTSIDE_GEOFENCE = "OUTSIDE_GEOFENCE",
  NETWORK_NOT_ALLOWED = "NETWORK_NOT_ALLOWED",
  UNKNOWN_DEVICE = "UNKNOWN_DEVICE",
  TOO_EARLY = "TOO_EARLY",
  NOT_SCHEDULED = "NOT_SCHEDULED",
}

/** One broken rule: which, the input field it concerns, and its figures in words. */
export interface BrokenRule {
  rule: ClockRuleName;
  field: string;
  message: string;
}

export interface Geofence {
  latitude: number;
  longitude: number;
  radiusMeters: number;
}

const EARTH_RADIUS_METERS = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in metres (haversine; under a metre off at fence sizes). */
export function distanceMeters(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Inside the fence when the reported position is within the radius plus its accuracy: the device
 * may be anywhere in its accuracy circle, so the worker gets the benefit of the doubt, but never
 * more than the fence's own radius (a fix "accurate to 5 km" does not open a 50 m fence).
 */
export function geofenceBreach(
  fence: Geofence,
  position: { latitude?: number | null; longitude?: number | null; accuracyMeters?: number | null },
): BrokenRule | null {
  if (position.latitude == null || position.longitude == null) {
    return { rule: ClockRuleName.OUTSIDE_GEOFENCE, field: "latitude", message: "The location has a geofence: the punch needs latitude and longitude" };
  }
  const distance = distanceMeters(fence, { latitude: position.latitude, longitude: position.longitude });
  const allowance = Math.min(Math.max(position.accuracyMeters ?? 0, 0), fence.radiusMeters);
  if (distance <= fence.radiusMeters + allowance) return null;
  const meters = Math.round(distance);
  return {
    rule: ClockRuleName.OUTSIDE_GEOFENCE,
    field: "latitude",
    message: `The punch is ${meters} m from the location, outside its ${fence.radiusMeters} m geofence (accuracy counted: ${Math.round(allowance)} m)`,
  };
}

/** A CIDR as stored: valid, in its normal form (`10.0.0.0/8`, `2001:db8::/32`); null when it is not one. */
export function normalCidr(value: string): string | null {
  try {
    const [address, bits] = ipaddr.parseCIDR(value.trim());
    return `${address.toString()}/${bits}`;
  } catch {
    return null;
  }
}

/** Whether the address lies in one of the networks; an IPv4-mapped IPv6 address counts as its IPv4 address. */
export function inNetworks(address: string | undefined, networks: readonly string[]): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return networks.some((cidr) => {
    const [network, bits] = ipaddr.parseCIDR(cidr);
    return network.kind() === parsed.kind() && parsed.match(network, bits);
  });
}

export function networkBreach(address: string | undefined, networks: readonly string[]): BrokenRule | null {
  if (!networks.length || inNetworks(address, networks)) return null;
  return {
    rule: ClockRuleName.NETWORK_NOT_ALLOWED,
    field: "network",
    message: `The punch comes from ${address ?? "an unknown address"}, outside the location's allowed networks (${networks.join(", ")})`,
  };
}

/** Minutes of a clock-in before the scheduled start beyond the allowed window; null when within it. */
export function earlyBreach(at: Date, scheduledStart: Date, earlyMinutes: number): BrokenRule | null {
  const early = Math.floor((scheduledStart.getTime() - at.getTime()) / 60_000);
  if (early <= earlyMinutes) return null;
  return {
    rule: ClockRuleName.TOO_EARLY,
    field: "time",
    message: `The clock-in is ${early} minutes before the scheduled start; the location allows ${earlyMinutes}`,
  };
}
