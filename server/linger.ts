import type { NextFunction, Request, Response } from "express";

/** How long, and how much, an answer given before its request's body was read waits for the rest of it. */
export interface LingerLimits {
  ms: number;
  bytes: number;
}

/**
 * A few seconds, and more than the largest body the portal reads (a refused upload is read up to twice its
 * route's limit, about 40 MB; decision 0025).
 */
export const DEFAULT_LINGER: LingerLimits = { ms: 5_000, bytes: 64 * 1024 * 1024 };

const hasBody = (req: Request) =>
  Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;

/**
 * A lingering close (RFC 9112 §9.6). An answer given before the request's body was read (a refusal, a
 * redirect that needed no form, a page that has no form) closes the connection: the server then must
 * not close it while the client is still sending, or the client's system answers the rest with a reset
 * and may drop the answer it had already received (a browser shows "connection reset" instead of the
 * page; the hostile-input run saw `write EPIPE` on a 4 MB form). So the end of such an answer waits
 * until the body has arrived (read and thrown away), or `limits.ms` have passed, or `limits.bytes`
 * were read, whichever comes first; then the connection closes as before.
 */
export function lingerOnUnreadBodies(limits: LingerLimits = DEFAULT_LINGER) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    const end = res.end;
    res.end = function (this: Response, ...args: unknown[]) {
      if (req.complete || req.destroyed) return end.apply(this, args as Parameters<Response["end"]>);
      let read = 0;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        req.off("data", discard);
        req.off("end", finish);
        req.off("close", finish);
        end.apply(this, args as Parameters<Response["end"]>);
      };
      const discard = (chunk: Buffer) => {
        read += chunk.length;
        if (read > limits.bytes) finish();
      };
      const timer = setTimeout(finish, limits.ms);
      // Nobody reads this body any more (the answer is written): whoever was reading it stops, and what
      // still comes is thrown away.
      req.removeAllListeners("data");
      req.removeAllListeners("readable");
      req.on("data", discard);
      req.once("end", finish);
      req.once("close", finish);
      req.resume();
      return this;
    } as Response["end"];
    next();
  };
}
