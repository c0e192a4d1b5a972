import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  // Public pages
  route("login", "routes/login.tsx"),
  route("login/code", "routes/login.code.tsx"),
  route("logout", "routes/logout.tsx"),
  route("locales/:lng", "routes/locales.ts"),
  route("dev/outbox", "routes/dev.outbox.tsx"),

  // Signed-in, onboarded users
  layout("routes/_app.tsx", [
    index("routes/_app._index.ts"),
    route("cards", "routes/_app.cards._index.ts"),
    route("cards/:cardId", "routes/_app.cards.$cardId.tsx"),
    route("transactions", "routes/_app.transactions.ts"),
    route("plans", "routes/_app.plans.ts"),
    route("settings", "routes/_app.settings.ts"),
  ]),

  route("*", "routes/$.tsx"),
] satisfies RouteConfig;
