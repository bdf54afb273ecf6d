# syntax=docker/dockerfile:1
# The Switchyard gateway as a production image (multi-stage: build everything, then keep only a production install of
# the gateway and its workspace packages). From the repository root:
#   docker build -t switchyard .
#   docker run -p 8787:8787 -v "$PWD/switchyard.yaml:/etc/switchyard/switchyard.yaml:ro" -e OPENAI_API_KEY switchyard

# ---- build: install every dependency, build all packages, then `pnpm deploy` a production-only gateway into /out
FROM node:22-bookworm-slim AS build
# Compilers for native modules (better-sqlite3) in case no prebuilt binary matches this platform.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
RUN npm install -g pnpm@12
WORKDIR /src
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml turbo.json tsconfig.base.json ./
COPY apps ./apps
COPY packages ./packages
COPY examples ./examples
COPY bench ./bench
RUN pnpm install --frozen-lockfile && pnpm build
# A self-contained folder: the gateway's dist, package.json and node_modules with production dependencies only
# (workspace packages are copied in with their built dist).
RUN pnpm --filter @switchyard/gateway deploy --prod /out

# ---- runtime: Node 22 slim, non-root, config at /etc/switchyard/switchyard.yaml
FROM node:22-bookworm-slim
ENV NODE_ENV=production SWITCHYARD_CONFIG=/etc/switchyard/switchyard.yaml
WORKDIR /app
COPY --from=build --chown=node:node /out /app
USER node
EXPOSE 8787
# Liveness: /healthz answers while the process serves HTTP (Node's fetch; the slim image has no curl).
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8787/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) drains requests within server.shutdown_timeout_ms; give `docker stop -t` at least that long.
STOPSIGNAL SIGTERM
CMD ["node", "--experimental-async-context-frame", "dist/cli.js", "start", "--host", "0.0.0.0", "--port", "8787"]
