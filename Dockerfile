# Coinplane's container image: the compiled server (npm run build → dist/) on a Node LTS slim base, as a non-root user.
# Stage 1 installs everything and builds; stage 2 keeps the production dependencies and dist/ only (no TypeScript loader).
# Run it with compose.yaml, or (every variable a production start requires, server/config.ts PRODUCTION_REQUIRED):
#   docker run -p 8080:8080 -e DATABASE_URL=… -e ADMIN_TOKEN=… -e WEBHOOK_SECRETS_KEY=… -e METRICS_TOKEN=… coinplane
FROM node:22-bookworm-slim AS build
WORKDIR /app
# Every workspace's package.json before npm ci, or npm ci skips that workspace's dependencies
# (test/unit/container-files.test.ts checks them against package.json "workspaces"; test/system/image-build.test.ts runs this stage).
COPY package.json package-lock.json ./
COPY sdk/package.json sdk/package.json
COPY console/package.json console/package.json
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production PORT=8080
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s CMD ["node", "-e", "fetch('http://127.0.0.1:8080/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The same command as `npm run start:prod` (test/unit/container-files.test.ts holds them together).
CMD ["node", "dist/server/main.js"]
