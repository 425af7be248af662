"""Deal lookup for the replay viewer: search deals, and everything stored about one deal.

The search matches a deal id prefix (``starts_with``, so ``%`` and ``_`` in
the text are plain characters), a session and the usual filters.  A deal's
detail is looked up by id; its child rows are found in the key-only views
(``stored.results`` …) by every key column of the stored copy (shard, source
file and line, and the partition columns), so DuckDB reads one partition and
skips other shards' files by their statistics (source file and line).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
import polars as pl

from analysis.filters import NO_FILTERS, Filters, deal_where
from analysis.sql import TRUE, Fragment, param, run
from analysis.store import Store
from ingest.schema import DEAL_KEY, DEAL_ONLY_KEY, PARTITION_COLUMNS

_KEY_COLUMNS = (*(f.name for f in DEAL_KEY if f.name not in DEAL_ONLY_KEY), *PARTITION_COLUMNS)
"""The stored copy's key: what a deal's child rows are found by in the key-only views (``stored.results`` …)."""

_SEARCH = """
SELECT d.deal_id, d.date, d.session, d.seq, d.contract, d.declarer, d.status, d.n_findings
FROM deals d
WHERE {where} AND {id_prefix} AND {session}
ORDER BY d.date DESC NULLS LAST, d.session, d.seq, d.deal_id
LIMIT {limit}
"""

_DEAL = """
SELECT * FROM deals d WHERE d.deal_id = {deal_id}
ORDER BY d.source_file, d.source_pos
LIMIT 1
"""

_CHILD = f"""
SELECT * EXCLUDE ({', '.join(_KEY_COLUMNS)}) FROM stored.{{table}} t WHERE {{key}} ORDER BY {{order}}
"""

CHILD_TABLES: dict[str, str] = {"findings": "idx", "results": "seat_no", "tricks": "trick_no"}
"""The child tables a deal's detail includes, and their row order."""


@dataclass(frozen=True, slots=True)
class DealDetail:
    """One stored deal: its ``deals`` row (without the record), the record itself, and its child rows."""

    deal: dict[str, Any]
    record: dict[str, Any]
    findings: pl.DataFrame
    results: pl.DataFrame
    tricks: pl.DataFrame


def find_deals(store: Store, filters: Filters = NO_FILTERS, id_prefix: str | None = None,
               session: str | None = None, limit: int = 100) -> pl.DataFrame:
    """Deals matching the filters, an id prefix and a session, newest first (at most ``limit``):
    deal_id, date, session, seq, contract, declarer, status, n_findings."""
    prefix = TRUE if not id_prefix else Fragment("starts_with(d.deal_id, $q_prefix)", {"q_prefix": id_prefix})
    in_session = TRUE if session is None else Fragment("d.session = $q_session", {"q_session": session})
    return run(store, _SEARCH, where=deal_where(filters), id_prefix=prefix, session=in_session,
               limit=param("q_limit", int(limit)))


def deal_detail(store: Store, deal_id: str) -> DealDetail | None:
    """Everything stored about the deal with this id, or None when there is none.

    Should two different records share an id, the first stored copy (by
    source file and line) is shown.
    """
    found = run(store, _DEAL, deal_id=param("q_deal", deal_id))
    if found.is_empty():
        return None
    deal = found.row(0, named=True)
    record = orjson.loads(deal.pop("record")) if deal.get("record") else {}
    key = Fragment(" AND ".join(f"t.{c} = $c_{c}" for c in _KEY_COLUMNS),
                   {f"c_{c}": deal[c] for c in _KEY_COLUMNS})
    children = {table: run(store, _CHILD, table=Fragment(table), order=Fragment(order), key=key)
                for table, order in CHILD_TABLES.items()}
    return DealDetail(deal=deal, record=record, **children)
