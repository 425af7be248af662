"""The filters every question takes, turned into one SQL condition with bound parameters.

This is the one place where filter values meet SQL, and they meet it only
as named parameters (``$f_ruleset`` …): a value never becomes query text, so
``player="x' OR 1=1 --"`` matches no player rather than every deal.

The queries use ``deal_where`` on the ``deals`` table and ``child_where``
on the other per-deal tables (``results``, ``plays`` …).  On those the
partition filters (ruleset, players) apply directly, so DuckDB skips whole
partitions, and ``deals`` is consulted (a semi-join on the stored copy's key)
only when a filter needs one of its columns (date, player, contract): a
join with a million deals costs more than most questions do on their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from analysis.sql import TRUE, Fragment, copy_columns, run
from tarock.rules.rulesets import NO_DECLARER

if TYPE_CHECKING:
    from analysis.store import Store

PLAYER_COUNTS = (3, 4)


@dataclass(frozen=True, slots=True)
class Filters:
    """Which deals a question looks at; ``None`` means no restriction.

    ``player`` keeps the deals that player sat in; ``date_from`` and
    ``date_to`` are inclusive (a deal without a date then drops out);
    ``players`` is the number of players at the table (3 or 4).
    """

    ruleset: str | None = None
    players: int | None = None
    date_from: date | None = None
    date_to: date | None = None
    player: str | None = None
    contract: str | None = None

    def __post_init__(self) -> None:
        if self.players is not None and self.players not in PLAYER_COUNTS:
            raise ValueError(f"players must be 3 or 4, not {self.players!r}")
        for name in ("date_from", "date_to"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, date):
                raise TypeError(f"{name} must be a datetime.date, not {type(value).__name__}")


def _where(conditions: list[tuple[str, str, Any]]) -> Fragment:
    """``(sql, param name, value)`` triples, kept where the value is set, joined with AND."""
    kept = [(sql, name, value) for sql, name, value in conditions if value is not None]
    if not kept:
        return TRUE
    return Fragment(" AND ".join(sql for sql, _, _ in kept), {name: value for _, name, value in kept})


def partition_where(filters: Filters, alias: str) -> Fragment:
    """The ruleset and player-count filters on a table partitioned by them (every per-deal table)."""
    return _where([
        (f"{alias}.ruleset = $f_ruleset", "f_ruleset", filters.ruleset),
        (f"{alias}.n_players = $f_players", "f_players", filters.players),
    ])


NO_FILTERS = Filters()
"""Every deal (the questions' default)."""


def needs_deals(filters: Filters) -> bool:
    """Whether a filter is on a column only ``deals`` has (not a partition column)."""
    return any(v is not None for v in (filters.date_from, filters.date_to, filters.player, filters.contract))


def child_where(filters: Filters, alias: str) -> Fragment:
    """Every filter, on a per-deal table other than ``deals`` under ``alias``: its deal passes ``deal_where``."""
    where = partition_where(filters, alias)
    if not needs_deals(filters):
        return where
    deals = deal_where(filters, "d")
    return where & Fragment(f"({copy_columns(alias)}) IN (SELECT {copy_columns('d')} FROM deals d WHERE {deals.sql})",
                            deals.params)


def analysed_where(filters: Filters, alias: str) -> Fragment:
    """Every filter, on a solver's table (``card_analysis``, ``game_analysis``: keyed by ``deal_id`` alone) under
    ``alias``: partitions directly, the rest through the deal's id; with a player filter, that player's cards."""
    where = partition_where(filters, alias)
    if needs_deals(filters):
        deals = deal_where(filters, "d2")
        where = where & Fragment(f"{alias}.deal_id IN (SELECT d2.deal_id FROM deals d2 WHERE {deals.sql})",
                                 deals.params)
    return where if filters.player is None else where & Fragment(f"{alias}.player = $f_player",
                                                                 {"f_player": filters.player})


def solver_coverage(store: Store, table: str, filters: Filters) -> tuple[int, int]:
    """(deals in the selection, of them with rows in the solver's ``table``: ``card_analysis`` or
    ``game_analysis``; none where the store holds no such row)."""
    deals = deal_where(filters, "d")
    if not store.has_rows(table):
        return run(store, "SELECT count(*) AS deals FROM deals d WHERE {deals}", deals=deals).item(), 0
    row = run(store, f"""
        SELECT (SELECT count(*) FROM deals d WHERE {{deals}}) AS deals,
               (SELECT count(DISTINCT s.deal_id) FROM {table} s WHERE {{where}}) AS covered
    """, deals=deals, where=analysed_where(filters, "s")).row(0)
    return int(row[0]), int(row[1])


def deal_where(filters: Filters, alias: str = "d", *, declared: bool = False) -> Fragment:
    """Every filter, on the ``deals`` table under ``alias``.

    ``declared`` further keeps the deals that count for declared contracts'
    statistics: a declarer (no Klop, no Trischaken), no error finding, and a
    result (``won`` known: an annulled hand has none).
    """
    where = partition_where(filters, alias) & _where([
        (f"{alias}.date >= $f_date_from", "f_date_from", filters.date_from),
        (f"{alias}.date <= $f_date_to", "f_date_to", filters.date_to),
        (f"list_contains({alias}.players, $f_player)", "f_player", filters.player),
        (f"{alias}.contract = $f_contract", "f_contract", filters.contract),
    ])
    if declared:
        where = where & Fragment(
            f"{alias}.declarer IS NOT NULL AND {alias}.status <> 'error' AND {alias}.won IS NOT NULL"
            f" AND NOT list_contains($f_no_declarer, {alias}.contract)",
            {"f_no_declarer": sorted(NO_DECLARER)},
        )
    return where
