import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { TranslationProvider, translatorFor, type Translate } from "./i18n";
import { getLocale } from "./i18n/i18next.server";
import resources from "./i18n/catalogues";
import {
  isRouteErrorResponse,
  RouterContextProvider,
  ServerRouter,
  type EntryContext,
  type HandleDataRequestFunction,
  type HandleErrorFunction,
} from "react-router";
import { requestInfoContext } from "./context";
import { getPlatform } from "./.server/platform";
import { pathForLog } from "./.server/logger";
import { reportError } from "./.server/error-reporting";
import { scriptsAfterPaint } from "./.server/scripts-after-paint";

export const streamTimeout = 5_000;

/**
 * Pages render with the same small look-up the browser hydrates with (decision 0008), made once per
 * language: the same words on both sides, and none of i18next's per-call work on every page. The
 * request's language was chosen by the root middleware (decision 0018).
 */
const translators = Object.fromEntries(
  Object.entries(resources).map(([lng, { translation }]) => [
    lng,
    translatorFor(translation as Parameters<typeof translatorFor>[0]),
  ]),
) as Record<keyof typeof resources, Translate>;

/**
 * What server.ts needs from the app bundle: the same context key and platform instance the
 * routes use (importing the sources again would create a second database connection).
 */
export const serverRuntime = { requestInfoContext, getPlatform, RouterContextProvider };

/**
 * A page and its `.data` differ with the browser's `Save-Data` header (the light version, decision 0040): said
 * to caches, although nothing the portal renders is stored (`no-store`, server/app.ts).
 */
function varyOnSaveData(headers: Headers) {
  headers.append("Vary", "Save-Data");
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  varyOnSaveData(response.headers);
  return response;
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  varyOnSaveData(responseHeaders);
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce } = loadContext.get(requestInfoContext);
  const locale = getLocale(loadContext);

  return new Promise<Response>((resolve, reject) => {
    // The whole page is rendered before sending: pages are small and must work without JS,
    // so nothing is streamed in later.
    const { pipe, abort } = renderToPipeableStream(
      <TranslationProvider translate={translators[locale]} locale={locale}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </TranslationProvider>,
      {
        nonce,
        // Every finished Suspense boundary (a step's form loaded with `lazy`, decision 0074) is written in place.
        // By default React sends a boundary of more than 500 bytes that ends past the page's first 12,800 bytes
        // as its fallback, the content in a hidden part that a script moves in: without JavaScript, the fallback.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady() {
          // Everything is ready: the page is sent as one buffer, so the compression middleware
          // compresses it in one call rather than once per chunk React writes (decision 0039).
          const chunks: Buffer[] = [];
          const body = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              clearTimeout(timeout);
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              resolve(
                new Response(scriptsAfterPaint(Buffer.concat(chunks).toString("utf8")), {
                  headers: responseHeaders,
                  status: responseStatusCode,
                }),
              );
              done();
            },
          });
          body.on("error", reject);
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          void logError(error, request, routerContext.staticHandlerContext.matches.at(-1)?.params);
        },
      },
    );
    // A render that never finishes is stopped; one that did is let go at once (a pending timer would
    // keep the whole render, and its page, in memory for six seconds: decision 0039).
    // (React starts rendering on a later turn: the callbacks above never run before this line.)
    const timeout = setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * A link's token or a single-use key is logged by its parameter's name (logger.ts), in the path and
 * in the error's own words (React Router's messages quote the URL).
 */
async function logError(error: unknown, request: Request, params?: Record<string, string | undefined>) {
  const { logger } = await getPlatform();
  const scrub = (text: unknown) => (typeof text === "string" ? pathForLog(text, params) : text);
  const err =
    error instanceof Error
      ? { name: error.name, message: scrub(error.message), stack: scrub(error.stack) }
      : isRouteErrorResponse(error)
        ? { status: error.status, data: scrub(error.data) }
        : error;
  logger.error("render failed", { err, path: pathForLog(new URL(request.url).pathname, params) });
}

export const handleError: HandleErrorFunction = (error, { request, params }) => {
  // A refusal (4xx) answered to the sender is not the portal's fault: the request log has it.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  void logError(error, request, params);
  reportError(error);
};
