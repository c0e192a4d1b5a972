import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "node_modules/", ".react-router/", "data/", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // A main landmark is focused by the skip link; that is intended.
      "jsx-a11y/no-noninteractive-tabindex": ["error", { tags: ["main"], roles: ["alert"] }],
    },
  },
  {
    // Redirects within the portal are built from known pages with encoded parameters (docs/decisions/0015).
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/routes/+shared/redirects.server.ts", "app/routes/+shared/auth.server.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "react-router",
              importNames: ["redirect", "redirectDocument", "replace"],
              message: "Redirect with internalRedirect, internalPath and redirectWithFlash (~/routes/+shared/redirects.server, docs/decisions/0015).",
            },
          ],
        },
      ],
    },
  },
);
