"""The names the questions group by, in the order reports list them.

Contracts follow the bidding ladder of each ruleset (lowest first), seats
the playing order (docs/architecture.md: forehand, second, third, dealer).  The orders are bound as list parameters and used with
``list_position`` in ORDER BY, so reports sort the way players read them.
"""

from __future__ import annotations

from analysis.sql import Fragment
from tarock.rules.rulesets import SEATS
from tarock.deal import CONTRACTS, RULESETS

CONTRACT_LADDER: tuple[str, ...] = tuple(dict.fromkeys(c for r in RULESETS for c in CONTRACTS[r]))
"""Every contract name, each ruleset's ladder in turn."""

SEAT_ORDER: tuple[str, ...] = SEATS[4]
"""forehand, second, third, dealer."""


def rank(column: str, order: tuple[str, ...], name: str) -> Fragment:
    """SQL ranking ``column`` by its place in ``order`` (bound as ``$name``); unknown names last."""
    return Fragment(f"coalesce(list_position(${name}, {column}), {len(order) + 1})", {name: list(order)})


def contract_rank(column: str) -> Fragment:
    """Rank of a contract on the ladder."""
    return rank(column, CONTRACT_LADDER, "v_ladder")


def seat_rank(column: str) -> Fragment:
    """Rank of a seat in playing order."""
    return rank(column, SEAT_ORDER, "v_seats")

