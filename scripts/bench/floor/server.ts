// The floor's server: Express with the portal's compression and React Router's request handler,
// in WEB_CONCURRENCY workers as the portal runs (server.ts), on HOST:PORT. Started by scripts/bench.ts.
import cluster from "node:cluster";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import { compressResponses } from "../../../server/compression";

const here = path.dirname(fileURLToPath(import.meta.url));
const buildDir = path.resolve(here, "../../../build/bench-floor");
const workers = Number(process.env.WEB_CONCURRENCY ?? 2);

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
} else {
  const build = await import(path.join(buildDir, "server/index.js"));
  const app = express();
  app.disable("x-powered-by");
  app.use(compressResponses());
  app.use("/assets", express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y" }));
  app.use(createRequestHandler({ build, mode: "production" }));
  app.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
}
