"""The misplays that decided a game (``M_GAME_LOST``), from the store's ``game_analysis`` table.

``tarock analyse --store`` judges every card of each clean Slovenian deal with sides from trick 1 against the
contract's win condition (``tarock.solver.decisive``, one row per card: ``declarer_could_win`` before it,
``declarer_can_win`` after it, ``decided`` when the card turned its own side's answer from yes to no, ``kept``
the cards that would have kept it).  From it: the misplays themselves (where, who, which card, what would have
kept the game), each player's count beside the cards and deals judged, and how many deals of a selection have
been judged.  Only judged deals count, and every answer says how many.
"""

from __future__ import annotations

import polars as pl

from analysis.filters import NO_FILTERS, Filters, analysed_where, solver_coverage
from analysis.sql import run
from analysis.store import Store
from tarock.findings import Finding
from tarock.solver.decisive import GAME_LOST, sentence

TABLE = "game_analysis"

_LIST = """
SELECT g.deal_id, d.session, d.seq, d.date, d.contract, d.declarer, d.won, g.trick, g."order", g.player, g.card,
       g.declarer_side, g.kept
FROM game_analysis g JOIN deals d USING (deal_id)
WHERE {where} AND g.decided
ORDER BY d.date NULLS LAST, d.session NULLS LAST, d.seq NULLS LAST, g.deal_id, g.trick, g."order"
"""

_PLAYERS = """
SELECT g.player, count(DISTINCT g.deal_id) AS deals, count(*) AS cards,
       count(*) FILTER (WHERE g.decided) AS misplays,
       count(DISTINCT g.deal_id) FILTER (WHERE g.decided) AS deals_decided,
       100 * count(*) FILTER (WHERE g.decided) / count(DISTINCT g.deal_id) AS per_100
FROM game_analysis g
WHERE {where}
GROUP BY g.player
ORDER BY per_100, g.player
"""

def available(store: Store) -> bool:
    """Whether the store holds any judged card (an export made before the table existed has none)."""
    return store.has_rows(TABLE)


def misplays(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Every card that decided a game, in play order by date: deal_id, session, seq, date, contract, declarer,
    won, trick, order, player, card, declarer_side (whose card), kept (the cards that would have kept it) and
    message (the finding's sentence, ``tarock.solver.decisive.sentence``)."""
    if not available(store):
        return pl.DataFrame()
    found = run(store, _LIST, where=analysed_where(filters, "g"))
    messages = [sentence(r["trick"], r["player"], r["card"], r["declarer_side"], r["kept"])
                for r in found.iter_rows(named=True)]
    return found.with_columns(pl.Series("message", messages, dtype=pl.String))


def deal_findings(store: Store, deal_id: str) -> list[Finding]:
    """The ``M_GAME_LOST`` findings of one deal, in play order (none until it is judged)."""
    if not available(store):
        return []
    rows = store.query('SELECT trick, "order", player, card, declarer_side, kept FROM game_analysis '
                       'WHERE deal_id = $d AND decided ORDER BY trick, "order"', {"d": deal_id})
    return [Finding(GAME_LOST, sentence(r["trick"], r["player"], r["card"], r["declarer_side"], r["kept"]),
                    trick=r["trick"], position=r["order"], player=r["player"], card=r["card"])
            for r in rows.iter_rows(named=True)]


def per_player(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Per player: deals and cards judged, misplays that decided a game, deals they decided, misplays per 100
    deals judged (fewest first)."""
    if not available(store):
        return pl.DataFrame()
    return run(store, _PLAYERS, where=analysed_where(filters, "g"))


def coverage(store: Store, filters: Filters = NO_FILTERS) -> tuple[int, int]:
    """(deals in the selection, of them judged card by card)."""
    return solver_coverage(store, TABLE, filters)
