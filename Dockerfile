# The directory as a container: built once (TypeScript, the typed client), run without dev
# dependencies as a non-root user. `docker compose up` (compose.yaml) runs it with PostgreSQL
# and Redis; alone, it serves the bundled content from an embedded SQLite file.

# --- build: every dependency, the compiled server ---
FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 ships its binaries for Node.js 22/24; nothing compiles here.
COPY package.json package-lock.json tsconfig.json ./
COPY packages packages
COPY drivers drivers
COPY scripts scripts
# npm ci also builds the typed client (scripts/prepare.mjs).
RUN npm ci --no-audit --no-fund
COPY src src
RUN npm run build && npm prune --omit=dev

# --- run: the built server, production dependencies, the content ---
FROM node:24-bookworm-slim AS run
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATABASE_URL=/data/directory.sqlite \
    CONTENT_DIR=/app/content
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/package.json package.json
# Templates, stylesheet and script of the catalogue are read at start.
COPY src/pages src/pages
COPY content content
COPY LICENSE ./
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
# The server drains on SIGTERM (SHUTDOWN_GRACE_MS, 10 s by default).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--no-memory-reducer", "dist/src/server.js"]
