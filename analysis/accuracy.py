"""How accurately players play, from the double-dummy solver's ``card_analysis`` table.

The solver's analysis (docs/solver.md) writes one row per analysed card:
``deal_id``, ``trick``, ``order``, ``player``, ``card``, ``best_cards``,
``best_points``, ``played_points``, ``point_loss`` (card points the play
gave away against the best card, 0 for a best card), ``solver_version``,
``ruleset``, ``n_players``.  From it, per player: ``deals`` analysed,
``cards``, ``loss_per_card`` (mean point loss), ``loss_per_deal`` (total
loss over their analysed deals), ``perfect_share`` (cards that lost
nothing); and the biggest single losses.  Only analysed deals count, and
every answer says how many: until the analysis exists for a deal it is not
guessed at.  A store no solver has run on (the view empty, or an older export
without the table) reads as ``available() == False``.
"""

from __future__ import annotations

import polars as pl

from analysis.filters import NO_FILTERS, Filters, analysed_where, solver_coverage
from analysis.sql import param, run
from analysis.store import Store

TABLE = "card_analysis"
BIGGEST = 20
"""The biggest losses listed."""

_PLAYERS = """
SELECT c.player, count(DISTINCT c.deal_id) AS deals, count(*) AS cards,
       avg(c.point_loss) AS loss_per_card, sum(c.point_loss) / count(DISTINCT c.deal_id) AS loss_per_deal,
       avg(CAST(c.point_loss = 0 AS INTEGER)) AS perfect_share
FROM card_analysis c
WHERE {where}
GROUP BY c.player
ORDER BY loss_per_card, c.player
"""

_BIGGEST = """
SELECT c.deal_id, c.trick, c."order", c.player, c.card, c.best_cards, c.played_points, c.best_points, c.point_loss
FROM card_analysis c
WHERE {where} AND c.point_loss > 0
ORDER BY c.point_loss DESC, c.deal_id, c.trick, c."order"
LIMIT {limit}
"""

def available(store: Store) -> bool:
    """Whether the store holds any analysed card (an export made before the table existed has none)."""
    return store.has_rows(TABLE)


def accuracy(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Per player: deals, cards, loss_per_card, loss_per_deal, perfect_share (most accurate first)."""
    return run(store, _PLAYERS, where=analysed_where(filters, "c"))


def biggest_losses(store: Store, filters: Filters = NO_FILTERS, limit: int = BIGGEST) -> pl.DataFrame:
    """The ``limit`` cards that lost the most points: deal_id, trick, order, player, card, best_cards,
    played_points, best_points, point_loss."""
    return run(store, _BIGGEST, where=analysed_where(filters, "c"), limit=param("a_limit", limit))


def coverage(store: Store, filters: Filters = NO_FILTERS) -> tuple[int, int]:
    """(deals in the selection, of them analysed by the solver)."""
    return solver_coverage(store, TABLE, filters)
