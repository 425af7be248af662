"""What each card of one deal cost against double-dummy best play, from the store's ``card_analysis`` table.

The table is written by ``tarock analyse --store`` (ingest/card_analysis.py, docs/store.md); a deal analysed
under several solver versions shows the newest's rows.  The Replay page puts them on each trick.
"""

from __future__ import annotations

import polars as pl

from analysis.sql import param, run
from analysis.store import Store

_LOSSES = """
SELECT c.trick, c."order", c.player, c.card, c.best_cards, c.best_points, c.played_points, c.point_loss,
       c.solver_version
FROM card_analysis c
WHERE c.deal_id = {deal_id}
QUALIFY c.solver_version = max(c.solver_version) OVER ()
ORDER BY c.trick, c."order"
"""


def card_losses(store: Store, deal_id: str) -> pl.DataFrame:
    """The analysed cards of ``deal_id`` in play order (empty when it was not analysed): trick, order, player,
    card, best_cards, best_points, played_points, point_loss, solver_version."""
    return run(store, _LOSSES, deal_id=param("q_deal", deal_id))
