"""The referee's view: disputed scores with their explanation, renons counts, rejected input.

A disputed score is a player's recorded figure that differs from the
recomputed one: ingest records one ``A_SCORE_MISMATCH`` finding per such
player (and one when their recorded radelci differ), whose message names
the line that explains the difference.  Such a deal has ``score_mismatch``
set, and the player's ``results`` row a ``score_diff`` (recorded minus
recomputed, a player missing from the sheet counting 0) — conditions that
let DuckDB skip most rows before joining.  Rejects are input items that were
not records at all; they belong to no deal, so no deal filter applies.
"""

from __future__ import annotations

import polars as pl

from analysis.filters import NO_FILTERS, Filters, child_where, partition_where
from analysis.sql import TRUE, Fragment, param, run
from analysis.store import Store
from tarock.check.audit import CODE as SCORE_MISMATCH

_DISPUTES = """
WITH disputed AS (
    SELECT f.shard, f.source_file, f.source_pos, f.player,
           string_agg(f.message, '; ' ORDER BY f.idx) AS message
    FROM stored.findings f
    WHERE f.code = {code} AND {findings_where}
    GROUP BY f.shard, f.source_file, f.source_pos, f.player
)
SELECT d.deal_id, d.date, d.session, d.seq, d.contract, d.declarer, m.player,
       r.recorded_score, r.score, r.score_diff, r.radelci_after, m.message
FROM disputed m
JOIN deals d ON d.shard = m.shard AND d.source_file = m.source_file AND d.source_pos = m.source_pos
            AND d.score_mismatch
LEFT JOIN stored.results r ON r.shard = m.shard AND r.source_file = m.source_file AND r.source_pos = m.source_pos
                   AND r.player = m.player
                   AND r.score_diff IS NOT NULL AND {results_where}
ORDER BY d.date NULLS LAST, d.session NULLS LAST, d.seq NULLS LAST, d.deal_id, m.player
"""

_RENONS = """
SELECT {key} AS {name}, count(*) AS renons, count(DISTINCT (f.shard, f.source_file, f.source_pos)) AS deals
FROM stored.findings f
WHERE f.severity = 'renons' AND {findings_where}
GROUP BY {key}
ORDER BY {order}
"""

RENONS_BY: dict[str, tuple[str, str]] = {
    "code": ("f.code", "renons DESC, code"),
    "player": ("f.player", "renons DESC, player"),
    "trick": ("f.trick", "trick NULLS FIRST"),
}
"""The ``by`` whitelist of ``renons``: (grouping column, order); a stash renons has no trick (null)."""

_FINDINGS = """
SELECT d.deal_id, d.date, d.session, d.contract, f.code, f.trick, f.position, f.player, f.card, f.message
FROM stored.findings f
JOIN deals d ON d.shard = f.shard AND d.source_file = f.source_file AND d.source_pos = f.source_pos
WHERE f.severity = {severity} AND {code} AND {findings_where}
ORDER BY d.date DESC NULLS LAST, d.deal_id, f.idx
LIMIT {limit}
"""

_REJECTS = """
SELECT reason, count(*) AS rejects, count(DISTINCT file) AS files,
       arg_min(file || ':' || line, (file, line)) AS first
FROM rejects
GROUP BY reason
ORDER BY rejects DESC, reason
"""


def disputes(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """One row per deal and player whose recorded score or radelci differ from the recomputed ones:
    the deal, recorded_score, score (recomputed), score_diff (recorded - recomputed), radelci_after
    (recomputed) and the audit message(s) explaining the difference."""
    return run(store, _DISPUTES, code=param("a_code", SCORE_MISMATCH),
               findings_where=child_where(filters, "f"), results_where=partition_where(filters, "r"))


def renons(store: Store, filters: Filters = NO_FILTERS, by: str = "code") -> pl.DataFrame:
    """Renons findings counted by ``code``, ``player`` or ``trick``: renons (findings), deals (with one)."""
    if by not in RENONS_BY:
        raise ValueError(f"by must be one of {', '.join(RENONS_BY)}, not {by!r}")
    key, order = RENONS_BY[by]
    return run(store, _RENONS, key=Fragment(key), name=Fragment(by), order=Fragment(order),
               findings_where=child_where(filters, "f"))


def findings(store: Store, filters: Filters = NO_FILTERS, severity: str = "renons", code: str | None = None,
             limit: int = 500) -> pl.DataFrame:
    """The findings of ``severity`` (and ``code``) in the filtered deals, newest deals first (at most
    ``limit``): deal_id, date, session, contract, code, trick, position, player, card, message."""
    only = TRUE if code is None else Fragment("f.code = $a_finding_code", {"a_finding_code": code})
    return run(store, _FINDINGS, severity=param("a_severity", severity), code=only,
               findings_where=child_where(filters, "f"), limit=param("a_limit", int(limit)))


def rejects(store: Store) -> pl.DataFrame:
    """Rejected input items by reason: how many, from how many files, and the first one (``file:line``)."""
    return run(store, _REJECTS)
