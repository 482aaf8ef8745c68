#!/usr/bin/env bash
# Install Debian's Chromium for the browser tests (tests/e2e/), unless it is
# already there. Playwright drives this binary (/usr/bin/chromium); its own
# browser download does not work on these machines.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "browsers-up: installing Debian's chromium"
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends chromium
