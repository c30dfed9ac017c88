# Doorwatch production image (docs/deploy.md). Not built in this repository's CI: the
# development machine has no Docker engine; tests/unit/dockerfile.test.ts lints this file instead.
# Build: docker build -t doorwatch .
# Run:   docker run --read-only --tmpfs /tmp -v doorwatch-data:/app/data -p 3000:3000 \
#          -e DOORWATCH_ADMIN_TOKEN=... doorwatch        (add -e DATABASE_URL=postgresql://... for PostgreSQL)
# The app writes only to /app/data (the SQLite database) at run time, so the root filesystem can be read-only.

# --- build: full dependencies (native better-sqlite3 compiles here), generated Prisma clients, next build
FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY scripts ./scripts
# npm workspaces (packages/reporter): linked and built (postinstall) by npm ci
COPY packages ./packages
RUN npm ci --no-audit --no-fund
COPY . .
# .next/cache is next build's own cache (~100 MB): nothing reads it at run time.
RUN node scripts/ensure-build.mjs && npm prune --omit=dev && rm -rf .next/cache

# --- runtime: no compilers, non-root; the app's files stay root's (read-only to the app), only /app/data is its own
FROM node:24-bookworm-slim AS runtime
WORKDIR /app
# MALLOC_ARENA_MAX: as `npm start` sets it (docs/benchmarks.md, "Ingest threads": ~10 MB less resident).
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1 PORT=3000 HOST=0.0.0.0 \
    DATABASE_URL=file:/app/data/doorwatch.db MALLOC_ARENA_MAX=2
COPY --from=build /app /app
RUN mkdir -p /app/data && chown node:node /app/data
USER node:node
EXPOSE 3000
VOLUME ["/app/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# npm start = node scripts/start.mjs: one process (the start script compiled at build time to dist/start/start.cjs)
# that applies pending migrations, provisions, then serves.
CMD ["node", "scripts/start.mjs"]
