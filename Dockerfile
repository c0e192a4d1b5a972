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
# Healthy while /healthz answers 200 on the port the server listens on (503 while the database does not answer,
# decision 0041); the first minute (migrations at start) is not counted. Docker marks the container unhealthy, it
# does not restart it: the restart policy (`--restart unless-stopped`, compose `restart:`) acts when the server
# process exits, which it does when it crashes (decision 0048, docs/deploy/).
HEALTHCHECK --interval=30s --timeout=3s --start-period=60s --retries=3 CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# One process, tsx as a loader (not its launcher): the container's main process is the server (the primary with
# WEB_CONCURRENCY > 1), so `docker stop`'s SIGTERM reaches it and its exit is the container's.
CMD ["node", "--import", "tsx", "server.ts"]
