"""Simulated deals against their ground truth, at scale: the checker finds exactly the injected mistakes.

    .venv/bin/python bench/bench_truth.py [--ruleset koenigrufen] [--players 4] [--sessions 5000]
        [--deals-per-session 20] [--seed 2026] [--rate 0.0 --rate 0.3]

For each mistake rate, ``write_simulation`` writes the records (``bench/out/truth-<ruleset>-<rate>.jsonl``,
git-ignored) and their truth beside them; every record is checked (``check_items``), and the findings, as
(deal id, code, trick, player), are compared with the truth's.  Prints the counts, whether they are equal, the
seconds each step took, the contract shares of the first rate's deals and the mistakes by code.  Issue 19's
"100,000 Königrufen deals" is the default; ``tests/sim`` checks the same on a few thousand.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import orjson

from tarock.check.checker import check_items
from tarock.check.result import DealCheck
from tarock.formats.reader import read_records
from tarock.sim.simulate import RULESETS, truth_path, write_simulation

OUT = Path(__file__).resolve().parent / "out"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", choices=RULESETS, default="koenigrufen")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sessions", type=int, default=5000)
    parser.add_argument("--deals-per-session", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rate", type=float, action="append", help="mistake rate (repeatable; default 0 and 0.3)")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    for n, rate in enumerate(args.rate or [0.0, 0.3]):
        path = OUT / f"truth-{args.ruleset}-{rate}.jsonl"
        began = time.perf_counter()
        stats = write_simulation(path, args.players, sessions=args.sessions, deals_per_session=args.deals_per_session,
                                 seed=args.seed, mistakes=rate, ruleset=args.ruleset)
        simulated = time.perf_counter() - began
        began = time.perf_counter()
        checks = [c for c in check_items(read_records(path)) if isinstance(c, DealCheck)]
        checked = time.perf_counter() - began
        found = Counter((c.id, f.code, f.trick, f.player) for c in checks for f in c.findings)
        lines = [orjson.loads(line) for line in truth_path(path).read_bytes().splitlines()]
        truth = Counter((t["id"], t["code"], t["trick"], t["player"]) for t in lines)
        print(f"{args.ruleset}, mistakes {rate}: {stats.deals:,} deals, {len(checks):,} checked; findings "
              f"{sum(found.values()):,}, truth {len(lines):,}, equal: {found == truth} "
              f"(simulated in {simulated:.0f} s, checked in {checked:.0f} s)")
        if n == 0:
            total = sum(stats.contracts.values())
            for name, count in sorted(stats.contracts.items(), key=lambda kv: (-kv[1], kv[0])):
                print(f"  {name:<18}{count:>8,}  {100 * count / total:6.2f} %")
        if lines:
            print("  mistakes by code:", ", ".join(f"{code} {k:,}" for code, k in
                                                  Counter(t["code"] for t in lines).most_common()))


if __name__ == "__main__":
    main()
