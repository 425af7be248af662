"""Per player: deals played and declared, contracts won, score per deal, radelci balance, renons rates.

A player's deals are the stored deals they sat in (``results`` has a row
per player and deal, errors included); ``declared`` and ``won`` count the
deals they declared with a result and won — the deals ``win_rates`` counts
for them as declarer; ``score_per_deal`` averages the recomputed scores of
their scored deals.

The radelci balance is the sum, over the player's sessions, of the radelci
they held after the session's last deal (each costs 100 at the session's
end; a deal without a session is a session of its own).  It is computed as
the sum of ``radelci_after - radelci_before`` over the player's deals: a
session's ledger starts at 0 and each deal starts from the previous one's
``radelci_after``, so the sum telescopes to the last ``radelci_after`` —
without ordering a million deals.  With filters that cut sessions (a date
range inside a session, a contract) it is the radelci gained and not
cancelled in the deals kept.

Renons rates are renons findings against the player per deal played.  With
a ``player`` filter only that player's row is returned (the filter
otherwise keeps the deals a player sat in).
"""

from __future__ import annotations

import polars as pl

from analysis import totals
from analysis.filters import NO_FILTERS, Filters, child_where, deal_where, needs_deals, partition_where
from analysis.sql import Fragment, run
from analysis.stats import rate
from analysis.store import Store

_RENONS = """
WITH played AS (
    SELECT r.player, count(*) AS deals FROM stored.results r
    WHERE {results_where} AND {results_only}
    GROUP BY r.player
)
SELECT f.player, f.code, count(*) AS renons, any_value(p.deals) AS deals
FROM stored.findings f JOIN played p ON p.player = f.player
WHERE f.severity = 'renons' AND {findings_where}
GROUP BY f.player, f.code
ORDER BY f.player, renons DESC, f.code
"""


_NAMES = """
SELECT DISTINCT unnest(d.players) AS player FROM deals d WHERE {where} ORDER BY player
"""
_NAMES_OF_RESULTS = """
SELECT DISTINCT r.player FROM stored.results r WHERE {where} ORDER BY player
"""
"""``_NAMES`` when no filter needs ``deals``: ``results`` holds a row per deal and player (an ``error`` deal's
too: docs/store.md), and its dictionary-coded ``player`` column reads several times faster than unnesting
every deal's list of names (issue 22: the sidebar asks it on every page)."""


def _where(filters: Filters) -> dict[str, Fragment]:
    return {"results_where": child_where(filters, "r"), "results_only": totals.player_only(filters, "r"),
            "findings_where": child_where(filters, "f"), "findings_only": totals.player_only(filters, "f")}


def players(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """One row per player, sorted: deals, declared, won, score_per_deal, total_score, radelci (balance),
    renons, win_rate (won / declared) and renons_rate (renons per deal played)."""
    summed = totals.player_sums(store, filters)
    return summed.select(
        "player", "deals", "declared", "won", (pl.col("score_sum") / pl.col("scored")).alias("score_per_deal"),
        pl.col("score_sum").fill_null(0).alias("total_score"), "radelci", "renons",
        rate("won", "declared").alias("win_rate"), rate("renons", "deals").alias("renons_rate"),
    ).sort("player")


def player_renons(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """One row per player and renons code: renons, deals (played by the player) and rate (renons / deals)."""
    return run(store, _RENONS, **_where(filters)).with_columns(rate("renons", "deals").alias("rate"))


def player_names(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Every player who sat in a filtered deal, sorted (a picker's list: ``player``)."""
    if (names := totals.player_names(store, filters)) is not None:
        return names
    if not needs_deals(filters):
        return run(store, _NAMES_OF_RESULTS, where=partition_where(filters, "r"))
    return run(store, _NAMES, where=deal_where(filters))
