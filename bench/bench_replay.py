"""Replay benchmark: parse + full validation (+ scoring) of generated 4-player deals, one core.

    .venv/bin/python bench/bench_replay.py [--deals 10000] [--seed 1] [--ruleset koenigrufen]

Prints deals/s for parse only, parse + replay, and parse + replay + score,
and the cost scoring adds to a replay.  Figures go in closing notes; tests
never assert times.
"""

from __future__ import annotations

import argparse
import random
import time

import orjson

from tarock.sim import random_koenigrufen
from tarock.engine import replay
from tarock.sim.randomplay import random_record
from tarock.formats.codec import loads
from tarock.rules.rulesets import score_facts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--ruleset", choices=("slovenian", "koenigrufen"), default="slovenian")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.ruleset == "koenigrufen":
        lines = [orjson.dumps(random_koenigrufen.random_record(rng)) for _ in range(args.deals)]
    else:
        lines = [orjson.dumps(random_record(rng, args.players)) for _ in range(args.deals)]

    def timed(label: str, fn) -> float:
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t)
        rate = len(lines) / best
        print(f"{label:<28} {rate:>10,.0f} deals/s  ({best / len(lines) * 1e6:6.1f} µs/deal)")
        return best

    def parse() -> None:
        for line in lines:
            loads(line)

    def validate() -> None:
        for line in lines:
            replay(loads(line))

    def validate_score() -> None:
        for line in lines:
            rp = replay(loads(line))
            if rp.facts is not None:
                score_facts(rp.facts)

    players = 4 if args.ruleset == "koenigrufen" else args.players
    print(f"{len(lines):,} generated {players}-player {args.ruleset} deals, best of 3 runs")
    t_parse = timed("parse", parse)
    t_val = timed("parse + validate", validate)
    t_all = timed("parse + validate + score", validate_score)
    print(f"scoring adds {100 * (t_all - t_val) / t_val:.1f} % to parse + validate "
          f"({100 * (t_all - t_val) / (t_val - t_parse):.1f} % to the replay alone)")


if __name__ == "__main__":
    main()
