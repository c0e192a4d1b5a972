import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, test } from "vitest";
import { scrubText, TRACES_SAMPLE_RATE } from "~/domain/error-reporting";
import { initServerErrorReporting, reportError, Sentry } from "./error-reporting";

/** A local Sentry envelope receiver: keeps the items of every envelope posted to /api/<project>/envelope/. */
let server: Server;
const items: { type: string; payload: Record<string, unknown> }[] = [];
let dsn = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body = Buffer.concat(chunks);
      if (body[0] === 0x1f && body[1] === 0x8b) body = gunzipSync(body);
      if (req.url?.startsWith("/api/1/envelope/")) {
        const lines = body.toString("utf8").split("\n").filter(Boolean);
        // Line 0: the envelope header; then pairs of item header and payload.
        for (let i = 1; i + 1 < lines.length; i += 2) {
          const header = JSON.parse(lines[i]!) as { type: string };
          items.push({ type: header.type, payload: JSON.parse(lines[i + 1]!) as Record<string, unknown> });
        }
      }
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  dsn = `http://publickey@127.0.0.1:${(server.address() as AddressInfo).port}/1`;
});
afterAll(async () => {
  await Sentry.close(2000);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const events = () => items.filter((i) => i.type === "event").map((i) => i.payload);

test("off without a DSN and in development", () => {
  expect(initServerErrorReporting({ SENTRY_DSN: "", NODE_ENV: "production", APP_MODE: "production" })).toBe(false);
  expect(initServerErrorReporting({ SENTRY_DSN: dsn, NODE_ENV: "development", APP_MODE: "sandbox" })).toBe(false);
});

test("the scrubbing rules replace e-mails, IBANs, card numbers, phone numbers and codes", () => {
  expect(
    scrubText(
      "marie.martin@example.com, FR76 3000 6000 0112 3456 7890 189, 4242 4242 4242 4242, +33 6 12 34 56 78, 06.12.34.56.78, code 123456",
    ),
  ).toBe("[email], [iban], [card], [phone], [phone], code [code]");
});

test("errors reach the receiver scrubbed, sampled at 5 %, 401 as a warning, network errors left out", async () => {
  expect(initServerErrorReporting({ SENTRY_DSN: dsn, NODE_ENV: "production", APP_MODE: "production" })).toBe(true);
  expect(Sentry.getClient()?.getOptions().tracesSampleRate).toBe(TRACES_SAMPLE_RATE);
  expect(TRACES_SAMPLE_RATE).toBe(0.05);

  reportError(
    new Error("Payment failed for marie.martin@example.com, card 4242424242424242, IBAN FR7630006000011234567890189"),
  );
  reportError(Object.assign(new Error("Session expired"), { status: 401 }));
  reportError(new TypeError("Failed to fetch"));
  Sentry.captureException(new TypeError("fetch failed"));
  await Sentry.flush(3000);

  const sent = events();
  expect(sent).toHaveLength(2);
  const text = JSON.stringify(sent);
  expect(text).not.toContain("marie.martin@example.com");
  expect(text).not.toContain("4242424242424242");
  expect(text).not.toContain("FR7630006000011234567890189");

  const values = (e: Record<string, unknown>) =>
    ((e.exception as { values: { value: string }[] }).values ?? []).map((v) => v.value);
  const payment = sent.find((e) => values(e)[0]?.startsWith("Payment failed"))!;
  expect(values(payment)[0]).toBe("Payment failed for [email], card [card], IBAN [iban]");
  expect(payment.level).toBe("error");
  // The two network errors were never sent.
  expect(sent.flatMap(values).sort()).toEqual([
    "Payment failed for [email], card [card], IBAN [iban]",
    "Session expired",
  ]);
  const expired = sent.find((e) => values(e)[0] === "Session expired")!;
  expect(expired.level).toBe("warning");
});
