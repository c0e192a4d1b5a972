import { expect, test } from "vitest";
import { parseEnv } from "../../env";
import { createLogger } from "../../logger";
import { createGeodata } from "./index";

const logger = createLogger("silent");

test("the offline estimate unless ROUTING_URL names a routing service", () => {
  expect(createGeodata(parseEnv({}), logger).name).toBe("offline");
  expect(createGeodata(parseEnv({ ROUTING_URL: "http://127.0.0.1:5000" }), logger).name).toBe("routing");
});
