"""Rescoring speed of the what-if (``analysis.whatif``): deals/s under one rules table, read from a store.

    .venv/bin/python bench/bench_whatif.py --store /tmp/wstore --table openspiel [--table palcka ...]

Each table is timed alone (its deals scored / wall seconds, the record read and decode included), best of
``--repeat`` runs; the store is opened once before (the first query's view setup is not counted).
"""

from __future__ import annotations

import argparse
import time

from analysis.store import Store
from analysis.whatif import whatif


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--table", action="append", default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    store = Store(args.store)
    store.query("SELECT count(*) FROM deals")
    for table in args.table or ["openspiel"]:
        best = float("inf")
        scored = 0
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = whatif(store, [table])
            best = min(best, time.perf_counter() - start)
            scored = result.scored
        print(f"{table}: {scored:,} deals in {best:.2f} s = {scored / best:,.0f} deals/s")


if __name__ == "__main__":
    main()
