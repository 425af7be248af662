"""End to end, whole processes (issue 22): ``check`` against OpenSpiel's replay, ingest against DuckDB's and
polars' bare JSON→Parquet copies, the store against the bare Parquet, and a query's start-up.

    .venv/bin/python bench/bench_end_to_end.py [--games 30000] [--deals 200000] [--runs 2] [--sample-store DIR]
                                               [--only check|ingest|sql ...] [--no-bytecode]

1. ``tarock check --format json FILE`` over ``--games`` OpenSpiel games turned into our records
   (``bench/bench_openspiel.py``'s games, made 30,000 at a time), against a Python process that loads the
   same games' parameters and actions and replays them in pyspiel (``apply_action`` for every action: the
   bare replay); each process's peak resident set is printed beside its times (no record names a session,
   so check's memory of its deals is the duplicate check's: docs/records.md, "Sessions").
2. ``tarock ingest --executor local:2`` of ``--deals`` generated deals (``bench/bench_ingest.py``'s file),
   against ``COPY (SELECT * FROM read_json(…)) TO 'x.parquet'`` in DuckDB with 2 threads and polars'
   ``scan_ndjson(…).sink_parquet(…)``.
3. The store's bytes per table against the bare Parquet copy's.
4. ``tarock sql "select count(*) from deals"`` on the sample store (``--sample-store``, ingested from
   ``data/sample`` when missing).

Every figure is the best of ``--runs`` wall times of a whole process (start-up, reading, writing),
the processes of one comparison taking turns so a busy spell hits both; section 1 prints each process's
least CPU time (user + system) beside it too, which another job on the machine moves less.  The project's packages are
byte-compiled first (``compileall``), as an installed package is: a machine that sets
``PYTHONDONTWRITEBYTECODE`` would otherwise have every ``tarock`` process compile its modules from source
again (about 0.1 s of CPU), which the other side's processes never do (``--no-bytecode`` leaves that be).  Inputs go to ``bench/out/``
(git-ignored) and are kept between runs.  Figures go in closing notes; tests never assert times.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import math
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out"
TAROCK = [sys.executable, "-m", "tarock.cli"]
_GNU_TIME = "/usr/bin/time"

_OPENSPIEL_REPLAY = """
import json, sys
import pyspiel
games = json.load(open(sys.argv[1]))
for params, actions in games:
    state = pyspiel.load_game("tarok", params).new_initial_state()
    for action in actions:
        state.apply_action(action)
"""

_DUCKDB_COPY = """
import sys, duckdb
con = duckdb.connect()
con.execute("SET threads = 2")
con.execute(f"COPY (SELECT * FROM read_json('{sys.argv[1]}')) TO '{sys.argv[2]}' (FORMAT parquet)")
"""

_POLARS_SINK = """
import sys, polars as pl
pl.scan_ndjson(sys.argv[1]).sink_parquet(sys.argv[2])
"""


def byte_compile() -> None:
    """The project's packages byte-compiled into their ``__pycache__`` (git-ignored), as installing them does."""
    for package in ("tarock", "ingest", "analysis", "dashboards"):
        compileall.compile_dir(ROOT / package, quiet=1)


def run_timed(cmd: Sequence[str], peaks: dict[str, int] | None = None, name: str = "") -> tuple[float, float]:
    """Seconds one whole process takes, wall and CPU (user + system, its own and its children's), its output
    discarded; it must succeed (``check``: exit status 0 or 1, a deal with a renons or an error, which some of
    300,000 OpenSpiel games hold), else its stderr is shown.  With ``peaks`` (and GNU time at ``/usr/bin/time``),
    the process's peak resident set (KiB, time's ``%M``) goes into ``peaks[name]`` when it is the largest yet:
    run under ``time``, which forks it from its own small process (a child forked from this one would report
    this process's peak, the games made here included, as its own)."""
    measure = peaks is not None and os.access(_GNU_TIME, os.X_OK)
    peak_file = OUT / "peak-rss.txt"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([_GNU_TIME, "-f", "%M", "-o", str(peak_file), *cmd] if measure else cmd, cwd=ROOT,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in ((0, 1) if "check" in cmd else (0,)):
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr.decode(errors='replace')}")
    if measure and peaks is not None:
        peaks[name] = max(peaks.get(name, 0), int(peak_file.read_text().split()[-1]))
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best_of(runs: int, commands: dict[str, tuple[Sequence[str], Path | None]],
            cpu: dict[str, float] | None = None, peaks: dict[str, int] | None = None) -> dict[str, float]:
    """The best wall time of each command over ``runs`` turns (and into ``cpu``, when given, its least CPU
    time; into ``peaks`` its largest peak resident set, KiB); a path given beside a command is deleted before
    each of its runs (the output it writes)."""
    best = dict.fromkeys(commands, math.inf)
    for _ in range(runs):
        for name, (cmd, output) in commands.items():
            if output is not None:
                shutil.rmtree(output, ignore_errors=True) if output.is_dir() else output.unlink(missing_ok=True)
            seconds, cpu_seconds = run_timed(cmd, peaks, name)
            best[name] = min(best[name], seconds)
            if cpu is not None:
                cpu[name] = min(cpu.get(name, math.inf), cpu_seconds)
    return best


_BATCH = 30_000
"""More games than this are made in batches of this many (each batch's seeds after the last's), so memory
holds one batch at a time."""


