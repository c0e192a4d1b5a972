import type { MiddlewareFunction } from "react-router";
import { errorPage } from "~/routes/+shared/error-page.server";
import { isUploadPattern } from "~/routes/+shared/upload-routes";

/**
 * A multipart form that cannot be read (cut short, no closing boundary) is the sender's fault: a 400
 * with the French page, before any action reads it, instead of an action failing with a 500. Plain
 * url-encoded forms always parse. The server (server/security.ts) has already refused other methods
 * and body types, and multipart bodies outside the upload routes. Upload routes are left out here:
 * they stream their bodies with limits (parseUploadForm), which answers the same 400 for a broken one.
 */
export const refuseUnreadableForms: MiddlewareFunction<Response> = async ({ request, pattern }, next) => {
  if (
    request.method === "POST" &&
    /^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "") &&
    !isUploadPattern(pattern)
  ) {
    try {
      await request.clone().formData();
    } catch {
      // A page shows it in its error boundary (status 400); a resource route answers this page as is.
      throw new Response(errorPage(400), {
        status: 400,
        statusText: "Bad Request",
        headers: { "Content-Type": "text/html; charset=utf-8" },
      });
    }
  }
  return next();
};
