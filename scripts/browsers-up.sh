#!/usr/bin/env bash
# Install Debian's Chromium for the browser tests (tests/e2e/), unless it is
# already there. Playwright drives this binary (/usr/bin/chromium); its own
# browser download does not work on these machines. `make test` runs this
# first, so a fresh machine (CI) gets the browser before the e2e tests start.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" != "0" ] && ! command -v sudo >/dev/null; then
  echo "browsers-up: /usr/bin/chromium is missing; install Debian's chromium as root" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" = "0" ] || SUDO="sudo"
echo "browsers-up: installing Debian's chromium"
export DEBIAN_FRONTEND=noninteractive
# Another apt run (a second checkout, unattended upgrades) may hold the lock:
# wait for it instead of failing.
APT_WAIT=(-o DPkg::Lock::Timeout=600)
$SUDO apt-get "${APT_WAIT[@]}" update -qq
$SUDO apt-get "${APT_WAIT[@]}" install -y -qq --no-install-recommends chromium fonts-dejavu-core
test -x /usr/bin/chromium
