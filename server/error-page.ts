import type { Response } from "express";
import { errorPage } from "~/routes/+shared/error-page.server";

/** Sends the French page for this status (app/routes/+shared/error-page.server.ts); never cached. */
export function sendErrorPage(res: Response, status: number, text?: string): void {
  res.status(status).set("Cache-Control", "no-store").type("text/html; charset=utf-8").send(errorPage(status, text));
}
