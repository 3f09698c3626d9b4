# syntax=docker/dockerfile:1
# The shop (app + API) as a production image. Multi-stage:
#   deps   all npm dependencies (the builds need Vite and TypeScript)
#   build  the web app (vite build → dist/) and the server compiled to JavaScript
#          (npm run build:server → build/: server/, domain/, generated/, the admin CLI, openapi.yaml,
#          migrations, demo assets)
#   prod   the server's dependencies only (npm ci --omit=dev: no React, XState, tsx or esbuild),
#          build/ and dist/, run as the unprivileged `node` user: `node server/main.js`
# Build: docker build -t course-shop .      Run: see compose.yaml and README "Deployment".
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY index.html vite.config.ts tsconfig.json tsconfig.server.json openapi.yaml ./
COPY src ./src
COPY machines ./machines
COPY domain ./domain
COPY generated ./generated
COPY server ./server
COPY scripts/build-server.mjs scripts/admin.ts ./scripts/
RUN npx vite build --logLevel warn && node scripts/build-server.mjs

FROM ${NODE_IMAGE} AS prod
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    OUTBOX_DIR=/app/var/outbox \
    UPLOADS_DIR=/app/var/uploads \
    PGLITE_DIR=/app/var/pglite
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# build/ stands where the repository root stands: /app/server/main.js, /app/openapi.yaml, …
COPY --from=build /app/build/ ./
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/var/outbox /app/var/uploads /app/var/pglite && chown -R node:node /app/var
USER node
EXPOSE 3000
# Liveness (the balancer uses /readyz, which also checks the database).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1's only process: SIGTERM reaches the server and it drains (server/main.ts).
# Back office CLI in a running container: docker compose exec app1 node scripts/admin.js pending
STOPSIGNAL SIGTERM
CMD ["node", "server/main.js"]
