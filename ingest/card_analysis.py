"""``tarock analyse --store``: every card of the stored deals against double-dummy best play, as tables.

Two answers per card, each a table: ``game_analysis`` judges every card from trick 1 against the contract's win
condition (``tarock.solver.decisive``: the cards that decided the game, ``M_GAME_LOST``), and ``card_analysis``
gives each card's exact point loss from a chosen trick (``tarock.solver.analyse``).  The deals come from the
store's ``deals`` view (their canonical ``record`` and effective ``options_json``, so nothing is re-read from the
source files); each batch of deals is analysed on one of ingest's executors (``ingest.executors``: local
processes or a Dask scheduler), 3-player deals (the hardest) first, and written by the worker as one Parquet file
per table and partition, ``<store>/<table>/ruleset=R/n_players=N/part-<key>.parquet`` (``ingest.schema``;
published atomically, ``ingest.writer``).  The key is a hash of the solver version and the batch's deal ids.

Which deals: Slovenian deals whose status is ``ok`` (clean: every card legal, so no loss is negative) with sides
(Klop has none); exact losses only in a point contract (Tri … Solo brez: the card points are what a side plays
for; Berač and the valats are won or lost by tricks, which the game verdicts cover); optionally narrowed by
``--where`` (one SQL expression over the ``deals`` view), less those already analysed with this version.  So
re-running skips what is done, and a run stopped half-way resumes with the batches it had not finished.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import orjson
import pyarrow as pa

from ingest.executors import make_executor, wait_some
from ingest.layout import ANALYSE_LOCK, StoreLayout
from ingest.schema import PARTITION_COLUMNS, file_schema
from ingest.store import open_store
from ingest.writer import write_table_atomic
from tarock.cards import CODES
from tarock.formats.codec import loads
from tarock.rules.slovenian.contracts import CONTRACTS
from tarock.solver.analyse import SOLVER_VERSION, analyse_deal
from tarock.solver.decisive import DECISIVE_VERSION, CardVerdict, OutOfScope, verdicts

TABLE = "card_analysis"
GAME_TABLE = "game_analysis"
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
    exact: bool = True
    """Its point losses are still to find (``card_analysis``: point contracts only)."""
    game: bool = True
    """Its game verdicts are still to find (``game_analysis``: every contract with sides)."""


def pending(store_dir: str | os.PathLike[str], where: str | None = None) -> list[Pending]:
    """The deals ``analyse_store`` would analyse now, in stored order, one copy each.

    ``where`` is one SQL expression over the ``deals`` view's columns, parsed alone (``deal_filter``) and applied
    to the view before anything else: it narrows the deals, never widens what is analysed.
    """
    contracts = ", ".join(f"'{name}'" for name in POINT_CONTRACTS)
    query = f"""
        SELECT deal_id, ruleset, n_players, record, options_json, exact, game FROM (
            SELECT *, contract IN ({contracts})
                      AND deal_id NOT IN (SELECT deal_id FROM {TABLE} WHERE solver_version = $1) AS exact,
                   deal_id NOT IN (SELECT deal_id FROM {GAME_TABLE} WHERE solver_version = $2) AS game
            FROM picked
            WHERE ruleset = 'slovenian' AND status = 'ok' AND contract <> 'klop'
            QUALIFY row_number() OVER (PARTITION BY deal_id ORDER BY source_file, source_pos) = 1)
        WHERE exact OR game
        ORDER BY source_file, source_pos"""
    con = open_store(store_dir)
    try:
        deals = con.table("deals")
        (deals if where is None else deals.filter(deal_filter(where))).create_view("picked")
        rows = con.execute(query, [SOLVER_VERSION, DECISIVE_VERSION]).fetchall()
    finally:
        con.close()
    return [Pending(*row) for row in rows]


class Coverage(NamedTuple):
    """How much of the store's play the analyses answer: cards played (every stored deal, every ruleset), cards
    with an exact point loss (``card_analysis``) and cards judged against the win condition (``game_analysis``),
    each of this solver version."""

    cards: int
    exact: int
    judged: int


def coverage(store_dir: str | os.PathLike[str]) -> Coverage:
    """The store's ``Coverage`` now."""
    con = open_store(store_dir)
    try:
        row = con.execute(f"""
            SELECT (SELECT count(*) FROM plays),
                   (SELECT count(*) FROM {TABLE} WHERE solver_version = $1 AND deal_id IN (SELECT deal_id FROM deals)),
                   (SELECT count(*) FROM {GAME_TABLE}
                    WHERE solver_version = $2 AND deal_id IN (SELECT deal_id FROM deals))""",
                          [SOLVER_VERSION, DECISIVE_VERSION]).fetchone()
    finally:
        con.close()
    assert row is not None
    return Coverage(*row)


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


