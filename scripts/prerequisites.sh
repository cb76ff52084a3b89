#!/usr/bin/env bash
# The Debian packages the build and the tests need beyond node_modules, installed when missing. The first
# step of `npm test` and of .ci/run (before `npm ci`, hence shell rather than TypeScript):
#   postgresql-15   the throwaway clusters of the store tests (scripts/with-postgres.ts, test/system)
#   redis-server    shared rate limits (test/helpers/redis.ts)
#   chromium        test/browser, driven by playwright-core (no browser download; fonts come with it)
# As root it installs what is missing; anyone else gets the one command to run, and a failure.
#
#   scripts/prerequisites.sh            check, then install (root) or stop with the command (others)
#   scripts/prerequisites.sh --dry-run  print what is missing and the command, change nothing
#
# ALTSPORTS_PACKAGES replaces the package list (e.g. to see the missing path with a package not installed).
set -euo pipefail

read -r -a packages <<<"${ALTSPORTS_PACKAGES:-postgresql-15 redis-server chromium}"
dry_run=false
[[ ${1:-} == --dry-run ]] && dry_run=true

say() { printf '[prerequisites] %s\n' "$*" >&2; }

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  say "not a Debian system: make sure these (or their equivalents) are installed: ${packages[*]}"
  exit 0
fi

missing=()
for pkg in "${packages[@]}"; do
  installed "$pkg" || missing+=("$pkg")
done
if ((${#missing[@]} == 0)); then
  $dry_run && say "all installed: ${packages[*]}"
  exit 0
fi

command="apt-get install -y ${missing[*]}"
say "missing: ${missing[*]}"
if $dry_run; then
  say "would run (as root): apt-get update && $command"
  say "not root, it would stop with: sudo $command"
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  say "not root: install them first with"
  printf '  sudo %s\n' "$command" >&2
  exit 1
fi

# The tests make clusters of their own: the package's default 'main' cluster would only be in the way.
mkdir -p /etc/postgresql-common/createcluster.d
echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.d/altsports-tests.conf
say "apt-get update"
DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null
say "apt-get install ${missing[*]}"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
