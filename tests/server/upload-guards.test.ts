import type { AddressInfo } from "node:net";
import http from "node:http";
import express from "express";
import { afterAll, beforeAll, expect, test } from "vitest";
import { acceptOnlyForms, limitBodySize } from "../../server/security";
import { uploadBodyLimit, uploadLimitsFor, uploadReadLimit } from "../../app/routes/+shared/upload-routes";

/**
 * The server's guards before any route (server/security.ts): files only on upload routes, with their
 * own body limit; every other post a url-encoded form within the forms' limit. The real guards, on a
 * small Express app whose routes answer 200 when a request gets through.
 */
const FORM_LIMIT = 10_000;
const UPLOAD = { maxFiles: 2, maxFileSize: 50_000 };
const limitsOf = (path: string) => (path === "/upload" ? UPLOAD : null);
let server: http.Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(limitBodySize(FORM_LIMIT, limitsOf));
  app.use(acceptOnlyForms(limitsOf));
  app.use((req, res) => {
    req.resume();
    req.on("end", () => res.status(200).send("through"));
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const multipart = (size: number) => {
  const boundary = "XX";
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="t.jpg"\r\nContent-Type: image/jpeg\r\n\r\n${"x".repeat(size)}\r\n--${boundary}--\r\n`;
  return { body, type: `multipart/form-data; boundary=${boundary}` };
};
const post = (path: string, body: string, type: string) =>
  fetch(`${base}${path}`, { method: "POST", body, headers: { "Content-Type": type } });

test("a multipart body goes through on an upload route, and is refused (415) anywhere else", async () => {
  const { body, type } = multipart(1000);
  expect((await post("/upload", body, type)).status).toBe(200);
  expect((await post("/elsewhere", body, type)).status).toBe(415);
  // Without its boundary: unreadable (400) on the upload route, refused as files (415) elsewhere.
  expect((await post("/upload", body, "multipart/form-data")).status).toBe(400);
  expect((await post("/elsewhere", body, "multipart/form-data")).status).toBe(415);
});

test("an upload route takes up to its files' weight; other posts only up to the forms' limit", async () => {
  const fits = multipart(2 * UPLOAD.maxFileSize);
  expect(fits.body.length).toBeGreaterThan(FORM_LIMIT);
  expect((await post("/upload", fits.body, fits.type)).status).toBe(200);
  const form = new URLSearchParams({ a: "x".repeat(FORM_LIMIT) }).toString();
  expect((await post("/elsewhere", form, "application/x-www-form-urlencoded")).status).toBe(413);
  expect((await post("/upload", form, "application/x-www-form-urlencoded")).status).toBe(200);
});

test("a body announced above twice maxFiles × maxFileSize + 64 KB (the read limit) is refused before it is sent", async () => {
  const status = await new Promise<number>((resolve, reject) => {
    const url = new URL(`${base}/upload`);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: url.pathname,
        headers: {
          "Content-Type": "multipart/form-data; boundary=XX",
          "Content-Length": String(uploadReadLimit(UPLOAD) + 1),
        },
      },
      (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      },
    );
    req.on("error", (err: NodeJS.ErrnoException) =>
      err.code === "ECONNRESET" || err.code === "EPIPE" ? undefined : reject(err),
    );
    req.write("--XX\r\n");
  });
  expect(status).toBe(413);
});

test("the portal's real upload limit: two receipts of 10,000,000 bytes and the form", () => {
  expect(uploadBodyLimit(uploadLimitsFor("/plans/expense-requests/new")!)).toBe(20_000_000 + 64 * 1024);
  expect(uploadReadLimit(uploadLimitsFor("/plans/expense-requests/new")!)).toBe(2 * (20_000_000 + 64 * 1024));
});
