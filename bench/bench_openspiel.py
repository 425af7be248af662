"""OpenSpiel side by side (issue 11): validating and scoring a record against OpenSpiel replaying the game.

    .venv/bin/python bench/bench_openspiel.py [--games 5000] [--seed 1] [--reference] [--ingest N]

Plays the games once in pyspiel (``tarock.formats.openspiel.random_games``: seeded
random legal play, the bidding steered so that every contract is played,
3 and 4 players, the same number of games for each contract) and turns each
into our record, a line of JSON text (``game_to_deal``, ``tarock.formats.codec.dumps``).
Then times on the same games, one core, best of 3 runs (interleaved):

a. OpenSpiel: a fresh tarok game from the game's ``rng_seed``, its first
   state, and ``apply_action`` for every action of the history (the bare replay);
b. ours from text: ``replay(loads(line))``, then ``score_facts`` of its facts
   (parse + validate + score);
c. ours from decoded deals: the same with the Deals decoded beforehand
   (validate + score).

It prints games/s and µs/game per player count and overall (all games over
the sum of the per-count best times), the speed of b and c relative to a
(1.00 or more: we are as fast as OpenSpiel), and how many of our replays had
findings (docs/openspiel.md: OpenSpiel's forced Pagat is the one play we call
a renons).  Our functions are looked up in their modules at call time, so the
figures are those of whatever the engine currently is; ``--reference`` sets
``TAROCK_REFERENCE=1`` before tarock is imported (the pure-Python reference
engine).  ``--ingest N`` then runs ``bench/bench_ingest.py --deals N
--executors local:1,local:2`` (with the same environment) and shows its
output.  Figures go in closing notes; tests never assert times.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pyspiel

BENCH = Path(__file__).resolve().parent
RUNS = 3
PLAYER_COUNTS = (4, 3)

Replayable = tuple[dict[str, int], list[int]]
"""What OpenSpiel needs to replay a game: its game parameters and ``state.history()``."""


def make_games(games: int, seed: int) -> list[dict[str, Any]]:
    """About ``games`` games, the same number for each contract of 4 and of 3 players, seeds from ``seed``."""
    from tarock.formats.openspiel import PLAYABLE_CONTRACTS, random_games

    per = max(1, round(games / sum(len(PLAYABLE_CONTRACTS[n]) for n in PLAYER_COUNTS)))
    return random_games(dict.fromkeys(PLAYER_COUNTS, per), first_seed=seed)


def to_records(games: list[dict[str, Any]]) -> list[bytes]:
    """Each game as our record: one line of JSON text."""
    from tarock.formats import openspiel
    from tarock.formats import codec

    return [codec.dumps(openspiel.game_to_deal(game)).encode() for game in games]


def openspiel_replay(games: list[Replayable]) -> None:
    for params, actions in games:
        state = pyspiel.load_game("tarok", params).new_initial_state()
        for action in actions:
            state.apply_action(action)


def ours_from_text(lines: list[bytes]) -> None:
    from tarock import engine
    from tarock.formats import codec
    from tarock.rules import rulesets

    for line in lines:
        rp = engine.replay(codec.loads(line))
        if rp.facts is not None:
            rulesets.score_facts(rp.facts)


def ours_from_deals(deals: list[Any]) -> None:
    from tarock import engine
    from tarock.rules import rulesets

    for deal in deals:
        rp = engine.replay(deal)
        if rp.facts is not None:
            rulesets.score_facts(rp.facts)


def best_times(runs: dict[tuple[str, int], Callable[[], None]]) -> dict[tuple[str, int], float]:
    """The best of ``RUNS`` wall times of each run; the runs take turns, so a busy spell hits them all."""
    best = dict.fromkeys(runs, math.inf)
    for _ in range(RUNS):
        for key, run in runs.items():
            started = time.perf_counter()
            run()
            best[key] = min(best[key], time.perf_counter() - started)
    return best


METHODS = (
    ("a", "OpenSpiel: new state + apply_action"),
    ("b", "ours from text: parse+validate+score"),
    ("c", "ours from deals: validate+score"),
)


def report(best: dict[tuple[str, int], float], counts: Counter[int]) -> None:
    """The table of rates per method and player count, then the speed ratios to OpenSpiel."""
    columns = [f"{n} players" for n in PLAYER_COUNTS] + ["all"]
    print(f"{'':<40}" + "".join(f"{c:>22}" for c in columns))
    seconds = {m: [best[m, n] for n in PLAYER_COUNTS] + [sum(best[m, n] for n in PLAYER_COUNTS)]
               for m, _ in METHODS}
    games = [counts[n] for n in PLAYER_COUNTS] + [sum(counts.values())]
    for m, label in METHODS:
        cells = [f"{g / s:>9,.0f}/s {s / g * 1e6:6.1f} µs" for g, s in zip(games, seconds[m])]
        print(f"{m}  {label:<37}" + "".join(f"{c:>22}" for c in cells))
    for m in ("b", "c"):
        ratios = [f"{a / s:>21.2f}×" for a, s in zip(seconds["a"], seconds[m])]
        print(f"{m}/a  {'speed ratio: ours / OpenSpiel':<35}" + "".join(ratios))
    print("(b/a, c/a: our games/s over OpenSpiel's; 1.00× or more meets issue 11)")


def run_ingest(deals: int) -> None:
    """bench_ingest.py end to end with local:1 and local:2, its output passed through."""
    cmd = [sys.executable, str(BENCH / "bench_ingest.py"), "--deals", str(deals), "--executors", "local:1,local:2"]
    print(f"\nend-to-end ingest: {' '.join(cmd[1:])}", flush=True)
    subprocess.run(cmd, check=True, cwd=BENCH.parent)


def prepare_runs(games: list[dict[str, Any]], lines: list[bytes]) -> dict[tuple[str, int], Callable[[], None]]:
    """The timed runs a, b and c for each player count, their input made beforehand."""
    from tarock.formats import codec

    runs: dict[tuple[str, int], Callable[[], None]] = {}
    for n in PLAYER_COUNTS:
        indexes = [i for i, game in enumerate(games) if game["players"] == n]
        text = [lines[i] for i in indexes]
        runs["a", n] = partial(openspiel_replay, [({"players": n, "rng_seed": games[i]["rng_seed"]},
                                                   games[i]["actions"]) for i in indexes])
        runs["b", n] = partial(ours_from_text, text)
        runs["c", n] = partial(ours_from_deals, [codec.loads(line) for line in text])
    return runs


def print_findings(lines: list[bytes]) -> None:
    """How many of our replays of ``lines`` had findings, and how often each finding code came up."""
    from tarock import engine
    from tarock.formats import codec

    with_findings = 0
    codes: Counter[str] = Counter()
    for line in lines:
        findings = engine.replay(codec.loads(line)).findings
        with_findings += bool(findings)
        codes.update(f.code for f in findings)
    listed = f" ({', '.join(f'{code} ×{k}' for code, k in codes.most_common())})" if codes else ""
    print(f"\nour replays with findings: {with_findings:,} of {len(lines):,}{listed}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=5_000, help="about this many games (whole numbers per contract)")
    ap.add_argument("--seed", type=int, default=1, help="the first game's rng_seed (the others follow)")
    ap.add_argument("--reference", action="store_true", help="set TAROCK_REFERENCE=1 before importing tarock")
    ap.add_argument("--ingest", type=int, default=0, metavar="N", help="also ingest N deals end to end (0: skip)")
    args = ap.parse_args()
    if args.reference:
        os.environ["TAROCK_REFERENCE"] = "1"
    started = time.perf_counter()
    games = make_games(args.games, args.seed)
    generated = time.perf_counter() - started
    lines = to_records(games)
    counts = Counter(game["players"] for game in games)
    print(f"{len(games):,} games played in pyspiel ({', '.join(f'{counts[n]:,} of {n}' for n in PLAYER_COUNTS)} "
          f"players, rng_seed {args.seed}–{args.seed + len(games) - 1}) in {generated:.1f}s, records of "
          f"{sum(map(len, lines)) / len(lines):,.0f} bytes on average; "
          f"TAROCK_REFERENCE={os.environ.get('TAROCK_REFERENCE', '(unset)')}; best of {RUNS} runs, one core\n")
    report(best_times(prepare_runs(games, lines)), counts)
    print_findings(lines)
    if args.ingest:
        run_ingest(args.ingest)


if __name__ == "__main__":
    main()