def game_rows_of(item: Pending, limit: float | None = None) -> list[dict[str, Any]]:
    """The ``game_analysis`` rows of one deal: every card from trick 1 against the win condition, or with a CPU
    ``limit`` every card of the tricks judged within it, from the last one back (none when the deal is out of the
    solver's scope or not even its last trick was judged)."""
    try:
        line = verdicts(loads(item.record), orjson.loads(item.options_json), limit=limit)
    except OutOfScope:
        return []
    return [{"deal_id": item.deal_id, **row, "ruleset": item.ruleset, "n_players": item.n_players}
            for row in game_rows(line)]


def game_rows(line: list[CardVerdict]) -> list[dict[str, Any]]:
    """Judged cards as ``game_analysis`` rows without their deal and partition."""
    return [{"trick": v.trick, "order": v.order, "player": v.player, "card": CODES[v.card],
             "declarer_side": v.declarer_side, "declarer_could_win": v.declarer_could_win,
             "declarer_can_win": v.declarer_can_win, "decided": v.decided, "kept": [CODES[c] for c in v.kept],
             "solver_version": DECISIVE_VERSION} for v in line]


class BatchCounts(NamedTuple):
    """What one batch wrote: deals, ``card_analysis`` rows, deals the limit stopped after a later trick than
    asked, deals judged card by card from trick 1, and the misplays among their cards."""

    deals: int
    cards: int
    partial: int
    judged: int
    misplays: int


def analyse_batch(store_dir: str, batch: list[Pending], from_trick: int = 1,
                  limit: float | None = None) -> BatchCounts:
    """A worker's task: analyse ``batch`` (each deal for at most ``limit`` CPU seconds per analysis) and publish
    its rows, one file per table and partition.

    The file name is a hash of the solver version and the batch's deal ids: a batch run twice overwrites its
    own files, never adds rows twice.
    """
    rows: list[dict[str, Any]] = []
    judged: list[dict[str, Any]] = []
    partial = decided_deals = 0
    for item in batch:
        if item.exact:
            deal_rows, stopped = rows_of(item, from_trick, limit)
            rows.extend(deal_rows)
            partial += stopped
        if item.game:
            line = game_rows_of(item, limit)
            judged.extend(line)
            decided_deals += bool(line)
    _publish(store_dir, TABLE, SOLVER_VERSION, [item.deal_id for item in batch if item.exact], rows)
    _publish(store_dir, GAME_TABLE, DECISIVE_VERSION, [item.deal_id for item in batch if item.game], judged)
    return BatchCounts(len(batch), len(rows), partial, decided_deals, sum(r["decided"] for r in judged))


def _publish(store_dir: str, table_name: str, version: str, deal_ids: list[str],
             rows: list[dict[str, Any]]) -> None:
    """``rows`` of ``table_name`` as one file per partition, named by a hash of ``version`` and ``deal_ids``."""
    key = hashlib.sha256(" ".join([version, *deal_ids]).encode()).hexdigest()[:20]
    schema = file_schema(table_name)
    for part, part_rows in _partitions(rows).items():
        ruleset, n_players = part
        directory = Path(store_dir) / table_name / f"ruleset={ruleset}" / f"n_players={n_players}"
        directory.mkdir(parents=True, exist_ok=True)
        table = pa.Table.from_pylist([{k: v for k, v in r.items() if k not in PARTITION_COLUMNS}
                                      for r in part_rows], schema=schema)
        write_table_atomic(directory / f"part-{key}.parquet", table)


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
    todo = sorted(pending(store_dir, where), key=lambda item: item.n_players)  # 3 players (the hardest) first
    tasks = list(_batches(todo, batch))
    totals = BatchCounts(0, 0, 0, 0, 0)
    if progress is not None:
        progress(0, len(todo))
    if not tasks:
        return totals._asdict()
    pool = make_executor(executor, len(tasks))
    try:
        futures: list[Future[BatchCounts]] = [
            pool.submit(analyse_batch, str(store_dir), task, from_trick, limit) for task in tasks]
        running = set(futures)
        while running:
            for future in wait_some(pool, running):
                running.discard(future)
                totals = BatchCounts(*(a + b for a, b in zip(totals, future.result())))
                if progress is not None:
                    progress(totals.deals, len(todo))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return totals._asdict()

