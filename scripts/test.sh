#!/usr/bin/env bash
# Set up everything the tests need (the venv with the test extras, Debian's chromium for the
# browser tests), then run the whole suite. Fails when any test fails or none ran.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test || exit 1
bash scripts/ensure_chromium.sh || exit 1
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
status=$?
if [ "$status" -eq 5 ]; then
  echo "no test ran" >&2
  exit 1
fi
exit "$status"