def games_file(games: int) -> tuple[Path, Path]:
    """The records (JSONL) and OpenSpiel's replay input (JSON) of about ``games`` games."""
    records, replays = OUT / f"openspiel-{games}.jsonl", OUT / f"openspiel-{games}.replay.json"
    if not (records.exists() and replays.exists()):
        sys.path.insert(0, str(BENCH))
        from bench_openspiel import make_games, to_records

        made_count, seed = 0, 1
        with open(records, "wb") as out, open(replays, "w") as replay:
            replay.write("[")
            while made_count < games:
                made = make_games(games if games <= _BATCH else _BATCH, seed)
                out.write(b"\n".join(to_records(made)) + b"\n")
                replay.write(", " * (made_count > 0) + json.dumps(
                    [({"players": g["players"], "rng_seed": g["rng_seed"]}, g["actions"]) for g in made])[1:-1])
                made_count += len(made)
                seed += len(made)
            replay.write("]")
    return records, replays


def deals_file(deals: int) -> Path:
    path = OUT / f"deals-{deals}-1.jsonl"
    if not path.exists():
        sys.path.insert(0, str(BENCH))
        from bench_ingest import generate

        generate(path, deals, 1)
    return path


def lines(path: Path) -> int:
    with open(path, "rb") as fh:
        return sum(1 for _ in fh)


def tree_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*.parquet"))


def check_vs_openspiel(games: int, runs: int) -> None:
    records, replays = games_file(games)
    n = lines(records)
    cpu: dict[str, float] = {}
    peaks: dict[str, int] = {}
    best = best_of(runs, {
        "check": ([*TAROCK, "check", "--format", "json", str(records)], None),
        "openspiel": ([sys.executable, "-c", _OPENSPIEL_REPLAY, str(replays)], None),
    }, cpu, peaks)
    print(f"1. check -f json vs OpenSpiel's replay, {n:,} games, whole processes, best of {runs}")
    for name, seconds in best.items():
        peak = f"   peak RSS {peaks[name] / 1024:6.1f} MiB" if name in peaks else ""
        print(f"   {name:<10} {seconds:7.2f} s  {n / seconds:9,.0f} deals/s   CPU {cpu[name]:5.2f} s{peak}")
    print(f"   ratio (OpenSpiel time / check time): {best['openspiel'] / best['check']:.2f}×  (target ≥ 1.0)")
    print(f"   by CPU (least of {runs} each; a shared machine moves wall times more): "
          f"{cpu['openspiel'] / cpu['check']:.2f}×\n")


def ingest_vs_copies(deals: int, runs: int) -> Path:
    data = deals_file(deals)
    store, bare, sunk = OUT / "e2e-store", OUT / "e2e-bare.parquet", OUT / "e2e-polars.parquet"
    best = best_of(runs, {
        "ingest": ([*TAROCK, "ingest", "--executor", "local:2", "--store", str(store), str(data)], store),
        "duckdb": ([sys.executable, "-c", _DUCKDB_COPY, str(data), str(bare)], bare),
        "polars": ([sys.executable, "-c", _POLARS_SINK, str(data), str(sunk)], sunk),
    })
    print(f"2. ingest local:2 vs bare JSON→Parquet copies, {deals:,} deals, whole processes, best of {runs}")
    for name, seconds in best.items():
        print(f"   {name:<10} {seconds:7.2f} s  {deals / seconds:9,.0f} deals/s")
    print(f"   ratio (DuckDB copy time / ingest time): {best['duckdb'] / best['ingest']:.2f}×  (target ≥ 1.0)\n")
    tables = {p.name: tree_bytes(p) for gen in store.glob("gen-*") for p in sorted(gen.iterdir()) if p.is_dir()}
    total, base = sum(tables.values()), bare.stat().st_size
    print(f"3. store {total / 2**20:,.1f} MiB vs the bare Parquet copy {base / 2**20:,.1f} MiB: "
          f"{total / base:.2f}×  (target ≤ 2.0)")
    for name, size in sorted(tables.items(), key=lambda kv: -kv[1]):
        if size:
            print(f"   {name:<14} {size / 2**20:8.1f} MiB")
    print()
    return store


def query_start(sample_store: Path, runs: int) -> None:
    if not (sample_store / "CURRENT").exists():
        subprocess.run([*TAROCK, "ingest", "--store", str(sample_store), "data/sample"], check=True, cwd=ROOT,
                       stderr=subprocess.DEVNULL)
    best = best_of(max(runs, 3), {"sql": ([*TAROCK, "sql", "--store", str(sample_store),
                                           "select count(*) from deals"], None)})
    print(f"4. tarock sql \"select count(*) from deals\" on {sample_store}: {best['sql']:.2f} s  (target ≤ 0.4)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=30_000)
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--sample-store", type=Path, default=OUT / "e2e-sample-store")
    ap.add_argument("--only", action="append", choices=("check", "ingest", "sql"),
                    help="run only these comparisons (1: check, 2 and 3: ingest, 4: sql); default all")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="do not byte-compile the project's packages first (see above)")
    args = ap.parse_args()
    only = set(args.only or ("check", "ingest", "sql"))
    OUT.mkdir(exist_ok=True)
    if not args.no_bytecode:
        byte_compile()
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    bytecode = "as found" if args.no_bytecode else "compiled first"
    print(f"load average {load} at start; the project's bytecode {bytecode}\n")
    if "check" in only:
        check_vs_openspiel(args.games, args.runs)
    if "ingest" in only:
        ingest_vs_copies(args.deals, args.runs)
    if "sql" in only:
        query_start(args.sample_store, args.runs)


if __name__ == "__main__":
    main()
