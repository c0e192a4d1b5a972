import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const redirectImports = {
  name: "react-router",
  importNames: ["redirect", "redirectDocument", "replace"],
  message:
    "Redirect with internalRedirect, internalPath and redirectWithFlash (~/routes/+shared/redirects.server, docs/decisions/0015).",
};

// The browser reads conform's answer with the portal's useForm and getFormProps (decision 0077): a refusal never
// outlives a later success (RGAA 8.6), and conform's browser code stays out of every page. Its types may be named.
const conformFormImports = {
  name: "@conform-to/react",
  importNames: [
    "useForm",
    "getFormProps",
    "useField",
    "useFormMetadata",
    "FormProvider",
    "FormStateInput",
    "getFieldsetProps",
    "getInputProps",
    "getSelectProps",
    "getTextareaProps",
    "getCollectionProps",
    "useInputControl",
    "unstable_useControl",
    "unstable_Control",
    "parse",
  ],
  message:
    "Use the portal's useForm and getFormProps (~/components/forms/useForm, decision 0077): conform answers on the server (parseForm, refuse), the browser only reads its answer; a refusal never outlives a later success (RGAA 8.6).",
};

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
    // The service worker (public/sw.js, issue 33 item 2) is plain JavaScript run in the worker's own scope.
    files: ["public/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // Redirects within the portal are built from known pages with encoded parameters (docs/decisions/0015);
    // forms use the portal's useForm.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/routes/+shared/redirects.server.ts", "app/routes/+shared/auth.server.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [redirectImports, conformFormImports] }] },
  },
  {
    // Pages reach the database and the providers only through services and the platform (decision 0020);
    // types may be named (a provider's port, the database handle a service takes). The sandbox pages belong
    // to the sandbox adapters.
    files: ["app/routes/**/*.{ts,tsx}", "app/components/**/*.{ts,tsx}", "app/root.tsx"],
    ignores: ["app/routes/sandbox/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/.server/db", "~/.server/db/*", "~/.server/providers/**"],
              allowTypeImports: true,
              message:
                "Routes and components call services (~/.server/services) and the platform, never the database or a provider adapter (decision 0020).",
            },
          ],
        },
      ],
    },
  },
);
