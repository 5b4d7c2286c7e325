# syntax=docker/dockerfile:1

# Build stage: every dependency, then the production bundle (dist/client + dist/server).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY client ./client
COPY src ./src
COPY migrations ./migrations
RUN npm run build

# Production dependencies only, installed apart from the build tools.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# Final stage: what the server needs at run time and nothing else, run as the unprivileged node user.
FROM node:24-bookworm-slim
# The allocator's settings: see SERVER_MALLOC_ENV in src/paths.ts (test/production-boot.test.ts checks they match).
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/data \
    MALLOC_ARENA_MAX=2 \
    MALLOC_TRIM_THRESHOLD_=32768 \
    MALLOC_MMAP_THRESHOLD_=32768
WORKDIR /app
COPY --chown=node:node package.json package-lock.json ./
COPY --chown=node:node --from=deps /app/node_modules ./node_modules
COPY --chown=node:node --from=build /app/dist ./dist
COPY --chown=node:node migrations ./migrations
RUN mkdir -p /app/data /app/backups && chown node:node /app/data /app/backups
USER node
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
# V8 flags for the embedded database on this image's Node (embeddedNodeFlags(24) in src/paths.ts);
# docker-compose.yml runs the app on PostgreSQL with POSTGRES_NODE_FLAGS instead
# (test/production-boot.test.ts checks both).
CMD ["node", "--optimize-for-size", "--no-liftoff", "--no-wasm-inlining", "dist/server/server.js"]
