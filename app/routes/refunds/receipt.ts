import type { Route } from "./+types/receipt";
import { accountContext } from "~/routes/+shared/auth.server";
import { errorPage } from "~/routes/+shared/error-page.server";
import { getPlatform } from "~/.server/platform";
import { openReceipt } from "~/.server/services/receipts";

/**
 * A receipt's download (spec 001 §2.6: "Justificatif 1"…): for its owner only, streamed through the
 * portal (never a storage address), always as an attachment with the type sniffed when it was stored,
 * never kept by a browser or a proxy (and, as every answer, `nosniff`). Another user's file, or no
 * file: the 404 page, alike: an HTML page in French with its title and h1 (RGAA 8.3, 8.5, 9.1), as the other
 * resource routes answer, since a link to a receipt deleted since is followed by people (a bare `null` was).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const receipt = await openReceipt(await getPlatform(), account.id, params.fileId);
  if (receipt.kind === "notFound")
    return new Response(errorPage(404), {
      status: 404,
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
    });
  return new Response(receipt.body, {
    headers: {
      "Content-Type": receipt.file.contentType,
      "Content-Length": String(receipt.file.size),
      "Content-Disposition": contentDisposition(receipt.file.fileName),
      "Cache-Control": "no-store",
      // X-Content-Type-Options: nosniff and the portal's Content-Security-Policy come with every answer
      // of the server (server/security.ts), this one too.
    },
  });
}

/** `attachment` with an ASCII name for old clients and the exact one (RFC 5987) for the others. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^\w.() -]+/g, "_");
  const exact = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
