"""Simulator benchmark: deals/s of ``write_simulation`` and the contract mix it produces.

    .venv/bin/python bench/bench_simulate.py [--players 4] [--deals 100000] [--mistakes 0] [--workers 1]
        [--ruleset slovenian|koenigrufen|both] [--reference]

Writes ``bench/out/sim-<ruleset>-<players>p-<deals>.jsonl`` (git-ignored) and prints
wall time, CPU time (this process and its pool workers, from
``resource.getrusage``), deals/s per CPU second, and each contract's share.
Every deal is checked as it is simulated, so the figure includes that check.
The records are written plain: the simulator's own cost.  Then the file is
gzipped in memory as ``tarock simulate out.jsonl.gz`` writes it (``GZIP_LEVEL``),
and the compression's CPU time per deal and the deals per CPU second with it
are printed too: zlib at level 6 costs about as much as the simulator's whole
deal, and is the same for any producer of the records.  ``--reference`` runs
without any C (the Python players and the reference engine, as
``TAROCK_REFERENCE=1``), for the same output.  Figures go in closing notes;
tests never assert times.
"""

from __future__ import annotations

import argparse
import gzip
import io
import resource
from contextlib import nullcontext
from pathlib import Path

from tarock import accel

from tarock.sim.simulate import GZIP_LEVEL, RULESETS, write_simulation

OUT = Path(__file__).resolve().parent / "out"
SESSION = 20


def cpu_seconds() -> float:
    """User + system time of this process and of its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def gzip_seconds(data: bytes) -> float:
    """CPU seconds to gzip ``data`` as ``write_simulation`` writes a ``.gz`` output."""
    began = cpu_seconds()
    with gzip.GzipFile(filename="", mode="wb", fileobj=io.BytesIO(), mtime=0, compresslevel=GZIP_LEVEL) as gz:
        gz.write(data)
    return cpu_seconds() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--mistakes", type=float, default=0.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--ruleset", choices=("both", *RULESETS), default="both",
                        help="the ruleset to simulate (default: each in turn)")
    parser.add_argument("--reference", action="store_true",
                        help="no C: the Python players and the reference engine (the output is the same)")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    with accel.reference() if args.reference else nullcontext():  # the pool's workers inherit it
        for ruleset in RULESETS if args.ruleset == "both" else (args.ruleset,):
            run(args, ruleset)


def run(args: argparse.Namespace, ruleset: str) -> None:
    """Simulate ``args.deals`` deals of ``ruleset`` and print the figures."""
    players = 4 if ruleset == "koenigrufen" else args.players
    out = OUT / f"sim-{ruleset}-{players}p-{args.deals}.jsonl"
    began = cpu_seconds()
    stats = write_simulation(out, players, args.deals // SESSION, SESSION, args.seed, args.mistakes,
                             args.workers, ruleset)
    cpu = cpu_seconds() - began
    path = "reference (no C)" if args.reference else "compiled" if accel.KERNEL is not None else "reference (not built)"
    print(f"{ruleset}, {players} players, {path}: {stats.deals} deals, {args.workers} worker(s): wall {stats.seconds:.1f}s "
          f"({stats.deals_per_second:.0f} deals/s), CPU {cpu:.1f}s "
          f"({stats.deals / cpu:.0f} deals/s per CPU s)")
    zipped = gzip_seconds(out.read_bytes())
    print(f"  gzip level {GZIP_LEVEL} (an .gz output): {1e6 * zipped / stats.deals:.0f} µs of CPU a deal; simulated and "
          f"gzipped {stats.deals / (cpu + zipped):.0f} deals/s per CPU s")
    print(f"mistakes injected: {stats.mistakes} {dict(stats.kinds.most_common())}")
    for contract, n in stats.contracts.most_common():
        print(f"  {contract:14s} {n:7d} {100 * n / stats.deals:6.2f}%")


if __name__ == "__main__":
    main()
