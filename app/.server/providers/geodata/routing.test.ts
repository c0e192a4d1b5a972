import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { createLogger } from "../../logger";
import type { DatasetCommune, FrenchDataset } from "./dataset";
import { createOfflineGeodata, greatCircleMeters } from "./offline";
import type { GeoAddress } from "./port";
import { createRoutingGeodata } from "./routing";

/** Two communes are enough here: the French dataset has its own tests (offline.test.ts). */
const commune = (code: string, name: string, lat: number, lon: number): DatasetCommune => ({
  code,
  name,
  aliases: ["lyon"],
  population: 1,
  point: { lat, lon },
  pointFrom: "commune",
  department: { code: "69", name: "Rhône" },
  postcodes: [],
});
const lyon3 = commune("69383", "Lyon 3e Arrondissement", 45.76124, 4.85184);
const lyon6 = commune("69386", "Lyon 6e Arrondissement", 45.76788, 4.85064);
const dataset: FrenchDataset = {
  byPostcode: new Map([
    ["69003", [lyon3]],
    ["69006", [lyon6]],
  ]),
  byName: new Map([
    ["lyon 3e arrondissement", [lyon3]],
    ["lyon 6e arrondissement", [lyon6]],
  ]),
  byCode: new Map([
    ["69383", lyon3],
    ["69386", lyon6],
  ]),
  counts: { commune: 2, postcode: 0, intercommunality: 0, none: 0 },
};
const offline = createOfflineGeodata({ roadFactor: 1.3, dataset: async () => dataset });
const home: GeoAddress = { line1: "8 rue des Lilas", zipcode: "69003", city: "Lyon", country: "FR" };
const work: GeoAddress = { line1: "3 avenue Foch", zipcode: "69006", city: "Lyon", country: "FR" };
const estimate = Math.round(greatCircleMeters({ lat: 45.76124, lon: 4.85184 }, { lat: 45.76788, lon: 4.85064 }) * 1.3);

/** A local OSRM-compatible stand-in: each test says how it answers; every request is recorded. */
let answer: (req: IncomingMessage, res: ServerResponse) => void;
const requests: string[] = [];
let server: Server;
let baseUrl: string;
const logged: string[] = [];
const logger = createLogger("debug", (line) => logged.push(line));

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? "");
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  requests.length = 0;
  logged.length = 0;
});

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};
const routing = (timeoutMs = 2000, url = baseUrl) => createRoutingGeodata({ url, timeoutMs, offline, logger });

test("asks the service for the driving route between the two located points and answers its road distance", async () => {
  answer = (_req, res) =>
    json(res, 200, { code: "Ok", routes: [{ distance: 1834.6, duration: 301.2 }], waypoints: [] });
  const result = await routing(2000, `${baseUrl}/`).distance(home, work);
  expect(result).toEqual({ kind: "measured", oneWayMeters: 1835, source: "routing" });
  expect(requests).toEqual(["/route/v1/driving/4.851840,45.761240;4.850640,45.767880?overview=false"]);
  expect(logged).toEqual([]);
});

test("locates addresses with the offline dataset", async () => {
  const geodata = routing();
  expect(geodata.name).toBe("routing");
  expect(await geodata.locate(home)).toMatchObject({ kind: "found", label: "Lyon 3e Arrondissement" });
});

test("an address that cannot be located is said so, without asking the service", async () => {
  answer = (_req, res) => json(res, 200, { code: "Ok", routes: [{ distance: 1 }] });
  expect(await routing().distance({ ...home, zipcode: "99999" }, work)).toEqual({
    kind: "notLocated",
    field: "home_address",
    reason: "unknownPostcode",
  });
  expect(await routing().distance(home, { ...work, country: "BE" })).toEqual({
    kind: "notLocated",
    field: "work_address",
    reason: "unsupportedCountry",
  });
  expect(requests).toEqual([]);
});

test.each([
  [
    "no route",
    (_req: IncomingMessage, res: ServerResponse) => json(res, 400, { code: "NoRoute", message: "Impossible route" }),
    /code NoRoute/,
  ],
  ["a server error", (_req: IncomingMessage, res: ServerResponse) => json(res, 500, { error: "boom" }), /HTTP 500/],
  ["not JSON", (_req: IncomingMessage, res: ServerResponse) => res.end("<html>proxy error</html>"), /not JSON/],
  [
    "a route without distance",
    (_req: IncomingMessage, res: ServerResponse) => json(res, 200, { code: "Ok", routes: [] }),
    /no route distance/,
  ],
])("%s: the offline estimate, and the reason logged", async (_name, respond, reason) => {
  answer = respond;
  expect(await routing().distance(home, work)).toEqual({
    kind: "measured",
    oneWayMeters: estimate,
    source: "estimate",
  });
  expect(requests).toHaveLength(1);
  expect(logged).toHaveLength(1);
  expect(JSON.parse(logged[0]!)).toMatchObject({ level: "warn", reason: expect.stringMatching(reason) });
});

test("a service slower than ROUTING_TIMEOUT_MS: the estimate, without waiting for it", async () => {
  answer = (_req, res) => {
    const timer = setTimeout(() => json(res, 200, { code: "Ok", routes: [{ distance: 1834 }] }), 1500);
    res.on("close", () => clearTimeout(timer));
  };
  const started = Date.now();
  expect(await routing(100).distance(home, work)).toEqual({
    kind: "measured",
    oneWayMeters: estimate,
    source: "estimate",
  });
  expect(Date.now() - started).toBeLessThan(1000);
  expect(JSON.parse(logged[0]!).reason).toBe("no answer within 100 ms");
});

test("a service that is not there: the estimate", async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  expect(await routing(2000, `http://127.0.0.1:${port}`).distance(home, work)).toEqual({
    kind: "measured",
    oneWayMeters: estimate,
    source: "estimate",
  });
  expect(logged).toHaveLength(1);
});
