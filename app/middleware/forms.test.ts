import { RouterContextProvider } from "react-router";
import { expect, test } from "vitest";
import { refuseUnreadableForms } from "./forms";

/** The root's check of multipart bodies: a broken one is a 400, except on upload routes, which stream theirs. */
const truncated = () =>
  new Request("http://localhost/x", {
    method: "POST",
    body: '--XX\r\nContent-Disposition: form-data; name="media"; filename="t.jpg"\r\n\r\nabc',
    headers: { "Content-Type": "multipart/form-data; boundary=XX" },
  });

async function run(pattern: string, request: Request) {
  let reached = false;
  const args = { request, pattern, params: {}, context: new RouterContextProvider(), url: new URL(request.url) };
  try {
    await refuseUnreadableForms(args, async () => {
      reached = true;
      return new Response("ok");
    });
    return { reached };
  } catch (thrown) {
    return { reached, status: (thrown as Response).status };
  }
}

test("a broken multipart body is a 400 before any action, on the portal's ordinary routes", async () => {
  expect(await run("/settings/profile", truncated())).toEqual({ reached: false, status: 400 });
});

test("on an upload route it is left to the route's streaming parser, unread", async () => {
  for (const pattern of ["/plans/expense-requests/:requestId", "plans/expense-requests/:requestId"]) {
    const request = truncated();
    expect(await run(pattern, request)).toEqual({ reached: true });
    expect(request.bodyUsed).toBe(false);
  }
});
