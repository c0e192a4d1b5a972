import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  // Public pages
  route("login", "routes/auth/login.tsx"),
  route("login/code", "routes/auth/login-code.tsx"),
  route("login/passkey", "routes/auth/login-passkey.ts"),
  route("logout", "routes/auth/logout.tsx"),
  route("lost-password", "routes/auth/lost-password.tsx"),
  route("activate/:token?", "routes/auth/activate.tsx"),
  route("reset-password/:token?", "routes/auth/reset-password.tsx"),
  route("user-confirmation", "routes/auth/user-confirmation.tsx"),
  route("force-change-password", "routes/auth/force-change-password.tsx"),
  // The invitation's onboarding link (spec 001 §2.1, public); /onboarding/card and /onboarding/wait rank first.
  route("onboarding/:token", "routes/onboarding/link.tsx"),
  route("locales/:lng", "routes/public/locales.ts"),
  // Legal pages inside the portal (issue 16 §10), public, linked from the footer.
  route("terms", "routes/legal/terms.tsx"),
  route("privacy", "routes/legal/privacy.tsx"),
  // The accessibility statement at the address French statements use (decision 0068); the old one redirects.
  route("accessibilite", "routes/legal/accessibility.tsx"),
  route("accessibility", "routes/legal/accessibility-redirect.ts"),
  // The site map (RGAA 12.1), public: the public pages, and signed in the pages the menus offer the person.
  route("plan-du-site", "routes/legal/site-map.tsx"),
  // Signed in or not: the cookie explanations and the recorded consent choice (issue 16 §8).
  route("cookies", "routes/public/cookies.tsx"),
  route("dev/outbox", "routes/sandbox/outbox.tsx"),
  route("dev/expense-requests", "routes/sandbox/review.tsx"),
  route("dev/allowances", "routes/sandbox/allowance-review.tsx"),
  route("dev/partners", "routes/sandbox/partner-access.tsx"),
  route("dev/terminal", "routes/sandbox/terminal.tsx"),
  route("sandbox-issuer/reveal/:key", "routes/sandbox/issuer-reveal.ts"),
  route("sandbox-processor/fields/:key", "routes/sandbox/processor-fields.ts"),
  route("sandbox-partner/:token", "routes/sandbox/partner-page.ts"),
  // Stripe Issuing's events and real-time authorisations (decision 0036): no session, signed by Stripe.
  route("webhooks/stripe", "routes/webhooks/stripe.ts"),

  // Signed-in users not yet onboarded (spec 001 §2.3)
  route("onboarding", "routes/onboarding/layout.tsx", [
    index("routes/onboarding/profile.tsx"),
    route("card", "routes/onboarding/card.tsx"),
    route("wait", "routes/onboarding/wait.tsx"),
  ]),

  // Signed-in, onboarded users held until their second factor is set up (spec 001 §4 "MFA-required")
  route("secure-account", "routes/secure-account/layout.tsx", [
    index("routes/secure-account/index.ts"),
    route("pending/:field", "routes/secure-account/pending-change.tsx"),
    route("second-factor", "routes/secure-account/second-factor.tsx"),
  ]),

  // Signed-in, onboarded users
  layout("routes/shell/layout.tsx", [
    index("routes/shell/home.ts"),
    route("cards", "routes/cards/index.ts"),
    route("cards/:cardId", "routes/cards/card.tsx", [
      // Side panels: routes of their own, shown over the card page (spec 000 §2).
      route("freeze", "routes/cards/freeze.tsx"),
      route("stop", "routes/cards/stop.tsx"),
      route("delivery", "routes/cards/delivery.tsx"),
      route("reveal", "routes/cards/reveal.tsx"),
      route("unlock-pin", "routes/cards/unlock-pin.tsx"),
      route("new-card", "routes/cards/new-card.tsx"),
      route("priority", "routes/cards/priority.tsx"),
      route("overflow", "routes/cards/overflow.tsx"),
      route("overflow/new-card", "routes/cards/overflow-new-card.tsx"),
    ]),
    route("cards/:cardId/reveal/key", "routes/cards/reveal-key.ts"),
    route("cards/:cardId/reveal/passkey", "routes/cards/reveal-passkey.ts"),
    route("cards/:cardId/transactions/:authorizationId/report", "routes/cards/transaction-report.tsx"),
    route("cards/:cardId/transactions/:authorizationId/retry", "routes/cards/transaction-retry.ts"),
    route(
      "cards/:cardId/transactions/:authorizationId/payment-methods",
      "routes/cards/transaction-payment-methods.tsx",
    ),
    route("wallets", "routes/wallets/index.tsx"),
    route("wallets/:walletId", "routes/wallets/wallet.tsx"),
    route("transactions", "routes/shell/transactions.ts"),
    route("store-locator", "routes/store-locator/index.tsx"),
    // The support chat (issue 16 §5): a panel over the page given by ?back=.
    route("support", "routes/support/index.tsx"),
    // The feedback survey (issue 16 §6): a dialog route, only when analytics is configured.
    route("feedback", "routes/shell/feedback.tsx"),
    // The plans page (spec 001 §2.5): tabs of routes/plans/layout.tsx; issue 14's parts add theirs inside.
    route("plans", "routes/plans/layout.tsx", [
      index("routes/plans/index.ts"),
      route("integrations", "routes/integrations/list.tsx"),
      route("partners", "routes/partners/search.ts"),
      route("suggest-establishment", "routes/partners/suggest-establishment.tsx"),
      // The list of refund requests; its side panels (the wizard, the cancel confirmation) are children.
      route("expense-requests", "routes/refunds/list.tsx", [
        route(":requestId/cancel", "routes/refunds/cancel.tsx"),
        route(":requestId", "routes/refunds/wizard.tsx"),
      ]),
      // A receipt's download (owner only); a resource route beside the list, not one of its panels.
      route("expense-requests/receipts/:fileId", "routes/refunds/receipt.ts"),
      // The mobility allowances (issue 15); the cancel confirmation and the wizards are panels over the list.
      route("allowances", "routes/allowances/list.tsx", [
        route(":allowanceId/cancel", "routes/allowances/cancel.tsx"),
        route(":requestId", "routes/allowances/wizard.tsx"),
      ]),
    ]),
    // The notification centre (decision 0030): a panel over the page named by its `back`; the bell's count.
    route("notifications", "routes/notifications/panel.tsx"),
    route("notifications/count", "routes/notifications/count.ts"),
    // The tag manager's link clicks, posted by the links' `ping` or a beacon (decision 0031).
    route("events", "routes/shell/events.ts"),
    route("settings", "routes/settings/layout.tsx", [
      index("routes/settings/index.ts"),
      route("profile", "routes/settings/profile.tsx"),
      route("profile/confirm/:field", "routes/settings/profile-confirm.tsx"),
      route("notifications", "routes/settings/notifications.tsx"),
      // This browser's Web Push subscription, posted by the notification settings once hydrated (Contract B).
      route("notifications/push", "routes/settings/push.ts"),
      // The security page; its passkeys' panels (issue 32 item 1): adding one, then renaming or removing one.
      route("security", "routes/settings/security.tsx", [
        route("passkeys/new", "routes/settings/passkey-new.tsx"),
        route("passkeys/:passkeyId", "routes/settings/passkey.tsx"),
      ]),
      route("security/mfa/:channel", "routes/settings/security-mfa.tsx"),
      // The passkey ceremonies of the add panel (Contract P2): its confirmation with a passkey, the registration.
      route("security/passkeys/ceremony", "routes/settings/passkey-ceremony.ts"),
    ]),
  ]),

  // Any other address: a 404 inside the signed-in shell for a signed-in person (navigation kept), the
  // public 404 for anyone else (the middleware of routes/shell/not-found-layout.tsx).
  layout("routes/shell/not-found-layout.tsx", [route("*", "routes/public/not-found.tsx")]),
] satisfies RouteConfig;
