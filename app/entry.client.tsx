import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";

/**
 * JavaScript only enhances pages that already work. The French catalogue comes from
 * /locales/fr (cached) so it is not part of the script bundle.
 */
async function main() {
  const lng = document.documentElement.lang || "fr";
  const response = await fetch(`/locales/${lng}`, { credentials: "same-origin" });
  const translation = (await response.json()) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({
    lng,
    fallbackLng: "fr",
    resources: { [lng]: { translation } },
    interpolation: { escapeValue: false },
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

main().catch((error: unknown) => {
  // The server-rendered page keeps working without the enhancements.
  console.error(error);
});
