"""Solver benchmark: exact values of the last D tricks of generated 4-player deals, one core.

    .venv/bin/python bench/bench_solver.py [--deals 30] [--depths 6 8] [--seed 1] [--analyse]

Deals come from ``tarock.sim.randomplay.random_record`` with contracts Tri … Solo
ena; each position (the start of trick 13 − D) is solved from a cold
transposition table.  Prints min / median / max seconds and table sizes per
depth; ``--analyse`` also times ``analyse_deal`` (every card from that trick
on).  Targets: 6 tricks under 1 s, 8 tricks under 30 s.  Tests never assert
times.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tarock.solver import search as solver
from tarock.solver.analyse import analyse_deal
from tarock.solver.position import position_before
from tarock.engine import replay
from tarock.sim.randomplay import random_record
from tarock.formats.codec import deal_from_obj

CONTRACTS = ("tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena")


def deals(n: int, seed: int) -> list:
    rng = random.Random(seed)
    return [deal_from_obj(random_record(rng, 4, rng.choice(CONTRACTS))) for _ in range(n)]


def timed_solve(position: solver.Position) -> tuple[float, int]:
    """Seconds to solve ``position`` from a cold table, and the table's final size."""
    solver.clear_cache()
    t = time.perf_counter()
    solver.value(position)
    return time.perf_counter() - t, solver.cache_size()


def report(label: str, times: list[float], sizes: list[int] | None = None) -> None:
    line = f"{label:<22} min {min(times):8.3f}  median {statistics.median(times):8.3f}  max {max(times):8.3f} s"
    if sizes:
        line += f"   table median {int(statistics.median(sizes)):>9,}  max {max(sizes):>9,}"
    print(line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--depths", type=int, nargs="+", default=[6, 8])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--analyse", action="store_true", help="also time analyse_deal from the same trick")
    args = ap.parse_args()
    sample = deals(args.deals, args.seed)
    print(f"{len(sample)} generated 4-player deals (Tri … Solo ena), cold table per position")
    for depth in args.depths:
        results = [timed_solve(position_before(replay(d), 13 - depth)) for d in sample]
        report(f"last {depth} tricks", [t for t, _ in results], [s for _, s in results])
        if args.analyse:
            times = []
            for d in sample:
                solver.clear_cache()
                t = time.perf_counter()
                analyse_deal(d, 13 - depth)
                times.append(time.perf_counter() - t)
            report(f"analyse {depth} tricks", times)


if __name__ == "__main__":
    main()
