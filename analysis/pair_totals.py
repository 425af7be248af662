"""The declarer-partner pairs' sums, and the derived ``pair_totals`` table that keeps them.

A pair is counted over the declared deals (``deal_where(..., declared=True)``)
in which one player declared and another was the partner; a pair's ``deals``,
``wins`` (the declarer side won), ``scored`` (deals with a recomputed score)
and ``score_sum`` (the declarer's score, summed) are sums, so sums per ruleset
and table size add up to the sums over any of them.  ``update`` computes them
per ruleset and table size after an ingest into ``pair_totals``, which
records the store's ``StoreLayout.content_id`` it was computed from; ``sums``
reads that table while it is current and the filters are on the ruleset and
table size alone, and asks ``deals`` and ``results`` otherwise.  On a million
deals the table answers in about 0.04 s of CPU where the join takes 0.5–0.6 s
(docs/analysis.md, "Speed").
"""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl

from analysis.filters import NO_FILTERS, Filters, deal_where, needs_deals, partition_where
from analysis.sql import TRUE, Fragment, compose, run
from analysis.store import Store
from ingest.layout import StoreLayout
from ingest.store import open_store

TABLE = "pair_totals"
CONTENT_KEY = "tarock.pair_totals.content_id"
"""The Parquet metadata key holding the ``StoreLayout.content_id`` the file was computed from."""

# A deal with a partner has one ``results`` row with ``role = 'declarer'``, the declarer's (several only in
# Königrufen's parallel negative games, which have no partner: docs/store.md), so that filter, applied in the
# scan, picks the declarer's row alone: a quarter of results' rows reach the join, which compares no names.
_PAIRS = """
SELECT {partitions} least(d.declarer, d.partner) AS player_a, greatest(d.declarer, d.partner) AS player_b,
       count(*) AS deals, count(*) FILTER (WHERE d.won) AS wins, count(r.score) AS scored,
       CAST(sum(r.score) AS BIGINT) AS score_sum
FROM deals d
JOIN stored.results r ON r.shard = d.shard AND r.source_file = d.source_file AND r.source_line = d.source_line
    AND r.role = 'declarer'
WHERE {where} AND d.partner IS NOT NULL AND d.partner <> d.declarer AND {pair}
GROUP BY ALL
"""

_FROM_TOTALS = """
SELECT t.player_a, t.player_b, CAST(sum(t.deals) AS BIGINT) AS deals, CAST(sum(t.wins) AS BIGINT) AS wins,
       CAST(sum(t.scored) AS BIGINT) AS scored, CAST(sum(t.score_sum) AS BIGINT) AS score_sum
FROM pair_totals t
WHERE {where}
GROUP BY ALL
"""

_CONTENT_ID = "SELECT decode(value) AS id FROM parquet_kv_metadata($path) WHERE decode(key) = $key"

_NO_PARTITIONS = Fragment("")
_BY_PARTITION = Fragment("d.ruleset, d.n_players,")


def sums(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Per pair (``player_a`` < ``player_b``): deals, wins, scored, score_sum; from ``pair_totals`` while it is
    current and no filter needs ``deals``, else from ``deals`` and ``results``."""
    if not needs_deals(filters) and current(store):
        return run(store, _FROM_TOTALS, where=partition_where(filters, "t"))
    pair = TRUE if filters.player is None else Fragment("$f_player IN (d.declarer, d.partner)",
                                                        {"f_player": filters.player})
    return run(store, _PAIRS, partitions=_NO_PARTITIONS, where=deal_where(filters, "d", declared=True), pair=pair)


def current(store: Store) -> bool:
    """Whether the store's ``pair_totals`` were computed from the deals it holds now (an exported DuckDB file's
    never count: nothing says what they were computed from)."""
    if store.is_file:
        return False
    layout = StoreLayout.at(store.source)
    generation = layout.read_current()
    if generation is None or not (path := layout.derived_path(generation, TABLE)).exists():
        return False
    found = store.query(_CONTENT_ID, {"path": str(path), "key": CONTENT_KEY})
    return found.height == 1 and found["id"][0] == layout.content_id()


def update(store_dir: str | os.PathLike[str]) -> Path | None:
    """Compute every pair's sums per ruleset and table size and replace the store's ``pair_totals`` file with
    them (None, and nothing written, for a store with no generation yet).

    Holds the store's lock (``StoreBusy`` while an ingest runs), so the sums and the content id they record
    are of the same deals.
    """
    import pyarrow.parquet as pq  # the writer's alone: the readers (the pages, `tarock sql`) import no pyarrow

    from ingest.schema import PAIR_TOTALS

    layout = StoreLayout.at(store_dir)
    with layout.lock():
        generation, content = layout.read_current(), layout.content_id()
        if generation is None or content is None:
            return None
        query = compose(_PAIRS, partitions=_BY_PARTITION, where=deal_where(NO_FILTERS, "d", declared=True),
                        pair=TRUE)
        con = open_store(store_dir)
        try:
            table = con.sql(query.sql, params=query.params or None).to_arrow_table()
        finally:
            con.close()
        table = table.sort_by([(name, "ascending") for name in ("ruleset", "n_players", "player_a", "player_b")])
        path = layout.derived_path(generation, TABLE)
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        schema = PAIR_TOTALS.with_metadata({CONTENT_KEY: content})
        pq.write_table(table.select(PAIR_TOTALS.names).cast(schema), temp, compression="zstd")
        os.replace(temp, path)
    return path
