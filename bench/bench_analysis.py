"""Time every analysis function on a large store (figures go in closing notes; tests never assert times).

    .venv/bin/python bench/bench_analysis.py [--deals 1000000] [--store DIR] [--duckdb] [--repeat 3] [--ratings]

Without ``--store`` it builds — or reuses, when complete — a synthetic store
of ``--deals`` deals under ``bench/out/store-<deals>/`` (git-ignored).  The
synthetic store is written directly as Parquet shards following
``ingest/schema.py`` (``bench/synth_store.py``: realistic value
distributions, no replay), because ingesting a million records takes far
longer than the queries being timed.  ``--store DIR`` times a real store
directory (or an exported ``.duckdb`` file) instead.  ``--duckdb`` also
exports the store to a DuckDB file beside it and times the same functions
on that.

The Players page's questions are timed too; their ``ratings`` table is
rebuilt first (and timed) when the store has none, or with ``--ratings``.

Each function runs once to warm the caches (file metadata, OS page cache),
then ``--repeat`` times; the best wall-clock time, the median and the best
CPU time of the process (all DuckDB threads) are printed, with the rows
returned.  The CPU time tells what a call costs when other processes share
the machine; on an idle 2-core machine the wall time is about half to all
of it.  The load average is printed before and after.  Opening the store
(listing the shards, typing the views) is timed apart.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

from analysis import (accuracy, audit, bonuses, calendar, deals, king_calls, luck, outcomes, overview, partnerships,
                      player_report, players, ratings, sessions, win_rates)
from analysis.filters import Filters
from analysis.store import Store
from bench.synth_store import build_store
from ingest.layout import StoreLayout
from ingest.store import export_duckdb

OUT = Path(__file__).resolve().parent / "out"


def synthetic_store(n_deals: int) -> Path:
    """The cached synthetic store of ``n_deals`` deals, built first when missing or incomplete."""
    path = OUT / f"store-{n_deals}"
    if StoreLayout.at(path).read_current() is None:
        print(f"building a synthetic store of {n_deals:,} deals in {path} …", flush=True)
        started = time.perf_counter()
        build_store(path, n_deals, workers=2, progress=True)
        print(f"built in {time.perf_counter() - started:.0f} s", flush=True)
    return path


def cases(store: Store) -> list[tuple[str, Callable[[], pl.DataFrame]]]:
    """(label, call) for every analysis function, with typical arguments picked from the store itself."""
    probe = deals.find_deals(store, limit=1)
    deal_id = probe["deal_id"][0]
    session = probe["session"][0]
    player = store.query("SELECT players[1] AS name FROM deals LIMIT 1")["name"][0]
    some = Filters(players=4, date_from=dt.date(2020, 1, 1))

    def detail() -> pl.DataFrame:
        found = deals.deal_detail(store, deal_id)
        assert found is not None
        return found.tricks

    return [
        ("win_rates by contract", lambda: win_rates.win_rates(store)),
        ("win_rates by declarer", lambda: win_rates.win_rates(store, by="declarer")),
        ("win_rates by seat", lambda: win_rates.win_rates(store, by="seat")),
        ("win_rates by ruleset", lambda: win_rates.win_rates(store, by="ruleset")),
        ("win_rates by month", lambda: win_rates.win_rates(store, by="month")),
        ("win_rates contract × seat", lambda: win_rates.win_rates(store, by=("contract", "seat"))),
        ("win_rates, 4 players since 2020", lambda: win_rates.win_rates(store, some)),
        ("win_rates of one player", lambda: win_rates.win_rates(store, Filters(player=player))),
        ("undeclared (klop)", lambda: win_rates.undeclared(store)),
        ("outcomes", lambda: outcomes.outcomes(store)),
        ("bonuses", lambda: bonuses.bonuses(store)),
        ("kontras", lambda: bonuses.kontras(store)),
        ("king_calls", lambda: king_calls.king_calls(store)),
        ("partner_reveals", lambda: king_calls.partner_reveals(store)),
        ("players", lambda: players.players(store)),
        ("players, one player", lambda: players.players(store, Filters(player=player))),
        ("player_renons", lambda: players.player_renons(store)),
        ("player_names", lambda: players.player_names(store)),
        ("audit disputes", lambda: audit.disputes(store)),
        ("audit renons by code", lambda: audit.renons(store, by="code")),
        ("audit renons by player", lambda: audit.renons(store, by="player")),
        ("audit renons by trick", lambda: audit.renons(store, by="trick")),
        ("audit findings (renons)", lambda: audit.findings(store)),
        ("audit rejects", lambda: audit.rejects(store)),
        ("sessions", lambda: sessions.sessions(store)),
        ("running_totals, one session", lambda: sessions.running_totals(store, session=session)),
        ("running_totals, all sessions", lambda: sessions.running_totals(store)),
        ("overview", lambda: overview.overview(store)),
        ("find_deals by id prefix", lambda: deals.find_deals(store, id_prefix=deal_id[:3])),
        ("find_deals by player", lambda: deals.find_deals(store, Filters(player=player))),
        ("find_deals by session", lambda: deals.find_deals(store, session=session)),
        ("deal_detail", detail),
        *player_cases(store, player),
    ]


def player_cases(store: Store, player: str) -> list[tuple[str, Callable[[], pl.DataFrame]]]:
    """The Players page's questions (ratings, calendar, roles, partners, strong hands, accuracy)."""
    four = Filters(ruleset="slovenian", players=4)
    best = ratings.current(store, four)["player"].head(4).to_list()

    def solver() -> pl.DataFrame:
        if not accuracy.available(store):
            return pl.DataFrame()
        accuracy.coverage(store)
        accuracy.biggest_losses(store)
        return accuracy.accuracy(store)

    return [
        ("ratings current", lambda: ratings.current(store)),
        ("ratings current, slovenian 4", lambda: ratings.current(store, four)),
        ("ratings history of 4 players", lambda: ratings.history(store, best, four)),
        ("report --by player", lambda: player_report.player_table(store, Filters())),
        ("calendar of one player", lambda: calendar.calendar(store, player)),
        ("roles of one player", lambda: partnerships.roles(store, Filters(player=player))),
        ("partners", lambda: partnerships.partners(store)),
        ("partners of one player", lambda: partnerships.partners(store, Filters(player=player))),
        ("strong hands", lambda: luck.luck(store)),
        ("accuracy (when analysed)", solver),
    ]


