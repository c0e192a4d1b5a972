import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A person's browser for the server tests, without a browser: one cookie jar, redirects not
 * followed (each answer is checked as it is), forms posted from the portal's own origin.
 */
export class TestBrowser {
  constructor(
    readonly base: string,
    private readonly jar = { cookie: "" },
  ) {}

  private get cookie() {
    return this.jar.cookie;
  }

  private set cookie(value: string) {
    this.jar.cookie = value;
  }

  /** The same person, with the same cookie jar, on another machine (behind one load balancer). */
  at(base: string): TestBrowser {
    return new TestBrowser(base, this.jar);
  }

  async request(pathname: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set("Cookie", this.cookie);
    const res = await fetch(`${this.base}${pathname}`, { ...init, headers, redirect: "manual" });
    const session = res.headers.getSetCookie().find((c) => c.startsWith("session="));
    if (session) this.cookie = session.split(";")[0]!;
    return res;
  }

  /**
   * A request with this exact path, sent as written: `fetch` would resolve `%2E%2E` segments and
   * refuse some bytes, a hostile client does neither.
   */
  raw(method: string, rawPath: string, body?: string): Promise<RawAnswer> {
    const url = new URL(this.base);
    const headers: http.OutgoingHttpHeaders = { Origin: this.base, ...(this.cookie ? { Cookie: this.cookie } : {}) };
    if (body !== undefined)
      Object.assign(headers, {
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": Buffer.byteLength(body),
      });
    return new Promise((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, method, path: rawPath, headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  get(pathname: string): Promise<Response> {
    return this.request(pathname);
  }

  post(pathname: string, fields: Record<string, string> | URLSearchParams): Promise<Response> {
    const body = fields instanceof URLSearchParams ? fields : new URLSearchParams(fields);
    return this.request(pathname, { method: "POST", body, headers: { Origin: this.base } });
  }

  /** Where a redirect leads, read like the browser would show it (its flash message included). */
  async follow(res: Response): Promise<{ location: string; html: string }> {
    const location = res.headers.get("location") ?? "";
    if (!location.startsWith("/")) throw new Error(`not a redirect within the site: ${res.status} ${location}`);
    return { location, html: await (await this.get(location)).text() };
  }
}

/** The test server's SQLite file, read-only, to check what a request did or did not change. */
export function openServerDatabase(name: string): Database.Database {
  return new Database(path.resolve(import.meta.dirname, `../../data/${name}.sqlite`), {
    readonly: true,
    fileMustExist: true,
  });
}

/** Signs in through the real forms: the password, then the code from the outbox when MFA is on. */
export async function signIn(
  base: string,
  db: Database.Database,
  email: string,
  password = "Demo-Portail-2026!",
): Promise<TestBrowser> {
  const browser = new TestBrowser(base);
  const res = await browser.post("/login", { email, password });
  if (res.status !== 302) throw new Error(`sign-in of ${email}: ${res.status}`);
  if (res.headers.get("location") === "/login/code") {
    const user = db.prepare("select mfa_preferred, phone from users where email = ?").get(email) as {
      mfa_preferred: string;
      phone: string;
    };
    const to = user.mfa_preferred === "SMS" ? user.phone : email;
    const message = db
      .prepare("select body from outbox where recipient = ? order by created_at desc limit 1")
      .get(to) as { body: string } | undefined;
    const code = /\b(\d{6})\b/.exec(message?.body ?? "")?.[1];
    if (!code) throw new Error(`no sign-in code for ${email}`);
    const verified = await browser.post("/login/code", { intent: "verify", code });
    if (verified.status !== 302) throw new Error(`code of ${email}: ${verified.status}`);
  }
  return browser;
}

/**
 * Signs in through the real forms and the sandbox's `/dev/outbox` page (whatever the database): the
 * password on `base`, then the newest code sent to the e-mail address, posted by `codeBase` (another
 * machine, or the same one).
 */
export async function signInThroughOutbox(
  base: string,
  email: string,
  { password = "Demo-Portail-2026!", codeBase = base }: { password?: string; codeBase?: string } = {},
): Promise<TestBrowser> {
  const browser = new TestBrowser(base);
  const res = await browser.post("/login", { email, password });
  if (res.status !== 302) throw new Error(`sign-in of ${email}: ${res.status}`);
  if (res.headers.get("location") !== "/login/code") return browser;
  const code = await newestCode(codeBase, email);
  const verified = await browser.at(codeBase).post("/login/code", { intent: "verify", code });
  if (verified.status !== 302) throw new Error(`code of ${email}: ${verified.status}`);
  return browser;
}

/** The newest six-digit code the sandbox outbox (`/dev/outbox`, newest first) shows for this recipient. */
export async function newestCode(base: string, recipient: string): Promise<string> {
  const html = await (await fetch(`${base}/dev/outbox`)).text();
  for (const message of html.split('<li class="outbox__message"').slice(1)) {
    if (!message.includes(`>${recipient}</dd>`)) continue;
    const code = /<pre class="outbox__body">[\s\S]*?\b(\d{6})\b/.exec(message)?.[1];
    if (code) return code;
  }
  throw new Error(`no code for ${recipient} in the outbox`);
}
