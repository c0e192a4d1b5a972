import { RouterContextProvider } from "react-router";
import { loader as loginCodeLoader } from "~/routes/auth/login-code";

/** A form post as React Router hands it to a route module's action (a fresh context, no params). */
export function routePost(path: string, form: Record<string, string>, cookie?: string) {
  const request = new Request(`http://localhost${path}`, {
    method: "POST",
    body: new URLSearchParams(form),
    headers: cookie ? { Cookie: cookie } : {},
  });
  return { request, url: new URL(request.url), pattern: path, params: {}, context: new RouterContextProvider() };
}

/** What the sign-in's code page shows (its loader's data) for this session cookie. */
export async function loginCodePage(cookie: string) {
  const request = new Request("http://localhost/login/code", { headers: { Cookie: cookie } });
  const args = {
    request,
    url: new URL(request.url),
    pattern: "/login/code",
    params: {},
    context: new RouterContextProvider(),
  };
  const answer = (await loginCodeLoader(args as never)) as unknown as {
    data: { channel: "email" | "sms"; delivery: "delayed" | "refused" | "givenUp" | null };
  };
  return answer.data;
}
