import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { TranslationProvider, translatorFor } from "./i18n";
import { chunkReloadInstrumentation, resumeInterruptedNavigation } from "./chunk-reload";

/**
 * JavaScript only enhances pages that already work. The catalogue of the page's language (`<html lang>`,
 * chosen by the server per request, decision 0018) comes from /locales/:lng (cached) rather than the
 * script bundle, and is read with a small look-up (no i18next in the browser).
 */
async function main() {
  // A navigation a missing script file interrupted goes on to its destination (decision 0066).
  if (resumeInterruptedNavigation()) return;
  const instrumentations = [chunkReloadInstrumentation()];
  const lng = document.documentElement.lang || "fr";
  const response = await fetch(`/locales/${lng}`, { credentials: "same-origin" });
  const translate = translatorFor((await response.json()) as Parameters<typeof translatorFor>[0]);
  startTransition(() => {
    hydrateRoot(
      document,
      <TranslationProvider translate={translate} locale={lng}>
        <StrictMode>
          <HydratedRouter instrumentations={instrumentations} />
        </StrictMode>
      </TranslationProvider>,
    );
  });
}

main().catch((error: unknown) => {
  // The server-rendered page keeps working without the enhancements.
  console.error(error);
});
