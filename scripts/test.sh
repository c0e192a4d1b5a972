#!/usr/bin/env bash
# The one test command (npm test): lint, typecheck, unit and service tests on SQLite, the same
# again on PostgreSQL, the production build, then the browser journeys with JS on and off.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s ===\n' "$1"; }

step "browser"
bash scripts/ensure-chromium.sh

step "lint"
npm run --silent lint

step "typecheck"
npm run --silent typecheck

step "build"
npm run --silent build

step "unit and service tests (SQLite)"
npx vitest run

step "service and server tests (PostgreSQL)"
PG_URL=$(bash scripts/ensure-postgres.sh)
# The server tests that need PostgreSQL, or that run on whichever database they are given (decision 0041), and
# issue 33's route tests (the Mobilité type stored concurrently, push subscriptions, SMS choice and code pages).
TEST_DATABASE_URL="$PG_URL" npx vitest run app/.server tests/server/two-machines.test.ts tests/server/crash-durability.test.ts \
  tests/server/database-restart.test.ts tests/routes/refund-mobility-built-in.test.ts tests/routes/push-subscription-route.test.ts \
  tests/routes/sms-choice.test.ts tests/routes/sms-code-page.test.ts tests/routes/profile-save.test.ts tests/server/query-plans.test.ts \
  tests/scripts/dataset.test.ts

step "browser journeys (JavaScript on and off)"
npx playwright test
