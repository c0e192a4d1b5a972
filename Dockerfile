# syntax=docker/dockerfile:1
# Build stage: all dependencies (native better-sqlite3 is compiled here), then the production build.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

# Run stage: the build, production dependencies and the entry point, as an unprivileged user.
FROM node:20-bookworm-slim
# Production mode: the container listens on the network, where the sandbox (outbox, demo accounts) must never be.
ENV NODE_ENV=production APP_MODE=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /app/package.json /app/server.ts ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/server ./server
# server/ reads a few modules of app/ at run time (settings, logs, the session cookie, the limits' store).
COPY --from=build /app/app ./app
COPY --from=build /app/tsconfig.json ./
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
VOLUME ["/app/data"]
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node_modules/.bin/tsx", "server.ts"]
