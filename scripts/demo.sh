#!/usr/bin/env bash
# The main job on a fresh machine: set up, ingest the bundled sample into the default store,
# print the summary and the top findings, then serve the dashboard on 127.0.0.1:8501.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dashboard,store
TAROCK=.venv/bin/tarock
STORE="${TAROCK_STORE:-data/store}"
$TAROCK ingest data/sample --store "$STORE" || true
echo
echo "Top findings:"
$TAROCK sql --store "$STORE" "SELECT code, severity, count(*) AS findings, count(DISTINCT deal_id) AS deals FROM findings GROUP BY code, severity ORDER BY findings DESC LIMIT 10"
$TAROCK report --store "$STORE" --audit --top 5 || true
echo
exec $TAROCK dashboard --store "$STORE" --port "${PORT:-8501}"
