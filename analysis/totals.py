"""Per-player and per-pair sums, and the derived tables that keep them per ruleset and table size.

The Players page opens on two questions whose answers are sums over every
stored deal: each player's deals, contracts declared and won, scores, radelci
and renons (``players.players``), and each declarer-partner pair's declared
deals, wins and scores (``partnerships.partners``).  Sums per ruleset and
table size add up to the sums over any of them, so after every ingest
``update`` computes them per ruleset and table size into ``player_totals``
and ``pair_totals`` (docs/store.md), which record the store's
``StoreLayout.content_id`` they were computed from.  ``player_sums`` and
``pair_sums`` read those tables while they are current and the filters are on
the ruleset and table size alone, and ask ``results``, ``findings`` and
``deals`` otherwise — with the same answer, from the same query text.  On a
million deals a table answers in a few hundredths of a second of CPU where
the queries over every row take 0.3–0.6 s (docs/analysis.md, "Speed").
"""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl

from analysis.filters import NO_FILTERS, Filters, child_where, deal_where, needs_deals, partition_where
from analysis.sql import TRUE, Fragment, compose, run
from analysis.store import Store
from ingest.layout import StoreLayout
from ingest.store import open_store

PLAYER_TOTALS = "player_totals"
PAIR_TOTALS = "pair_totals"
CONTENT_KEY = "tarock.totals.content_id"
"""The Parquet metadata key holding the ``StoreLayout.content_id`` a table was computed from."""

_PLAYERS = """
WITH seats AS (
    SELECT {r_partitions} r.player, count(*) AS deals,
           count(*) FILTER (WHERE r.role = 'declarer' AND r.won IS NOT NULL) AS declared,
           count(*) FILTER (WHERE r.role = 'declarer' AND r.won) AS won,
           count(r.score) AS scored, CAST(sum(r.score) AS BIGINT) AS score_sum,
           CAST(coalesce(sum(r.radelci_after - r.radelci_before), 0) AS BIGINT) AS radelci
    FROM stored.results r
    WHERE {results_where} AND {results_only}
    GROUP BY ALL
),
renons AS (
    SELECT {f_partitions} f.player, count(*) AS renons
    FROM stored.findings f
    WHERE f.severity = 'renons' AND {findings_where} AND {findings_only}
    GROUP BY ALL
)
SELECT s.*, coalesce(n.renons, 0) AS renons
FROM seats s LEFT JOIN renons n ON {same_player}
"""
"""Per player (and per ruleset and table size, for the table): seats, declared and won contracts, the scores'
count and sum, the radelci balance (``players`` says why a sum of differences) and renons against them."""

# A deal with a partner has one ``results`` row with ``role = 'declarer'``, the declarer's (several only in
# Königrufen's parallel negative games, which have no partner: docs/store.md), so that filter, applied in the
# scan, picks the declarer's row alone: a quarter of results' rows reach the join, which compares no names.
_PAIRS = """
SELECT {d_partitions} least(d.declarer, d.partner) AS player_a, greatest(d.declarer, d.partner) AS player_b,
       count(*) AS deals, count(*) FILTER (WHERE d.won) AS wins, count(r.score) AS scored,
       CAST(sum(r.score) AS BIGINT) AS score_sum
FROM deals d
JOIN stored.results r ON r.shard = d.shard AND r.source_file = d.source_file AND r.source_pos = d.source_pos
    AND r.role = 'declarer'
WHERE {where} AND d.partner IS NOT NULL AND d.partner <> d.declarer AND {pair}
GROUP BY ALL
"""
"""Per declarer-partner pair (and per ruleset and table size, for the table): declared deals, wins, the
declarer's scores' count and sum."""

_PLAYERS_OF_TOTALS = """
SELECT t.player, CAST(sum(t.deals) AS BIGINT) AS deals, CAST(sum(t.declared) AS BIGINT) AS declared,
       CAST(sum(t.won) AS BIGINT) AS won, CAST(sum(t.scored) AS BIGINT) AS scored,
       CAST(sum(t.score_sum) AS BIGINT) AS score_sum, CAST(sum(t.radelci) AS BIGINT) AS radelci,
       CAST(sum(t.renons) AS BIGINT) AS renons
FROM player_totals t
WHERE {where}
GROUP BY t.player
"""

_PAIRS_OF_TOTALS = """
SELECT t.player_a, t.player_b, CAST(sum(t.deals) AS BIGINT) AS deals, CAST(sum(t.wins) AS BIGINT) AS wins,
       CAST(sum(t.scored) AS BIGINT) AS scored, CAST(sum(t.score_sum) AS BIGINT) AS score_sum
FROM pair_totals t
WHERE {where}
GROUP BY ALL
"""

_NAMES_OF_TOTALS = "SELECT DISTINCT t.player FROM player_totals t WHERE {where} ORDER BY player"

_CONTENT_ID = "SELECT decode(value) AS id FROM parquet_kv_metadata($path) WHERE decode(key) = $key"

_NONE = Fragment("")
_SAME_PLAYER = Fragment("n.player = s.player")
_BY_PARTITION = {"r_partitions": Fragment("r.ruleset, r.n_players,"),
                 "f_partitions": Fragment("f.ruleset, f.n_players,"),
                 "d_partitions": Fragment("d.ruleset, d.n_players,"),
                 "same_player": Fragment("n.player = s.player AND n.ruleset = s.ruleset AND n.n_players = s.n_players")}


