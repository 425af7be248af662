"""Play-out figures for docs/analysis.md (issue 37): monotonicity over pairs of hands, calibration on simulated deals,
and the speed of the play-outs.

    .venv/bin/python bench/bench_playouts.py monotone [--pairs 200] [--players 4] [--seed 1]
    .venv/bin/python bench/bench_playouts.py calibration [--deals 12000] [--players 4] [--playouts 100] [--seed 1]
                                             [--contract NAME]
    .venv/bin/python bench/bench_playouts.py faithful [--sessions 40] [--players 4] [--seed 1]
    .venv/bin/python bench/bench_playouts.py speed

``monotone``: pairs of random hands where the second is the first with one tarok raised to a higher one it does
not hold, or one of its lowest suit cards, a pip card, turned into a tarok it does not hold, never losing card
points (``tarock.sim.playouts.random_pair``: the Pagat is raised only to the Mond or the Škis); every contract of
the table is played out for both on the same deals but for the traded card (``tarock.sim.playouts.paired``:
common random numbers).  A pair breaks monotonicity when the hand stronger *for the contract* wins it less often
beyond its own 95 % interval: in a positive contract the second hand, whose interval's upper end lies below the
first's rate; in Berač and Odprti berač, where a higher card is one more trick to take, the first (the lower
cards), whose upper end lies below the second's rate.  Printed per contract: the pairs, the breaks, and the mean
difference of the rates.

``calibration``: simulated sessions (``tarock.sim.simulate``, a seed of its own: deals never seen by anything
fitted) give declared deals; each declarer's dealt hand is played out ``--playouts`` times from the declarer's
own seat and the play-out rate is the prediction of whether the deal was won (``--playouts 0``: as many as
``tarock advise`` plays, sequentially; ``--contract``: that contract's deals only, to look at one contract on many
more deals).  Printed per contract with at least 500 deals: the Brier score against the base rate's (the
contract's win rate over these deals), and the reliability bins: equal-count (quantile) bins of the prediction,
200 deals or more each, 10 at most (``quantile_bins``: deals, mean prediction, observed rate with its standard
error; the largest gap is the figure judged), then the tenths of the prediction for the record.

``faithful``: simulated deals played out again from their own hands and talon (``play_dealt``), against how the
session ended: the play-outs play as the simulator does, so what the calibration finds is in the deals.

``speed``: play-outs per second of every contract for two fixed hands.  Tests never assert these.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

from tarock.cards import codes_of, mask_of, parse_card
from tarock.rules.slovenian.contracts import CONTRACTS
from tarock.sim.playouts import biddable, estimate, estimates, paired, random_pair


def monotone(pairs: int, n: int, seed: int) -> None:
    rng = random.Random(seed)
    breaks: dict[str, list[str]] = defaultdict(list)
    diffs: dict[str, float] = defaultdict(float)
    started = time.perf_counter()
    for i in range(pairs):
        weak, strong, what = random_pair(rng, n)
        for contract in biddable(n):
            a, b = paired(weak, strong, n, contract, seed=i)
            if contract.negative:  # Berač, Odprti berač: the lower cards are the stronger hand
                broken = a.interval[1] < b.win_probability
            else:
                broken = b.interval[1] < a.win_probability
            diffs[a.contract] += b.win_probability - a.win_probability
            if broken:
                breaks[a.contract].append(f"pair {i} ({what}; {' '.join(codes_of(weak))}): {a.win_probability:.3f} "
                                          f"{a.interval[0]:.3f}-{a.interval[1]:.3f} -> {b.win_probability:.3f} "
                                          f"{b.interval[0]:.3f}-{b.interval[1]:.3f}")
    seconds = time.perf_counter() - started
    print(f"{pairs} pairs of {n}-player hands, seed {seed}, in {seconds:.0f}s")
    total = 0
    for contract in biddable(n):
        name = contract.name
        total += len(breaks[name])
        print(f"  {contract.label:13s} breaks {len(breaks[name]):3d} of {pairs}; mean rate change "
              f"{100 * diffs[name] / pairs:+.1f} points")
        for line in breaks[name][:5]:
            print("      " + line)
    print(f"breaks over every contract: {total} of {pairs * len(biddable(n))} comparisons")


def calibration(deals: int, n: int, playouts: int, seed: int, only: str | None) -> None:
    from tarock.sim.simulate import simulate_sessions

    sessions = max(1, deals // 20)
    started = time.perf_counter()
    rows: list[tuple[str, float, bool]] = []
    for record, _ in simulate_sessions(n, seed, 0, sessions, 20, 0.0):
        declarer = record.get("declarer")
        if declarer is None or only is not None and record["contract"] != only:
            continue
        players = record["players"]
        seat = players.index(declarer)
        hand = mask_of([parse_card(c) for c in record["hands"][declarer]])
        contract = CONTRACTS[record["contract"]]
        won = _won(record)
        if playouts:
            played = estimate(hand, n, contract, seed=len(rows), cap=playouts, half_width=0.0, seat=seat)
        else:  # as ``tarock advise`` plays them out: until the interval is ±5 points, at most CAP
            played = estimate(hand, n, contract, seed=len(rows), seat=seat)
        rows.append((contract.name, played.win_probability, won))
    print(f"{len(rows):,} declared deals of {sessions * 20:,} simulated ({n} players, seed {seed}), "
          f"{playouts or 'up to the advice cap of'} play-outs each, in {time.perf_counter() - started:.0f}s")
    by: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for name, p, won in rows:
        by[name].append((p, won))
    for name, items in sorted(by.items(), key=lambda kv: -len(kv[1])):
        base = sum(w for _, w in items) / len(items)
        brier = sum((p - w) ** 2 for p, w in items) / len(items)
        brier_base = sum((base - w) ** 2 for _, w in items) / len(items)
        print(f"  {name:13s} {len(items):6,} deals  won {100 * base:5.1f} %  Brier {brier:.3f} vs base "
              f"{brier_base:.3f}{'' if len(items) >= 500 else '  (under 500 deals)'}")
        if len(items) < 500:
            continue
        worst = 0.0
        print("      quantile bins (sorted by prediction, equal counts):")
        for group in quantile_bins(items):
            mean = sum(p for p, _ in group) / len(group)
            observed = sum(w for _, w in group) / len(group)
            error = (observed * (1 - observed) / len(group)) ** 0.5
            worst = max(worst, abs(mean - observed))
            print(f"        {len(group):5d} deals, predicted {mean:.3f}, observed {observed:.3f} ± {error:.3f} "
                  f"(gap {100 * (observed - mean):+.1f} points)")
        print(f"      largest gap: {100 * worst:.1f} points")
        tenths: dict[int, list[tuple[float, bool]]] = defaultdict(list)
        for p, w in items:
            tenths[min(int(p * 10), 9)].append((p, w))
        print("      tenths (not judged): " + ", ".join(
            f"{b / 10:.1f} {len(g)}: {sum(p for p, _ in g) / len(g):.3f} -> {sum(w for _, w in g) / len(g):.3f}"
            for b, g in sorted(tenths.items())))


def quantile_bins(items: list[tuple[float, bool]]) -> list[list[tuple[float, bool]]]:
    """``items`` (prediction, outcome) sorted by prediction and cut into bins of equal count: as many as leave 200
    deals or more in each, 10 at most (``sklearn.calibration.calibration_curve(strategy="quantile")``'s bins, but
    by count, so that ties in the prediction do not merge bins).  Fixed tenths leave bins of a few dozen deals
    whose gap is mostly noise (a standard error of 5–8 points) and put most of a contract's deals in two or three
    bins; equal counts judge every part of the curve on enough deals."""
    ordered = sorted(items, key=lambda item: item[0])
    k = min(10, max(1, len(ordered) // 200))
    return [ordered[len(ordered) * b // k:len(ordered) * (b + 1) // k] for b in range(k)]


def _won(record: dict[str, object]) -> bool:
    """Whether the declarer's side won, as the engine and the scorer say (not the score's sign: a failed pagat
    ultimo can cost a won game more than it brought)."""
    from tarock.engine import replay
    from tarock.formats.codec import deal_from_obj
    from tarock.rules.slovenian.scoring import score_deal

    facts = replay(deal_from_obj(record)).facts
    assert facts is not None
    return bool(score_deal(facts).won)  # type: ignore[arg-type]


def faithful(sessions: int, n: int, seed: int) -> None:
    """How often a play-out of a simulated deal's own hands and talon ends as the session did (deals without a
    called king or a pagat ultimo: ``tests/sim/test_playouts.py`` says why)."""
    from tarock.sim.playouts import play_dealt
    from tarock.sim.simulate import simulate_sessions

    same = total = 0
    for record, _ in simulate_sessions(n, seed, 0, sessions, 20, 0.0):
        announced = [a.get("bonus") for a in record.get("announcements", ())]
        if record.get("declarer") is None or "called_king" in record or "pagat_ultimo" in announced:
            continue
        players = record["players"]
        hands = [mask_of([parse_card(c) for c in record["hands"][p]]) for p in players]
        talon = [parse_card(c) for c in record["talon"]]
        won, _ = play_dealt(hands, talon, CONTRACTS[record["contract"]], random.Random(0),
                            players.index(record["declarer"]))
        same += won == _won(record)
        total += 1
    print(f"{same} of {total} declared {n}-player deals ({sessions} sessions of 20, seed {seed}) played out from "
          "their own hands and talon end as the session did")


def speed() -> None:
    for text in ("T22 T21 T20 T19 T18 T17 T16 T15 HK DK SK CK", "T21 T20 T15 T12 T8 T5 HK H3 DQ S7 C9 CK"):
        hand = mask_of([parse_card(w) for w in text.split()])
        started = time.perf_counter()
        found = estimates(hand, 4)
        seconds = time.perf_counter() - started
        count = sum(e.playouts for e in found)
        print(f"{text}: {count} play-outs of {len(found)} contracts in {seconds:.2f}s ({count / seconds:,.0f}/s)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("monotone", "calibration", "faithful", "speed"))
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--deals", type=int, default=12_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--playouts", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--contract", help="calibration: this contract's deals only (a name: solo_tri)")
    args = ap.parse_args()
    if args.what == "monotone":
        monotone(args.pairs, args.players, args.seed)
    elif args.what == "faithful":
        faithful(args.sessions, args.players, args.seed)
    elif args.what == "calibration":
        calibration(args.deals, args.players, args.playouts, 3700 + args.seed, args.contract)
    else:
        speed()


if __name__ == "__main__":
    main()
