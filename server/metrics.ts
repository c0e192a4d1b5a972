import cluster from "node:cluster";
import { createHash, timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { AggregatorRegistry } from "prom-client";
import type { ServerBuild } from "react-router";
import { metricsRegistry, observeRequest } from "../app/.server/metrics";
import { routeTreeOf } from "./route-tree";

/**
 * GET /metrics for Prometheus (issue 33 §3, decision 0064): off unless METRICS_TOKEN is set, then answered only to
 * `Authorization: Bearer <token>`. With workers (WEB_CONCURRENCY > 1) the worker that receives the scrape asks the
 * primary, which asks every worker for its figures and adds them up (prom-client's AggregatorRegistry), so one
 * scrape sees the whole server whichever worker the connection reached.
 */

/** How long a worker waits for the primary's sum (the primary gives up on a silent worker after 5 s). */
const CLUSTER_ANSWER_MS = 6000;
const REQUEST = "portal:metrics-request";
const ANSWER = "portal:metrics-answer";

/** The label of a request the route table does not describe, or that the server answers before React Router. */
function routeLabel(req: Request, build: ServerBuild): string {
  const path = req.path;
  if (path.startsWith("/assets/") || /^\/[\w.-]+\.(svg|ico|png|txt|webmanifest|js)$/.test(path)) return "static";
  if (path === "/healthz") return "healthz";
  // React Router's lazy route discovery (`/__manifest?paths=…`).
  if (path === "/__manifest") return "manifest";
  return routeTreeOf(build).patternOf(path) ?? "not_found";
}

/** Times every request but the scrape itself, labelled by its route pattern (never its path or query). */
export function requestMetrics(loadBuild: () => Promise<ServerBuild>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (/^\/metrics\/?$/i.test(req.path)) return next();
    const start = process.hrtime.bigint();
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      void loadBuild().then((build) => observeRequest(req.method, routeLabel(req, build), res.statusCode, seconds));
    });
    next();
  };
}

/** Whether the request's bearer token is the configured one, compared in constant time (both hashed first). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+)\s*$/i.exec(header ?? "")?.[1];
  if (!given) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** The scrape: 401 without the token, the figures (this process's, or the whole cluster's) with it. */
export function metricsEndpoint(token: string): RequestHandler {
  return async (req: Request, res: Response) => {
    res.set("Cache-Control", "no-store");
    if (!bearerMatches(req.get("authorization"), token)) {
      res.status(401).set("WWW-Authenticate", 'Bearer realm="metrics"').type("text/plain").send("Unauthorized\n");
      return;
    }
    try {
      const registry = metricsRegistry();
      const text = cluster.isWorker ? await askPrimary() : await registry.metrics();
      res.type(registry.contentType).send(text);
    } catch (err) {
      res
        .status(503)
        .type("text/plain")
        .send(`metrics unavailable: ${err instanceof Error ? err.message : "unknown"}\n`);
    }
  };
}

let asked = 0;
const waiting = new Map<number, { resolve: (text: string) => void; reject: (err: Error) => void }>();

/** A worker's scrape: the primary's sum of every worker's figures. */
function askPrimary(): Promise<string> {
  const id = ++asked;
  if (waiting.size === 0) process.on("message", onAnswer);
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => settle(id, { error: "the primary did not answer" }), CLUSTER_ANSWER_MS);
    waiting.set(id, {
      resolve: (text) => (clearTimeout(timer), resolve(text)),
      reject: (err) => (clearTimeout(timer), reject(err)),
    });
    process.send?.({ type: REQUEST, id });
  });
}

function onAnswer(message: unknown) {
  const answer = message as { type?: string; id?: number; text?: string; error?: string };
  if (answer?.type === ANSWER && typeof answer.id === "number") settle(answer.id, answer);
}

function settle(id: number, answer: { text?: string; error?: string }) {
  const pending = waiting.get(id);
  if (!pending) return;
  waiting.delete(id);
  if (waiting.size === 0) process.off("message", onAnswer);
  if (typeof answer.text === "string") pending.resolve(answer.text);
  else pending.reject(new Error(answer.error ?? "no answer"));
}

/** The primary's part: answers each worker's scrape with the sum of every worker's figures. */
export function answerWorkersScrapes(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text }),
      (err: unknown) => worker.send({ type: ANSWER, id: message.id, error: String(err) }),
    );
  });
}
