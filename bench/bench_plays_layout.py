"""What keeping each card once costs the queries: ``plays`` as a view over ``tricks`` held by position.

    .venv/bin/python bench/bench_plays_layout.py --store DIR [--repeat 3] [--out DIR]

The store holds the cards played twice, in ``tricks.cards`` (a list per trick) and ``plays.card`` (a row
per card), each about at the entropy of the cards (docs/store.md, "Sizes").  This measures the layout
that keeps them once: the ``tricks`` files hold ``card_0`` … ``card_3``, ``player_0`` … ``player_3``
(dictionary strings, null past the trick's size) and ``code_0`` … ``code_3`` (the play's finding code,
nearly always null) instead of the ``cards`` and ``players`` lists, and no ``plays`` files are written:
``plays`` becomes a UNION ALL of one branch per position (each branch reads its columns straight from
the files, dictionaries kept, so a filter on ``card`` reaches the Parquet scan) and ``tricks.cards``
the list of the non-null ``card_i``.

It converts the store's current ``tricks`` and ``plays`` files (read only) into that layout under
``--out`` with the store's own writer (``ingest.writer.write_parquet``), prints both layouts' sizes,
and times the same queries on both (``ingest.store.open_store``'s views; the other layout's views
replace ``tricks``, ``plays`` and their ``stored.*`` key-only views on the same connection), the two
alternating, best of ``--repeat`` each.  A store with ``duplicates`` is refused (the converted views do
not anti-join them).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.compute as pc

from analysis.king_calls import _REVEALS, _SUMMARY
from analysis.filters import NO_FILTERS, child_where, deal_where
from analysis.sql import Fragment, compose
from analysis.vocabulary import contract_rank
from ingest.store import open_store, parquet_source, store_files
from ingest.view_columns import TABLES
from ingest.writer import write_parquet

POSITIONS = 4
"""Cards a trick holds at most (4 players)."""

OUT = Path(__file__).resolve().parent / "out"


def _convert(tricks_file: str, plays_file: str, target: Path) -> None:
    """One shard's ``tricks`` file in the per-position layout, its codes from the ``plays`` file beside it."""
    con = duckdb.connect()
    per_position = ", ".join(f"t.cards[{i + 1}] AS card_{i}" for i in range(POSITIONS))
    players = ", ".join(f"t.players[{i + 1}] AS player_{i}" for i in range(POSITIONS))
    codes = ", ".join(f"c.code_{i}" for i in range(POSITIONS))
    pivot = ", ".join(f"any_value(code) FILTER (WHERE position = {i}) AS code_{i}"
                      for i in range(POSITIONS))
    table = con.sql(f"""
        SELECT t.source_file, t.source_pos, t.shard, t.trick_no, t.leader, t.winner, {per_position},
               {players}, t.points, {codes}
        FROM read_parquet('{tricks_file}', file_row_number=true) t
        LEFT JOIN (SELECT source_file, source_pos, trick_no, {pivot} FROM read_parquet('{plays_file}')
                   WHERE code IS NOT NULL GROUP BY ALL) c
            ON c.source_file = t.source_file AND c.source_pos = t.source_pos AND c.trick_no = t.trick_no
        ORDER BY t.file_row_number""").to_arrow_table()
    con.close()
    for i, name in enumerate(table.column_names):  # strings as the writers build them: dictionary arrays
        if name.startswith(("card_", "player_", "leader", "winner", "source_file", "shard")):
            table = table.set_column(i, name, pc.dictionary_encode(table.column(name)))
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "wb") as fh:
        write_parquet(table, fh)


def convert(store: Path, out: Path) -> list[str]:
    """Each current ``tricks`` file of ``store`` converted under ``out`` (kept): their paths."""
    files = store_files(store)
    plays = {Path(f).relative_to(Path(f).parents[3]).as_posix().split("/", 1)[1]: f for f in files["plays"]}
    converted = []
    for tricks_file in files["tricks"]:
        rel = Path(tricks_file).relative_to(Path(tricks_file).parents[3]).as_posix().split("/", 1)[1]
        target = out / "tricks" / rel
        if not target.exists():
            _convert(tricks_file, plays[rel], target)
        converted.append(str(target))
    return converted


def _size(paths: list[str]) -> float:
    return sum(Path(p).stat().st_size for p in paths) / 2**20


