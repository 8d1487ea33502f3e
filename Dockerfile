# syntax=docker/dockerfile:1
# The directory as a container: built once (TypeScript), run without dev dependencies as a
# non-root user. `docker compose up` (compose.yaml) runs it with PostgreSQL and Redis; alone,
# it serves the bundled content from an embedded SQLite file on /data.
#
# BASE_IMAGE: any image laid out like the official node:24-bookworm-slim (Node.js 24 and npm
# on the PATH, a user `node`). CI, which reaches no image registry, passes one it makes from
# Debian's packages and the npm registry (.ci/image).
ARG BASE_IMAGE=node:24-bookworm-slim

# --- build: every dependency, the compiled server, then production dependencies only ---
FROM ${BASE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY packages/client/package.json packages/client/package.json
COPY drivers drivers
COPY scripts scripts
# No dependency's install script is needed here (better-sqlite3 13 ships its binaries in
# the npm package; sharp and esbuild theirs as packages of their own), and none can run:
# the slim base has no compiler. --ignore-scripts also spares npm's implicit
# `node-gyp rebuild` for better-sqlite3, which whatever npm the base has may run.
RUN --mount=type=cache,target=/root/.npm \
    npm ci --no-audit --no-fund --ignore-scripts
COPY src src
# The server only (.dockerignore leaves test/ and bench/ out), then production dependencies.
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && node scripts/slim-image.mjs /app

# --- run: the built server, production dependencies, the content ---
FROM ${BASE_IMAGE} AS run
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATABASE_URL=/data/directory.sqlite \
    CONTENT_DIR=/app/content
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/package.json package.json
COPY scripts/check-sqlite-driver.mjs scripts/check-sqlite-driver.mjs
# Templates, stylesheet and script of the catalogue are read at start.
COPY src/pages src/pages
COPY content content
COPY LICENSE ./
# Fails the build, not the first start, when the SQLite driver does not load on this Node.js.
RUN node scripts/check-sqlite-driver.mjs \
 && mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
# The server drains on SIGTERM (SHUTDOWN_GRACE_MS, 10 s by default).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--no-memory-reducer", "dist/src/server.js"]