def player_only(filters: Filters, alias: str) -> Fragment:
    """Rows of the filtered player only (when the filters name one)."""
    if filters.player is None:
        return TRUE
    return Fragment(f"{alias}.player = $f_player", {"f_player": filters.player})


def player_sums(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Per player (in no order): deals, declared, won, scored, score_sum, radelci, renons; from
    ``player_totals`` while it is current and no filter needs ``deals``, else from ``results`` and
    ``findings``.  With a ``player`` filter, only that player's row."""
    if not needs_deals(filters) and current(store, PLAYER_TOTALS):
        return run(store, _PLAYERS_OF_TOTALS, where=partition_where(filters, "t"))
    return run(store, _PLAYERS, r_partitions=_NONE, f_partitions=_NONE, same_player=_SAME_PLAYER,
               results_where=child_where(filters, "r"), results_only=player_only(filters, "r"),
               findings_where=child_where(filters, "f"), findings_only=player_only(filters, "f"))


def pair_sums(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Per pair (``player_a`` < ``player_b``, in no order): deals, wins, scored, score_sum; from ``pair_totals``
    while it is current and no filter needs ``deals``, else from ``deals`` and ``results``."""
    if not needs_deals(filters) and current(store, PAIR_TOTALS):
        return run(store, _PAIRS_OF_TOTALS, where=partition_where(filters, "t"))
    pair = TRUE if filters.player is None else Fragment("$f_player IN (d.declarer, d.partner)",
                                                        {"f_player": filters.player})
    return run(store, _PAIRS, d_partitions=_NONE, where=deal_where(filters, "d", declared=True), pair=pair)


def player_names(store: Store, filters: Filters) -> pl.DataFrame | None:
    """Every player of the filtered deals, sorted, from ``player_totals`` while it is current (filters on the
    ruleset and table size alone); None when the table cannot say."""
    if needs_deals(filters) or not current(store, PLAYER_TOTALS):
        return None
    return run(store, _NAMES_OF_TOTALS, where=partition_where(filters, "t"))


def current(store: Store, table: str) -> bool:
    """Whether the store's ``table`` was computed from the deals it holds now (an exported DuckDB file's never
    counts: nothing says what it was computed from)."""
    if store.is_file:
        return False
    layout = StoreLayout.at(store.source)
    generation = layout.read_current()
    if generation is None or not (path := layout.derived_path(generation, table)).exists():
        return False
    found = store.query(_CONTENT_ID, {"path": str(path), "key": CONTENT_KEY})
    return found.height == 1 and found["id"][0] == layout.content_id()


def _sums() -> dict[str, tuple[Fragment, tuple[str, ...]]]:
    """Each derived table's query over the whole store, and the columns its rows are sorted by."""
    every = NO_FILTERS
    return {
        PLAYER_TOTALS: (compose(_PLAYERS, **_BY_PARTITION, results_where=child_where(every, "r"), results_only=TRUE,
                                findings_where=child_where(every, "f"), findings_only=TRUE),
                        ("ruleset", "n_players", "player")),
        PAIR_TOTALS: (compose(_PAIRS, **_BY_PARTITION, where=deal_where(every, "d", declared=True), pair=TRUE),
                      ("ruleset", "n_players", "player_a", "player_b")),
    }


def disagreements(store: Store) -> dict[str, int]:
    """Per derived table that is ``current``: how many rows it and the sums over the per-deal tables now hold
    that the other does not (``tarock verify``: a current table must be those sums exactly).  A table that is
    not current is left out: its readers ask the per-deal tables instead."""
    out = {}
    for name, (query, order) in _sums().items():
        if not current(store, name):
            continue
        columns = ", ".join(order)
        fresh = store.query(f"SELECT * FROM ({query.sql}) ORDER BY {columns}", query.params or None)
        kept = store.query(f"SELECT {', '.join(fresh.columns)} FROM {name} ORDER BY {columns}")
        kept = kept.cast(fresh.schema)
        out[name] = (fresh.join(kept, on=fresh.columns, how="anti", nulls_equal=True).height
                     + kept.join(fresh, on=fresh.columns, how="anti", nulls_equal=True).height)
    return out


def update(store_dir: str | os.PathLike[str]) -> list[Path]:
    """Compute every player's and every pair's sums per ruleset and table size and replace the store's
    ``player_totals`` and ``pair_totals`` files with them (none written for a store with no generation yet).

    Holds the store's lock (``StoreBusy`` while an ingest runs), so the sums and the content id they record
    are of the same deals.
    """
    import pyarrow.parquet as pq  # the writer's alone: the readers (the pages, `tarock sql`) import no pyarrow

    from ingest.schema import DERIVED_TABLES

    queries = _sums()
    layout = StoreLayout.at(store_dir)
    written = []
    with layout.lock():
        generation, content = layout.read_current(), layout.content_id()
        if generation is None or content is None:
            return []
        con = open_store(store_dir)
        try:
            tables = {name: con.sql(query.sql, params=query.params or None).to_arrow_table()
                      for name, (query, _) in queries.items()}
        finally:
            con.close()
        for name, table in tables.items():
            schema = DERIVED_TABLES[name].with_metadata({CONTENT_KEY: content})
            table = table.select(schema.names).sort_by([(key, "ascending") for key in queries[name][1]])
            path = layout.derived_path(generation, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            pq.write_table(table.cast(schema), temp, compression="zstd")
            os.replace(temp, path)
            written.append(path)
    return written
