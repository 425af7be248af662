"""The compiled solver core against the pure-Python reference on generated deals' value from one trick on.

    .venv/bin/python scripts/solver_agreement.py --players 4 --deals 150 --from-trick 6 [--limit 20]

Each deal (``randomplay.random_record``: Tri … Solo ena with 4 players, Tri, Dva, Ena with 3) is solved from
the position before ``--from-trick`` by the core and by the reference (``tarock.accel.reference``), each
from a cold table; the reference gets ``--limit`` seconds (a deal it does not finish is not compared).
Prints each deal's two values and the count that agree; exits 1 on any disagreement.  Whole deals from
trick 1 take the reference minutes each, so this is the check for many deals that tests/solver cannot run.

``--solutions`` compares no reference: it prints each deal's ``solve`` by the compiled core (value, best cards,
principal variation) as one JSON line, from a cold table, to compare two builds of the core side by side, even
on whole deals: run it under each (``PYTHONPATH`` at the other build's tree) and ``diff`` the outputs.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
from typing import Any

from tarock import accel
from tarock.engine import replay
from tarock.formats.codec import deal_from_obj
from tarock.sim.randomplay import random_record
from tarock.solver import search
from tarock.solver.position import position_before

CONTRACTS = {4: ("tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena"), 3: ("tri", "dva", "ena")}


class Late(Exception):
    """The reference ran past the limit."""


def _late(*_: Any) -> None:
    raise Late


def _position(players: int, index: int, from_trick: int) -> Any:
    """The position before ``from_trick`` of the ``index``-th generated deal of ``players`` players."""
    rng = random.Random(f"agree-{players}-{index}")
    deal = deal_from_obj(random_record(rng, players, rng.choice(CONTRACTS[players])))
    return position_before(replay(deal), from_trick)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=4, choices=[3, 4])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--from-trick", type=int, default=6)
    ap.add_argument("--limit", type=int, default=20, help="seconds the reference gets per deal")
    ap.add_argument("--solutions", action="store_true",
                    help="print the compiled core's solve per deal as JSON lines, no reference")
    args = ap.parse_args()
    if accel.SOLVER is None:
        print("the compiled solver core is not built: nothing to compare")
        return 2
    if args.solutions:
        for i in range(args.deals):
            position = _position(args.players, i, args.from_trick)
            search.clear_cache()
            sol = search.solve(position)
            print(json.dumps({"deal": i, "value": search.value(position), "points": sol.points,
                              "success": sol.success, "best_cards": list(sol.best_cards),
                              "variation": list(sol.variation)}), flush=True)
        return 0
    signal.signal(signal.SIGALRM, _late)
    agree = skipped = 0
    fast = slow = 0.0
    for i in range(args.deals):
        position = _position(args.players, i, args.from_trick)
        search.clear_cache()
        t = time.perf_counter()
        compiled = search.value(position)
        fast += time.perf_counter() - t
        try:
            with accel.reference():
                search.clear_cache()
                signal.alarm(args.limit)
                t = time.perf_counter()
                reference = search.value(position)
                signal.alarm(0)
                slow += time.perf_counter() - t
        except Late:
            skipped += 1
            print(f"deal {i}: the reference ran past {args.limit} s", flush=True)
            continue
        agree += compiled == reference
        print(f"deal {i} ({position.contract}): compiled {compiled}, reference {reference}"
              + ("" if compiled == reference else "  DISAGREE"), flush=True)
    compared = args.deals - skipped
    print(f"{args.players} players from trick {args.from_trick}: {agree} of {compared} compared deals agree "
          f"({skipped} skipped); compiled {fast:.1f} s, reference {slow:.1f} s (compared deals)")
    return 0 if agree == compared else 1


if __name__ == "__main__":
    sys.exit(main())
