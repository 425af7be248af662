"""``tarock analyse --store``: every card of the stored deals against double-dummy best play, as a table.

The deals come from the store's ``deals`` view (their canonical ``record`` and effective ``options_json``,
so nothing is re-read from the source files); each batch of deals is analysed by
``tarock.solver.analyse.analyse_deal`` on one of ingest's executors (``ingest.executors``: local processes or
a Dask scheduler) and written by the worker as one Parquet file per partition,
``<store>/card_analysis/ruleset=R/n_players=N/part-<key>.parquet`` (``ingest.schema.CARD_ANALYSIS``;
published atomically, ``ingest.writer``).  The key is a hash of the solver version and the batch's deal ids.

Which deals: Slovenian deals whose status is ``ok`` (clean: every card legal, so no loss is negative) in a
point contract (Tri … Solo brez: the card points are what a side plays for; Klop has no sides, and Berač and
the valats are won or lost by tricks), optionally narrowed by ``--where`` (one SQL expression over the ``deals``
view), less
those already in ``card_analysis`` with this ``SOLVER_VERSION``.  So re-running skips what is done, and a run
stopped half-way resumes with the batches it had not finished.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import orjson
import pyarrow as pa

from ingest.executors import make_executor, wait_some
from ingest.layout import ANALYSE_LOCK, StoreLayout
from ingest.schema import PARTITION_COLUMNS, file_schema
from ingest.store import open_store
from ingest.writer import write_table_atomic
from tarock.formats.codec import loads
from tarock.rules.slovenian.contracts import CONTRACTS
from tarock.solver.analyse import SOLVER_VERSION, analyse_deal

TABLE = "card_analysis"
POINT_CONTRACTS = tuple(name for name, c in CONTRACTS.items() if not (c.is_klop or c.is_beggar or c.is_valat))
"""The contracts analysed into the store: those a side plays for card points in."""

BATCH = 20
"""Deals per task: a task writes its files when done, so a stopped run loses at most a batch per worker."""


@dataclass(frozen=True, slots=True)
class Pending:
    """A stored deal still to analyse: its id, partition, canonical record and effective options."""

    deal_id: str
    ruleset: str
    n_players: int
    record: str
    options_json: str


def pending(store_dir: str | os.PathLike[str], where: str | None = None) -> list[Pending]:
    """The deals ``analyse_store`` would analyse now, in stored order, one copy each.

    ``where`` is one SQL expression over the ``deals`` view's columns, parsed alone (``deal_filter``) and applied
    to the view before anything else: it narrows the deals, never widens what is analysed.
    """
    contracts = ", ".join(f"'{name}'" for name in POINT_CONTRACTS)
    query = f"""
        SELECT deal_id, ruleset, n_players, record, options_json FROM picked
        WHERE ruleset = 'slovenian' AND status = 'ok' AND contract IN ({contracts})
          AND deal_id NOT IN (SELECT deal_id FROM {TABLE} WHERE solver_version = $1)
        QUALIFY row_number() OVER (PARTITION BY deal_id ORDER BY source_file, source_pos) = 1
        ORDER BY source_file, source_pos"""
    con = open_store(store_dir)
    try:
        deals = con.table("deals")
        (deals if where is None else deals.filter(deal_filter(where))).create_view("picked")
        rows = con.execute(query, [SOLVER_VERSION]).fetchall()
    finally:
        con.close()
    return [Pending(*row) for row in rows]


class BadFilter(ValueError):
    """A ``--where`` that is not one SQL expression."""


def deal_filter(where: str) -> duckdb.Expression:
    """``where`` parsed as one SQL expression (BadFilter when it is not: ``1=1) OR (1=1``, two statements …)."""
    try:
        return duckdb.SQLExpression(where)
    except duckdb.Error as exc:
        raise BadFilter(f"--where must be one SQL expression over the deals' columns: {exc}") from None


def rows_of(item: Pending, from_trick: int = 1, limit: float | None = None) -> tuple[list[dict[str, Any]], bool]:
    """The ``card_analysis`` rows of one deal (none when the solver declines it; ``analyse_deal`` says why), and
    whether the CPU ``limit`` stopped its analysis after a later trick than ``from_trick``."""
    report = analyse_deal(loads(item.record), from_trick, options=orjson.loads(item.options_json), limit=limit)
    if "error" in report:
        return [], False
    rows = [{"deal_id": item.deal_id, **row, "ruleset": item.ruleset, "n_players": item.n_players}
            for row in card_rows(report)]
    return rows, report["analysed_from"] > from_trick


def card_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """An ``analyse_deal`` report's cards as ``card_analysis`` rows without their deal and partition: trick,
    order (the card's place in its trick, from 0), player, card, best_cards, best_points, played_points,
    point_loss, solver_version."""
    out = []
    order = 0
    cards = report["cards"]
    for i, card in enumerate(cards):
        order = order + 1 if i and card["trick"] == cards[i - 1]["trick"] else 0
        out.append({"trick": card["trick"], "order": order, "player": card["player"], "card": card["card"],
                    "best_cards": card["best_cards"], "best_points": card["best_points"],
                    "played_points": card["played_points"], "point_loss": card["point_loss"],
                    "solver_version": SOLVER_VERSION})
    return out


def analyse_batch(store_dir: str, batch: list[Pending], from_trick: int = 1,
                  limit: float | None = None) -> tuple[int, int, int]:
    """A worker's task: analyse ``batch`` (each deal for at most ``limit`` CPU seconds) and publish its rows, one
    file per partition; (deals, cards, deals the limit stopped after a later trick than ``from_trick``).

    The file name is a hash of the solver version and the batch's deal ids: a batch run twice overwrites its
    own files, never adds rows twice.
    """
    rows: list[dict[str, Any]] = []
    partial = 0
    for item in batch:
        deal_rows, stopped = rows_of(item, from_trick, limit)
        rows.extend(deal_rows)
        partial += stopped
    key = hashlib.sha256(" ".join([SOLVER_VERSION, *(item.deal_id for item in batch)]).encode()).hexdigest()[:20]
    schema = file_schema(TABLE)
    for part, part_rows in _partitions(rows).items():
        ruleset, n_players = part
        directory = Path(store_dir) / TABLE / f"ruleset={ruleset}" / f"n_players={n_players}"
        directory.mkdir(parents=True, exist_ok=True)
        table = pa.Table.from_pylist([{k: v for k, v in r.items() if k not in PARTITION_COLUMNS}
                                      for r in part_rows], schema=schema)
        write_table_atomic(directory / f"part-{key}.parquet", table)
    return len(batch), len(rows), partial


def _partitions(rows: Iterable[dict[str, Any]]) -> dict[tuple[str, int], list[dict[str, Any]]]:
    out: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault((row["ruleset"], row["n_players"]), []).append(row)
    return out


def _batches(items: list[Pending], size: int) -> Iterator[list[Pending]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def analyse_store(store_dir: str | os.PathLike[str], where: str | None = None, executor: str | None = None,
                  from_trick: int = 1, batch: int = BATCH, progress: Callable[[int, int], None] | None = None,
                  limit: float | None = None) -> dict[str, int]:
    """Analyse every pending deal of the store into ``card_analysis``; the counts of deals and cards written,
    and of the deals ``limit`` (CPU seconds per deal: ``analyse_deal``) stopped after a later trick than
    ``from_trick`` (``partial``).

    ``executor`` is ingest's spec (``local``, ``local:N``, ``tcp://host:port``); ``progress(done, total)``
    follows the deals.  Holds the store's ``ANALYSE_LOCK`` (``StoreBusy`` while another analysis runs) and raises
    ``BadFilter`` for a ``where`` that is not one expression.
    """
    with StoreLayout.at(store_dir).lock(ANALYSE_LOCK, "analyse"):
        return _analyse(store_dir, where, executor, from_trick, batch, progress, limit)


def _analyse(store_dir: str | os.PathLike[str], where: str | None, executor: str | None, from_trick: int,
             batch: int, progress: Callable[[int, int], None] | None, limit: float | None) -> dict[str, int]:
    """``analyse_store`` under its lock: what is pending is read, analysed and written by one run alone, so two
    runs never write the same deal's rows twice (their batches, cut differently, would not overwrite)."""
    todo = pending(store_dir, where)
    tasks = list(_batches(todo, batch))
    done = cards = partial = 0
    if progress is not None:
        progress(0, len(todo))
    if not tasks:
        return {"deals": 0, "cards": 0, "partial": 0}
    pool = make_executor(executor, len(tasks))
    try:
        futures: list[Future[tuple[int, int, int]]] = [
            pool.submit(analyse_batch, str(store_dir), task, from_trick, limit) for task in tasks]
        running = set(futures)
        while running:
            for future in wait_some(pool, running):
                running.discard(future)
                deals, written, stopped = future.result()
                done += deals
                cards += written
                partial += stopped
                if progress is not None:
                    progress(done, len(todo))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return {"deals": done, "cards": cards, "partial": partial}

