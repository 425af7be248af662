"""Time every dashboard page with Streamlit's AppTest against a large store (figures go in notes, not tests).

    .venv/bin/python bench/bench_dashboard.py [--deals 1000000] [--store DIR] [--repeat 3]

Without ``--store`` it uses — building it first when missing — the synthetic
store of ``--deals`` deals that ``bench/bench_analysis.py`` makes under
``bench/out/store-<deals>/``.  Each page is rendered from the entrypoint
(sidebar and page, as a browser session gets it) ``--repeat`` times with
Streamlit's caches emptied first (*cold*: the store is opened and every
query runs; the dashboard's background warm-up is off; the app's modules are
imported by one untimed render first, as a running server has them), then once more with
the caches kept (*warm*: a second visitor, or any visitor once the warm-up
has run).  Every render goes through one ``AppTest``, as every page of a server goes through one runtime:
a new ``AppTest`` scans every installed package for Streamlit components (0.13–0.2 s here) at its first run,
which a server does once, at start (``streamlit.runtime.Runtime``), and which timing each page with its
own ``AppTest`` added to every page's figure.  The target is a cold render under 1 s per page (issue 22).
The last column is the median cold render's CPU seconds (the process's, DuckDB's threads included), which a
shared machine's load bends less than the wall clock.  ``--only LABEL`` (repeatable) times the pages whose
label starts with it.  The What-if page is not timed here: it rescores stored records, which a
synthetic store does not hold (``bench/bench_whatif.py`` times it on ingested deals).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_analysis import synthetic_store

APP = ROOT / "dashboards" / "app.py"
TARGET_SECONDS = 1.0


def pages(deal_id: str) -> list[tuple[str, str, dict[str, str]]]:
    """(label, page file, query parameters) of every page and the variants worth timing."""
    return [
        ("overview", "app_pages/overview.py", {}),
        ("contracts by seat", "app_pages/contracts.py", {}),
        ("contracts by declarer", "app_pages/contracts.py", {"by": "declarer"}),
        ("contracts by month", "app_pages/contracts.py", {"by": "month"}),
        ("players", "app_pages/players.py", {}),
        ("audit", "app_pages/audit.py", {}),
        ("replay (search)", "app_pages/replay.py", {}),
        ("replay (deal, trick 3)", "app_pages/replay.py", {"deal": deal_id, "step": "7"}),
        ("replay (deal, score)", "app_pages/replay.py", {"deal": deal_id, "step": "end"}),
        ("hands", "app_pages/hands.py", {}),
        ("ingest", "app_pages/ingest.py", {}),
    ]


def render(at: AppTest, page: str, query: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (this process's, DuckDB's threads included) to render ``page`` from the entrypoint
    with ``query`` (only) in the URL, in the session of ``at`` (raises on an app exception)."""
    at.query_params.clear()
    at.query_params.update(query)
    at.switch_page(page)
    started, cpu = time.perf_counter(), time.process_time()
    at.run()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    if at.exception:
        raise RuntimeError(f"{page} raised: {at.exception[0].message}")
    return seconds, cpu


def first_deal(store: Path) -> str:
    """A deal id of the store (the newest), for the replay timings."""
    from analysis.deals import find_deals
    from analysis.store import Store

    with Store(store) as s:
        return str(find_deals(s, limit=1)["deal_id"][0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--store", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", action="append", default=[], help="time only pages whose label starts so")
    args = parser.parse_args()
    store = args.store or synthetic_store(args.deals)
    os.environ["TAROCK_STORE"] = str(store)
    os.environ["TAROCK_DASHBOARD_WARMUP"] = "0"  # cold means cold: no background thread filling the cache
    deal_id = first_deal(store)
    print(f"store {store}; replayed deal {deal_id}; {args.repeat} cold runs per page\n")
    at = AppTest.from_file(str(APP), default_timeout=120)
    render(at, "app_pages/ingest.py", {})  # the app's modules imported once, as a running server has them: the
    # first page timed would pay for every import otherwise (cold means empty caches, not a new interpreter)
    print(f"{'page':<26}{'cold best':>11}{'cold median':>13}{'warm':>8}{'cold CPU':>10}")
    slow = []
    for label, page, query in pages(deal_id):
        if args.only and not any(label.startswith(prefix) for prefix in args.only):
            continue
        cold, cpu = [], []
        for _ in range(args.repeat):
            st.cache_data.clear()
            st.cache_resource.clear()
            seconds, used = render(at, page, query)
            cold.append(seconds)
            cpu.append(used)
        warm, _ = render(at, page, query)
        print(f"{label:<26}{min(cold):>10.2f}s{statistics.median(cold):>12.2f}s{warm:>7.2f}s"
              f"{statistics.median(cpu):>9.2f}s", flush=True)
        if statistics.median(cold) > TARGET_SECONDS:
            slow.append(label)
    print(f"\nover {TARGET_SECONDS:.0f} s cold (median): {', '.join(slow) if slow else 'none'}")


if __name__ == "__main__":
    main()
