#!/usr/bin/env bash
# The main job on the bundled data: set up, then check every example record.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/tarock check data/examples || true
