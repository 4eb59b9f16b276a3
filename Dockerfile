# Flood-zone lookup service: production image. No parser directive (`# syntax=`): the builder's own
# frontend is used, so the build needs no image beyond node's and works offline from a local mirror.
#
#   docker build -t flood-zone-lookup:1.0.0 .
#   docker run --rm -p 3000:3000 --read-only flood-zone-lookup:1.0.0
#
# Node 22 is an LTS line; the major is pinned so a rebuild never jumps a major
# version. Pin a digest (node:22-bookworm-slim@sha256:...) for fully
# reproducible builds.

############################ build stage ############################
FROM node:22-bookworm-slim AS build
WORKDIR /app

# Dependencies first so this layer is cached until the lockfile changes. No install scripts run: the
# build needs none (the lockfile's only ones are a file watcher's source build and a telemetry ping).
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund

COPY nest-cli.json tsconfig.json tsconfig.build.json ./
COPY src ./src
# The compiler's incremental state (.tsbuildinfo) stays behind: only what node runs goes to the image.
RUN npm run build \
 && find dist -name '*.tsbuildinfo' -delete

########################### runtime stage ###########################
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0
WORKDIR /app

# Production dependencies only; no lifecycle scripts run. Everything stays
# owned by root, so the non-root process cannot modify its own code. The npm
# cache and npm's own logs (both under ~/.npm) go in the same layer.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force \
 && rm -rf /root/.npm /tmp/*

COPY --from=build /app/dist ./dist

# The image's built-in unprivileged user (uid/gid 1000).
USER node

EXPOSE 3000

# Liveness: /health never calls FEMA, Census or Redis. Slim images have no
# curl, so node's built-in fetch does the request.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]

# On SIGTERM the service answers 503 on /health/ready and drains within
# SHUTDOWN_GRACE_MS (default 10 s); give `docker stop` a longer timeout.
STOPSIGNAL SIGTERM

# Exec form: node is the main process and receives SIGTERM directly.
CMD ["node", "dist/main.js"]
