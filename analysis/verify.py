"""The store's invariants, checked: what ``tarock verify`` runs and every store a test builds must pass.

A store that breaks one of these gives numbers that disagree with ``tarock check`` on the same files: a
deal whose ``results`` are another deal's, a copy counted twice, a card analysed twice.  Each check is one
query over the store's views (``ingest.store``), so it sees exactly what the pages and reports see, and each
violation names its deal (``deal_id`` and where the record was read) in one sentence.  docs/store.md,
"Invariants", lists them.

The derived tables (``ratings``, ``player_totals``, ``pair_totals``) record what they were computed from; one
computed from fewer deals than the store holds is *stale* (said, not a violation: the totals' readers then
ask the per-deal tables, and ``tarock ratings rebuild`` brings the ratings up), but one that says it is
current must hold what computing it now gives.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analysis import ratings, totals
from analysis.store import Store

_PLACE = "d.deal_id, d.source_file, d.source_line"
_COPY = "USING (shard, source_file, source_pos)"


def _per_deal(child: str, counted: str = "count(*)") -> str:
    """Per stored copy, what its rows in ``stored.<child>`` count (``counted``)."""
    return f"(SELECT shard, source_file, source_pos, {counted} AS n FROM stored.{child} GROUP BY ALL)"


DEAL_CHECKS: dict[str, str] = {
    "one deals row per stored copy":
        f"SELECT any_value(deal_id), source_file, any_value(source_line), count(*) || ' deals rows for one "
        f"stored copy' FROM deals d GROUP BY shard, source_file, source_pos HAVING count(*) > 1",
    "a deal shown once":
        "SELECT any_value(deal_id), any_value(source_file), any_value(source_line), "
        "count(*) || ' visible copies of one record (duplicates should hide all but one)' "
        "FROM deals GROUP BY content_hash HAVING count(*) > 1",
    "a results row per player":
        f"SELECT {_PLACE}, coalesce(r.n, 0) || ' results rows for ' || len(d.players) || ' players' "
        f"FROM deals d LEFT JOIN {_per_deal('results')} r {_COPY} WHERE coalesce(r.n, 0) <> len(d.players)",
    "each player's results row in their seat":
        f"SELECT DISTINCT {_PLACE}, 'results row of ' || r.player || ' in seat ' || r.seat_no || "
        f"', where the deal has ' || coalesce(d.players[r.seat_no + 1], 'nobody') "
        f"FROM deals d JOIN stored.results r {_COPY} WHERE d.players[r.seat_no + 1] IS DISTINCT FROM r.player",
    "a hands row per player, or none":
        f"SELECT {_PLACE}, h.n || ' hands rows for ' || len(d.players) || ' players' "
        f"FROM deals d JOIN {_per_deal('hands')} h {_COPY} WHERE h.n <> len(d.players)",
    "as many tricks as the check found":
        f"SELECT {_PLACE}, coalesce(t.n, 0) || ' tricks rows, the deal says ' || d.n_tricks "
        f"FROM deals d LEFT JOIN {_per_deal('tricks')} t {_COPY} WHERE coalesce(t.n, 0) <> d.n_tricks",
    "a plays row per card of its tricks":
        f"SELECT {_PLACE}, coalesce(p.n, 0) || ' plays rows for ' || coalesce(t.n, 0) || ' cards in its tricks' "
        f"FROM deals d LEFT JOIN {_per_deal('plays')} p {_COPY} "
        f"LEFT JOIN {_per_deal('tricks', 'sum(len(cards))')} t {_COPY} WHERE coalesce(p.n, 0) <> coalesce(t.n, 0)",
    "as many findings as the deal counts":
        f"SELECT {_PLACE}, coalesce(f.n, 0) || ' findings rows, the deal says ' || d.n_findings "
        f"FROM deals d LEFT JOIN {_per_deal('findings')} f {_COPY} WHERE coalesce(f.n, 0) <> d.n_findings",
    "a kept copy for every duplicate":
        "SELECT NULL, x.source_file, x.source_line, 'a hidden copy whose kept copy (' || x.kept_file || ':' || "
        "x.kept_line || ') is not shown' FROM duplicates x ANTI JOIN deals d ON d.shard = x.kept_shard "
        "AND d.source_file = x.kept_file AND d.source_line = x.kept_line",
    "one analysis per card":
        "SELECT a.deal_id, NULL, NULL, 'trick ' || a.trick || ': ' || count(*) || ' card_analysis rows for ' || "
        "a.player FROM card_analysis a GROUP BY a.deal_id, a.trick, a.player HAVING count(*) > 1",
    "an analysis of a stored deal":
        "SELECT a.deal_id, NULL, NULL, 'card_analysis rows of a deal the store does not show' "
        "FROM card_analysis a ANTI JOIN deals d USING (deal_id) GROUP BY a.deal_id",
    "one verdict per card":
        "SELECT g.deal_id, NULL, NULL, 'trick ' || g.trick || ': ' || count(*) || ' game_analysis rows for ' || "
        "g.player FROM game_analysis g GROUP BY g.deal_id, g.trick, g.player HAVING count(*) > 1",
    "a verdict of a stored deal, for every card it played from its first trick judged":
        "SELECT g.deal_id, NULL, NULL, any_value(g.n) || ' game_analysis rows for the ' || coalesce(sum(p.c), 0) || "
        "' cards it played from trick ' || any_value(g.t0) FROM (SELECT deal_id, min(trick) AS t0, count(*) AS n "
        "FROM game_analysis GROUP BY deal_id) g LEFT JOIN (SELECT deal_id, trick_no, count(*) AS c FROM plays "
        "GROUP BY deal_id, trick_no) p ON p.deal_id = g.deal_id AND p.trick_no >= g.t0 GROUP BY g.deal_id "
        "HAVING any_value(g.n) <> coalesce(sum(p.c), 0)",
    "a misplay turns its side's answer":
        "SELECT g.deal_id, NULL, NULL, 'trick ' || g.trick || ': ' || g.player || ' played ' || g.card || ', marked "
        "decided against the answers before and after it' FROM game_analysis g WHERE g.decided <> (CASE WHEN "
        "g.declarer_side THEN g.declarer_could_win AND NOT g.declarer_can_win ELSE NOT g.declarer_could_win AND "
        "g.declarer_can_win END)",
    "read = stored + rejected":
        "SELECT NULL, NULL, NULL, 'ingest run ' || run_id || ' read ' || read || ', stored ' || stored || "
        "', rejected ' || rejected FROM ingest_runs WHERE read <> stored + rejected",
}
"""Each invariant: a query giving (deal_id, source_file, source_line, what is wrong) per violation."""

_ORPHANS = ("SELECT NULL, c.source_file, any_value(c.source_pos >> 32), count(*) || ' {table} rows of no stored "
            "deal' FROM stored.{table} c ANTI JOIN deals d " + _COPY + " GROUP BY c.shard, c.source_file, c.source_pos")
_CHILDREN = ("results", "tricks", "plays", "findings", "bids", "announcements", "hands")


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken invariant: which, the deal (and where its record was read) when it is a deal's, and what."""

    invariant: str
    deal_id: str | None
    source_file: str | None
    source_line: int | None
    message: str

    def __str__(self) -> str:
        place = f"{self.source_file}:{self.source_line} " if self.source_file is not None else ""
        deal = f"deal {self.deal_id} " if self.deal_id is not None else ""
        return f"{place}{deal}{self.invariant}: {self.message}"


