import type { Logger } from "../../logger";
import type { OfflineGeodata } from "./offline";
import type { DistanceResult, GeoAddress, Geodata, GeoPoint } from "./port";

export interface RoutingGeodataOptions {
  /** The OSRM-compatible service (ROUTING_URL), e.g. http://127.0.0.1:5000. */
  url: string;
  /** How long one route may take before the estimate is used instead (ROUTING_TIMEOUT_MS). */
  timeoutMs: number;
  /** Locates the addresses and gives the estimate when the service fails. */
  offline: OfflineGeodata;
  logger: Logger;
  /** Tests only. */
  fetch?: typeof fetch;
}

/** The road distance of OSRM's answer, in metres, or why there is none. */
function routeMeters(body: unknown): number | string {
  if (typeof body !== "object" || body === null) return "not JSON";
  const { code, routes } = body as { code?: unknown; routes?: unknown };
  if (code !== "Ok") return `code ${String(code)}`;
  const first = Array.isArray(routes) ? (routes[0] as { distance?: unknown } | undefined) : undefined;
  const meters = first?.distance;
  return typeof meters === "number" && Number.isFinite(meters) && meters >= 0
    ? Math.round(meters)
    : "no route distance";
}

const coordinates = (p: GeoPoint) => `${p.lon.toFixed(6)},${p.lat.toFixed(6)}`;

/**
 * Road distances from an OSRM-compatible service (`GET /route/v1/driving/lon,lat;lon,lat?overview=false`),
 * addresses located by the offline dataset. An error, a refusal or a timeout never fails the simulation:
 * the offline estimate is answered instead (source "estimate") and the reason logged.
 */
export function createRoutingGeodata(options: RoutingGeodataOptions): Geodata {
  const { offline, logger } = options;
  const doFetch = options.fetch ?? fetch;
  const base = options.url.replace(/\/+$/, "");

  async function distance(home: GeoAddress, work: GeoAddress): Promise<DistanceResult> {
    const from = await offline.locate(home);
    if (from.kind !== "found") return { kind: "notLocated", field: "home_address", reason: from.kind };
    const to = await offline.locate(work);
    if (to.kind !== "found") return { kind: "notLocated", field: "work_address", reason: to.kind };
    const url = `${base}/route/v1/driving/${coordinates(from.point)};${coordinates(to.point)}?overview=false`;
    let reason: string;
    try {
      const response = await doFetch(url, {
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: { accept: "application/json" },
      });
      const body: unknown = await response.json().catch(() => null);
      const meters = routeMeters(body);
      if (typeof meters === "number") return { kind: "measured", oneWayMeters: meters, source: "routing" };
      reason = `HTTP ${response.status}, ${meters}`;
    } catch (err) {
      reason =
        err instanceof Error && err.name === "TimeoutError" ? `no answer within ${options.timeoutMs} ms` : String(err);
    }
    logger.warn("routing service failed: the distance is the offline estimate", { reason });
    return { kind: "measured", oneWayMeters: offline.estimate(from.point, to.point), source: "estimate" };
  }

  return { name: "routing", locate: (address) => offline.locate(address), distance };
}
