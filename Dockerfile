# syntax=docker/dockerfile:1
# The shop (app + API, server/main.ts) as a production image. Multi-stage:
#   deps   all npm dependencies (the build needs Vite)
#   build  the web app (vite build → dist/)
#   prod   production dependencies only, the server sources, dist/, run as the unprivileged `node` user
# Build: docker build -t course-shop .      Run: see compose.yaml and README "Deployment".
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY index.html vite.config.ts tsconfig.json ./
COPY src ./src
COPY machines ./machines
COPY domain ./domain
COPY generated ./generated
RUN npx vite build --logLevel warn

FROM ${NODE_IMAGE} AS prod
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    OUTBOX_DIR=/app/var/outbox \
    UPLOADS_DIR=/app/var/uploads \
    PGLITE_DIR=/app/var/pglite
WORKDIR /app
COPY package.json package-lock.json ./
# tsx runs the TypeScript server (a production dependency); no dev dependencies in this stage.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY openapi.yaml ./
COPY domain ./domain
COPY generated ./generated
COPY server ./server
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/var/outbox /app/var/uploads /app/var/pglite && chown -R node:node /app/var
USER node
EXPOSE 3000
# Liveness (the balancer uses /readyz, which also checks the database).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The server itself is PID 1's only child-free process: SIGTERM reaches it and it drains (server/main.ts).
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "server/main.ts"]
