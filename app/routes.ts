import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  // Public pages
  route("login", "routes/login.tsx"),
  route("login/code", "routes/login.code.tsx"),
  route("logout", "routes/logout.tsx"),
  route("lost-password", "routes/lost-password.tsx"),
  route("activate/:token?", "routes/activate.($token).tsx"),
  route("reset-password/:token?", "routes/reset-password.($token).tsx"),
  route("user-confirmation", "routes/user-confirmation.tsx"),
  route("force-change-password", "routes/force-change-password.tsx"),
  route("locales/:lng", "routes/locales.ts"),
  route("dev/outbox", "routes/dev.outbox.tsx"),
  route("sandbox-issuer/reveal/:key", "routes/sandbox-issuer.reveal.$key.ts"),
  route("sandbox-processor/fields/:key", "routes/sandbox-processor.fields.$key.ts"),

  // Signed-in users not yet onboarded (spec 001 §2.3)
  route("onboarding", "routes/onboarding.tsx", [
    index("routes/onboarding._index.tsx"),
    route("card", "routes/onboarding.card.tsx"),
    route("wait", "routes/onboarding.wait.tsx"),
  ]),

  // Signed-in, onboarded users held until their second factor is set up (spec 001 §4 "MFA-required")
  route("secure-account", "routes/secure-account.tsx", [
    index("routes/secure-account._index.ts"),
    route("pending/:field", "routes/secure-account.pending.$field.tsx"),
    route("second-factor", "routes/secure-account.second-factor.tsx"),
  ]),

  // Signed-in, onboarded users
  layout("routes/_app.tsx", [
    index("routes/_app._index.ts"),
    route("cards", "routes/_app.cards._index.ts"),
    route("cards/:cardId", "routes/_app.cards.$cardId.tsx", [
      // Side panels: routes of their own, shown over the card page (spec 000 §2).
      route("freeze", "routes/_app.cards.$cardId.freeze.tsx"),
      route("stop", "routes/_app.cards.$cardId.stop.tsx"),
      route("delivery", "routes/_app.cards.$cardId.delivery.tsx"),
      route("reveal", "routes/_app.cards.$cardId.reveal.tsx"),
      route("unlock-pin", "routes/_app.cards.$cardId.unlock-pin.tsx"),
      route("new-card", "routes/_app.cards.$cardId.new-card.tsx"),
      route("priority", "routes/_app.cards.$cardId.priority.tsx"),
      route("overflow", "routes/_app.cards.$cardId.overflow.tsx"),
      route("overflow/new-card", "routes/_app.cards.$cardId.overflow.new-card.tsx"),
    ]),
    route("cards/:cardId/transactions/:authorizationId/report", "routes/_app.cards.$cardId.transactions.$authorizationId.report.tsx"),
    route("cards/:cardId/transactions/:authorizationId/retry", "routes/_app.cards.$cardId.transactions.$authorizationId.retry.ts"),
    route("cards/:cardId/transactions/:authorizationId/payment-methods", "routes/_app.cards.$cardId.transactions.$authorizationId.payment-methods.tsx"),
    route("wallets", "routes/_app.wallets._index.tsx"),
    route("wallets/:walletId", "routes/_app.wallets.$walletId.tsx"),
    route("transactions", "routes/_app.transactions.ts"),
    route("plans", "routes/_app.plans.ts"),
    route("settings", "routes/_app.settings.tsx", [
      index("routes/_app.settings._index.ts"),
      route("profile", "routes/_app.settings.profile.tsx"),
      route("profile/confirm/:field", "routes/_app.settings.profile.confirm.$field.tsx"),
      route("notifications", "routes/_app.settings.notifications.tsx"),
      route("security", "routes/_app.settings.security.tsx"),
      route("security/mfa/:channel", "routes/_app.settings.security.mfa.$channel.tsx"),
    ]),
  ]),

  route("*", "routes/$.tsx"),
] satisfies RouteConfig;
