import type { Env } from "../../env";
import type { Logger } from "../../logger";
import { createOfflineGeodata } from "./offline";
import type { Geodata } from "./port";
import { createRoutingGeodata } from "./routing";

/**
 * The geodata provider (decision 0028): road distances from an OSRM-compatible service when ROUTING_URL is set,
 * otherwise the offline estimate (straight line × GEODATA_ROAD_FACTOR). Both locate addresses with the offline
 * French dataset, loaded on first use.
 */
export function createGeodata(env: Env, logger: Logger): Geodata {
  const offline = createOfflineGeodata({ roadFactor: env.GEODATA_ROAD_FACTOR });
  if (!env.ROUTING_URL) return offline;
  return createRoutingGeodata({ url: env.ROUTING_URL, timeoutMs: env.ROUTING_TIMEOUT_MS, offline, logger });
}

export type { DistanceResult, GeoAddress, Geodata, GeoPoint, LocateResult, Place, PlaceSearch } from "./port";
export { PLACES_MAX } from "./port";
export { findPlaces, greatCircleMeters } from "./offline";