def use_positions(con: duckdb.DuckDBPyConnection, converted: list[str]) -> None:
    """Replace ``tricks``, ``plays`` and their key-only views by views over the converted files."""
    source = parquet_source(converted, hive=True, union=False)
    non_null = "lambda x: x IS NOT NULL"
    computed = {
        "cards": f"list_filter([{', '.join(f'card_{i}' for i in range(POSITIONS))}], {non_null})",
        "players": f"list_filter([{', '.join(f'player_{i}' for i in range(POSITIONS))}], {non_null})",
    }
    key_only = {"deal_id", "content_hash"}

    def columns(table: str, own: dict[str, str]) -> str:
        return ", ".join(f"{own.get(name, name)} AS {name}" for name, _ in TABLES[table]
                         if name not in key_only)

    tricks = f"SELECT {columns('tricks', computed)} FROM {source}"
    def play(i: int) -> str:
        own = {"position": str(i), "player": f"player_{i}", "card": f"card_{i}", "legal": f"code_{i} IS NULL",
               "code": f"code_{i}"}
        return f"SELECT {columns('plays', own)} FROM {source} WHERE card_{i} IS NOT NULL"

    branches = " UNION ALL ".join(play(i) for i in range(POSITIONS))
    for table, body in (("tricks", tricks), ("plays", branches)):
        con.execute(f"CREATE OR REPLACE VIEW stored.{table} AS {body}")
        public = ", ".join(f"d.{name}" if name in key_only else f"t.{name}" for name, _ in TABLES[table])
        con.execute(f"CREATE OR REPLACE VIEW {table} AS SELECT {public} FROM stored.{table} t "
                    "JOIN deals d ON t.shard = d.shard AND t.source_pos = d.source_pos")


def queries(con: duckdb.DuckDBPyConnection) -> dict[str, Fragment]:
    """The queries timed: the brief's, and the analysis pages' that read ``plays`` (king calls, reveals)."""
    picked = "SELECT deal_id FROM deals ORDER BY source_pos, shard LIMIT 1 OFFSET 777"
    deal_id = con.sql(picked).fetchall()[0][0]
    where, plays_where = deal_where(NO_FILTERS, declared=True), child_where(NO_FILTERS, "p")
    order = contract_rank("c.contract")
    plain = {
        "plays: group by card": "SELECT card, count(*) FROM plays GROUP BY 1",
        "plays: one deal": f"SELECT * FROM plays WHERE deal_id = '{deal_id}'",
        "plays: illegal": "SELECT count(*), count(code) FROM plays WHERE NOT legal",
        "stored.plays: T1 by player":
            "SELECT player, count(*) FROM stored.plays WHERE card = 'T1' GROUP BY 1",
        "stored.plays: count, sum(position)": "SELECT count(*), sum(position) FROM stored.plays",
        "tricks: count": "SELECT count(*) FROM tricks",
        "tricks: avg(points)": "SELECT avg(points) FROM tricks",
        "tricks: one deal": f"SELECT * FROM tricks WHERE deal_id = '{deal_id}'",
        "tricks: cards holding T21": "SELECT count(*) FROM tricks WHERE list_contains(cards, 'T21')",
    }
    return {**{name: Fragment(sql) for name, sql in plain.items()},
            "king calls (page)": compose(_SUMMARY, where=where, plays_where=plays_where, order=order),
            "partner reveals (page)": compose(_REVEALS, where=where, plays_where=plays_where)}


def best(con: duckdb.DuckDBPyConnection, query: Fragment, repeat: int) -> tuple[float, list[Any]]:
    """The fastest of ``repeat`` runs, and the rows."""
    times, rows = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        rows = con.execute(query.sql, query.params).fetchall()
        times.append(time.perf_counter() - started)
    return min(times), rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--out", type=Path,
                        help="where the converted files go (default bench/out/plays-layout-<name>)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    out = args.out or OUT / f"plays-layout-{args.store.resolve().name}"
    files = store_files(args.store)
    counted = [duckdb.execute(f"SELECT count(*) FROM '{f}'").fetchall()[0][0] for f in files["duplicates"]]
    if any(counted):
        raise SystemExit(f"{args.store}: holds duplicates, which the converted views do not hide")
    started = time.perf_counter()
    converted = convert(args.store, out)
    print(f"converted {len(converted)} tricks files in {time.perf_counter() - started:.1f} s (kept in {out})")
    before, after = _size(files["tricks"]) + _size(files["plays"]), _size(converted)
    print(f"stored: tricks {_size(files['tricks']):.2f} + plays {_size(files['plays']):.2f} = "
          f"{before:.2f} MiB; "
          f"per position: tricks {after:.2f} MiB ({after - before:+.2f})")
    stored, positions = open_store(args.store), open_store(args.store)
    use_positions(positions, converted)
    print(f"{'query':36s} {'stored':>8s} {'per position':>13s}  (best of {args.repeat}, alternating)")
    for name, query in queries(stored).items():
        a, rows_a = best(stored, query, args.repeat)
        b, rows_b = best(positions, query, args.repeat)
        a2, _ = best(stored, query, args.repeat)
        b2, _ = best(positions, query, args.repeat)
        same = sorted(map(repr, rows_a)) == sorted(map(repr, rows_b))
        print(f"{name:36s} {min(a, a2):7.3f}s {min(b, b2):12.3f}s  {'same rows' if same else 'ROWS DIFFER'}")


if __name__ == "__main__":
    main()