def time_ratings(source: Path) -> None:
    """Rebuild the store's ratings once and print the wall and CPU seconds (all threads of the process)."""
    wall, cpu = time.perf_counter(), time.process_time()
    done = ratings.rebuild(source)
    print(f"{'ratings rebuild':<34} {time.perf_counter() - wall:7.3f} s  cpu {time.process_time() - cpu:6.3f} s"
          f"  {done.deals:,} deals, {done.rows:,} rows  (load average {os.getloadavg()[0]:.1f})", flush=True)


def time_all(store: Store, repeat: int) -> None:
    """Print best and median wall seconds, best CPU seconds and the row count of every case."""
    print(f"load average {os.getloadavg()[0]:.1f}")
    started = time.perf_counter()
    store.connect().close()
    print(f"{'open the store':<34} {time.perf_counter() - started:8.3f} s")
    for label, call in cases(store):
        call()
        walls, cpus = [], []
        for _ in range(repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            rows = call().height
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        flag = "" if min(walls) < 1.0 else "  (over 1 s)"
        print(f"{label:<34} {min(walls):7.3f} s  median {statistics.median(walls):6.3f} s  cpu {min(cpus):6.3f} s"
              f"  {rows:>9,} rows{flag}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1_000_000, help="size of the synthetic store")
    ap.add_argument("--store", type=Path, help="time this store directory or .duckdb file instead")
    ap.add_argument("--duckdb", action="store_true", help="also time an exported DuckDB file of the store")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ratings", action="store_true", help="rebuild the ratings first and time it (a store "
                    "directory without ratings is always rebuilt)")
    args = ap.parse_args()
    source = args.store or synthetic_store(args.deals)
    if not Path(source).is_file():
        with Store(source) as probe:
            missing = not ratings.has_ratings(probe)
        if args.ratings or missing:
            time_ratings(Path(source))
    with Store(source) as store:
        n = store.query("SELECT count(*) AS n FROM deals")["n"][0]
        print(f"store {source}: {n:,} deals")
        time_all(store, args.repeat)
    if args.duckdb and not Path(source).is_file():
        file = Path(f"{source}.duckdb")
        if not file.exists():
            started = time.perf_counter()
            export_duckdb(source, file)
            print(f"exported to {file} in {time.perf_counter() - started:.1f} s")
        with Store(file) as store:
            print(f"exported DuckDB file {file}")
            time_all(store, args.repeat)


if __name__ == "__main__":
    main()
