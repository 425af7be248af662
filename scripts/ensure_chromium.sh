#!/usr/bin/env bash
# Make sure Debian's chromium is installed for the browser tests (tests/dashboards/test_dashboard_browser.py).
# Playwright drives this system browser; `playwright install` (a download) is never used.
# Override the binary with CHROMIUM=/path/to/chromium.
set -euo pipefail
CHROMIUM="${CHROMIUM:-/usr/lib/chromium/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "chromium is missing at $CHROMIUM; install it as root: apt-get update && apt-get install -y chromium" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
if [ ! -x "$CHROMIUM" ]; then
  echo "chromium was installed but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)"
