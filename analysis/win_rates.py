"""How often declared contracts are won: by contract, declarer, seat, ruleset or month, with 95 % intervals.

Only declared contracts count (``filters.deal_where(declared=True)``): Klop
and Trischaken have no declarer and are reported apart, a deal in error has
no trustworthy result and an annulled one none at all.  A deal is won when
``deals.won`` is true (the declarer's side won).  The declarer's seat comes
from their place in ``deals.players`` (forehand first, dealer last).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from analysis.filters import NO_FILTERS, Filters, deal_where
from analysis.sql import Fragment, param, run
from analysis.stats import with_rate
from analysis.store import Store
from analysis.vocabulary import contract_rank, seat_rank
from tarock.rules.rulesets import NO_DECLARER

_SEAT = """CASE list_position(d.players, d.declarer)
        WHEN 1 THEN 'forehand' WHEN len(d.players) THEN 'dealer'
        WHEN 2 THEN 'second' WHEN 3 THEN 'third' END"""


@dataclass(frozen=True, slots=True)
class Grouping:
    """The output columns of one ``by`` choice (SQL over ``deals d``) and how its rows are ordered."""

    columns: tuple[tuple[str, str], ...]
    order: Fragment


GROUPINGS: dict[str, Grouping] = {
    "contract": Grouping((("contract", "d.contract"),), contract_rank("contract")),
    "declarer": Grouping((("declarer", "d.declarer"),), Fragment("declarer")),
    "seat": Grouping((("seat", _SEAT),), seat_rank("seat")),
    "ruleset": Grouping((("ruleset", "d.ruleset"), ("n_players", "d.n_players")),
                        Fragment("ruleset, n_players")),
    "month": Grouping((("month", "strftime(d.date, '%Y-%m')"),), Fragment("month NULLS LAST")),
}
"""The ``by`` whitelist: the only SQL a caller's choice can put into a query."""

_QUERY = """
SELECT {names}, count(*) AS deals, count(*) FILTER (WHERE won) AS wins
FROM (SELECT {columns}, d.won FROM deals d WHERE {where})
GROUP BY {names}
ORDER BY {order}
"""

_UNDECLARED = """
SELECT d.contract, count(*) AS deals
FROM deals d
WHERE {where} AND d.status <> 'error' AND list_contains({no_declarer}, d.contract)
GROUP BY d.contract
ORDER BY {order}
"""


def groupings(by: str | Sequence[str]) -> tuple[str, ...]:
    """``by`` as a tuple of known grouping names (ValueError for an unknown or repeated one)."""
    names = (by,) if isinstance(by, str) else tuple(by)
    unknown = [name for name in names if name not in GROUPINGS]
    if not names or unknown or len(set(names)) != len(names):
        raise ValueError(f"by must be one or more distinct of {', '.join(GROUPINGS)}; "
                         f"got {', '.join(names) or 'none'}")
    return names


def win_rates(store: Store, filters: Filters = NO_FILTERS,
              by: str | Sequence[str] = "contract") -> pl.DataFrame:
    """Deals, wins, win rate and its 95 % Wilson interval (``ci_low``, ``ci_high``) per group.

    ``by`` is one grouping or several (``("contract", "seat")`` gives one row
    per contract and seat); ``ruleset`` gives two columns, ruleset and
    number of players.  Rows are ordered by the groups' natural orders
    (ladder, seat order, names, months).
    """
    chosen = [GROUPINGS[name] for name in groupings(by)]
    columns = ", ".join(f"{sql} AS {alias}" for g in chosen for alias, sql in g.columns)
    names = ", ".join(alias for g in chosen for alias, _ in g.columns)
    order = Fragment(", ".join(g.order.sql for g in chosen),
                     {k: v for g in chosen for k, v in g.order.params.items()})
    frame = run(store, _QUERY, names=Fragment(names), columns=Fragment(columns),
                where=deal_where(filters, declared=True), order=order)
    return with_rate(frame, "wins", "deals", "win_rate")


def undeclared(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """The deals without a declarer (Klop, Trischaken), left out of the win rates: deals per contract
    (errors excluded)."""
    return run(store, _UNDECLARED, where=deal_where(filters),
               no_declarer=param("w_no_declarer", sorted(NO_DECLARER)), order=contract_rank("d.contract"))
