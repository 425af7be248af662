#!/usr/bin/env bash
# Set up everything the tests need (the venv with the test extras, Debian's chromium for the
# browser tests), then type-check with mypy and run the whole suite. Fails when mypy finds an error, when
# any test fails or when none ran.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test || exit 1
bash scripts/ensure_chromium.sh || exit 1
# types first: the [tool.mypy] settings of pyproject.toml (tarock, ingest, analysis)
if ! .venv/bin/python -m mypy; then
  echo "mypy found type errors" >&2
  exit 1
fi
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
status=$?
if [ "$status" -eq 5 ]; then
  echo "no test ran" >&2
  exit 1
fi
exit "$status"