@dataclass(slots=True)
class Verified:
    """What ``verify`` found: the violations, each derived table's state, and the deals the store shows."""

    deals: int = 0
    violations: list[Violation] = field(default_factory=list)
    derived: dict[str, str] = field(default_factory=dict)
    """Per derived table: ``current``, ``stale`` or ``missing``."""

    @property
    def ok(self) -> bool:
        return not self.violations

    def as_json(self) -> dict[str, Any]:
        return {"deals": self.deals, "ok": self.ok, "derived": self.derived,
                "violations": [{"invariant": v.invariant, "deal_id": v.deal_id, "source_file": v.source_file,
                                "source_line": v.source_line, "message": v.message} for v in self.violations]}


def verify(store_dir: str | os.PathLike[str]) -> Verified:
    """Check every invariant of the store at ``store_dir`` (docs/store.md, "Invariants")."""
    store = Store(Path(store_dir))
    try:
        found = Verified(deals=int(store.query("SELECT count(*) AS n FROM deals")["n"][0]))
        checks = {**DEAL_CHECKS, **{f"no {t} row without its deal": _ORPHANS.format(table=t) for t in _CHILDREN}}
        for name, query in checks.items():
            with store.connect() as con:
                rows = con.sql(query).fetchall()
            found.violations.extend(Violation(name, *row) for row in rows)
        rated = ratings.up_to_date(store_dir)
        found.derived["ratings"] = "missing" if rated is None else "current" if rated else "stale"
        if rated:
            for (missing,) in store.query("SELECT DISTINCT deal_id FROM ratings ANTI JOIN deals USING (deal_id)"
                                          ).rows():
                found.violations.append(Violation("ratings of stored deals", missing, None, None,
                                                  "rated, but the store does not show it"))
        wrong = totals.disagreements(store)
        for table in (totals.PLAYER_TOTALS, totals.PAIR_TOTALS):
            if table in wrong:
                found.derived[table] = "current"
                if wrong[table]:
                    found.violations.append(Violation(
                        f"{table} as summed now", None, None, None,
                        f"{wrong[table]} rows differ from the sums over the stored deals, though it says it is "
                        "current"))
            else:
                found.derived[table] = "stale" if store.query(f"SELECT count(*) AS n FROM {table}")["n"][0] \
                    else "missing"
        return found
    finally:
        store.close()
