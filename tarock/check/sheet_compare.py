"""What-if: the same sessions scored under several rules tables, side by side (``tarock score --compare``).

Each table scores every deal as ``tarock score`` would with ``--rules TABLE`` (the session model of
``tarock.check.sessions``: deals in ``seq`` order, a copy once).  Per session, each player's total under
each table (the deals' scores summed), the radelci still open after its last deal, and the final figure
``tarock score`` writes on the sheet: the total plus what each open radelc costs at the session's end under
that table (−100; −40 under Palčka's; nothing where the table keeps no radelci); and every deal whose scores
differ between the tables, with the breakdown lines that make the difference (a line present under one table
and absent or different under another).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from tarock.check.result import DealCheck
from tarock.check.sessions import SessionPlan, SessionScorer, ordered
from tarock.formats.items import ReadItem
from tarock.options import SlovenianOptions
from tarock.rules.slovenian.scoring import session_end_per_radelc
from tarock.rules.tables import RulesTable
from tarock.safe_text import csv_cell
from tarock.words import plural


@dataclass
class DealDiff:
    """One deal whose scores differ between the tables."""

    session: str | None
    hand: int
    id: str
    contract: str
    scores: list[dict[str, int] | None]  # per table; None: the deal is in error under that table
    lines: list[list[str]]  # per table: the breakdown lines not written identically under every table

    def to_dict(self, names: list[str]) -> dict[str, Any]:
        return {"session": self.session, "hand": self.hand, "id": self.id, "contract": self.contract,
                "scores": dict(zip(names, self.scores)), "lines": dict(zip(names, self.lines))}


@dataclass
class SessionCompare:
    """One session's totals per table."""

    session: str | None
    players: list[str] = field(default_factory=list)
    totals: list[dict[str, int]] = field(default_factory=list)  # per table: the deals' scores summed
    radelci: list[dict[str, int]] = field(default_factory=list)  # per table: radelci open after the last deal
    diffs: list[DealDiff] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)  # per table: what an open radelc costs at the session's end

    @property
    def finals(self) -> list[dict[str, int]]:
        """Per table, each player's total with the session end charged: the sheet's "Final" row."""
        return [{p: totals.get(p, 0) + end * radelci.get(p, 0) for p in self.players}
                for totals, radelci, end in zip(self.totals, self.radelci, self.ends or [0] * len(self.totals))]

    @property
    def charged(self) -> bool:
        """Whether any table charges an open radelc at the session's end (its finals differ from the totals)."""
        return self.finals != [{p: t.get(p, 0) for p in self.players} for t in self.totals]

    def to_dict(self, names: list[str]) -> dict[str, Any]:
        return {"session": self.session, "players": self.players, "totals": dict(zip(names, self.totals)),
                "radelci": dict(zip(names, self.radelci)), "finals": dict(zip(names, self.finals)),
                "differences": [d.to_dict(names) for d in self.diffs]}


def score_all(items: Callable[[], Iterable[ReadItem]], table: RulesTable,
              unreadable: list[ReadItem] | None = None) -> list[DealCheck]:
    """Every readable deal scored under ``table``, copies left out, in scoring order; the items that are no
    deal (E_PARSE) appended to ``unreadable`` when given."""
    deals = []
    for item in items():
        if item.deal is not None:
            deals.append(item)
        elif unreadable is not None:
            unreadable.append(item)
    key = _session_seq
    scorer = SessionScorer(SessionPlan.of(key(item) for item in deals), table.overrides)
    out = []
    for item in ordered(deals, key):
        assert item.deal is not None
        result, copy = scorer.score(item.deal, item.file, item.line)
        if not copy:
            out.append(result)
    return out


def _session_seq(item: ReadItem) -> tuple[str | None, int | None]:
    assert item.deal is not None
    return item.deal.session, item.deal.seq


def line_texts(check: DealCheck, player: str | None = None) -> list[str]:
    """The deal's breakdown lines as ``compare`` writes them (``player``: only the lines naming that player)."""
    return [f"{', '.join(ln.players)} {ln.component} {ln.value:+d}: {ln.detail}" for ln in check.breakdown or ()
            if player is None or player in ln.players]


def compare(items: Callable[[], Iterable[ReadItem]],
            tables: list[RulesTable]) -> tuple[list[SessionCompare], list[ReadItem]]:
    """The sessions of ``items`` (read once per table) under each of ``tables``, and the unreadable items
    (E_PARSE, the same under every table: kept from the first reading), which ``tarock score`` reports too."""
    unreadable: list[ReadItem] = []
    runs = [score_all(items, table, unreadable if n == 0 else None) for n, table in enumerate(tables)]
    sessions = compare_runs(runs)
    ends = [session_end(table) for table in tables]
    for sc in sessions:
        sc.ends = ends
    return sessions, unreadable


def session_end(table: RulesTable) -> int:
    """What an open radelc costs at the session's end under ``table`` (0 where it keeps no radelci)."""
    options = table.options
    if not isinstance(options, SlovenianOptions) or not options.radelci:
        return 0
    return session_end_per_radelc(options)


def compare_runs(runs: list[list[DealCheck]]) -> list[SessionCompare]:
    """The sessions of ``runs`` (per table, ``score_all``'s deals: the same deals in the same order)."""
    sessions: dict[str | None, SessionCompare] = {}
    hands: dict[str | None, int] = {}
    for checks in zip(*runs):
        first = checks[0]
        sc = sessions.get(first.session)
        if sc is None:
            sc = sessions[first.session] = SessionCompare(first.session, totals=[{} for _ in runs],
                                                          radelci=[{} for _ in runs])
        if len({c.id for c in checks}) != 1:
            raise ValueError("the tables scored the deals in different orders")
        for p in first.players:
            if p not in sc.players:
                sc.players.append(p)
        hands[first.session] = hand = hands.get(first.session, 0) + 1
        scores = [c.scores if c.status != "error" else None for c in checks]
        for totals, s in zip(sc.totals, scores):
            for p in first.players:
                totals[p] = totals.get(p, 0) + (s or {}).get(p, 0)
        for radelci, c in zip(sc.radelci, checks):
            radelci.update(c.radelci_after or {})
        if all(s == scores[0] for s in scores[1:]):
            continue
        texts = [line_texts(c) for c in checks]
        common = set(texts[0]).intersection(*texts[1:])
        sc.diffs.append(DealDiff(first.session, hand, first.id, first.contract, scores,
                                 [[t for t in ts if t not in common] for ts in texts]))
    return list(sessions.values())


def render_json(result: list[SessionCompare], names: list[str]) -> str:
    import orjson

    return "".join(orjson.dumps(sc.to_dict(names)).decode() + "\n" for sc in result)


def render_csv(result: list[SessionCompare], names: list[str]) -> str:
    """One row per session, player and table: ``session,player,table,total``, then the differing deals."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["session", "hand", "id", "player", *names])
    for sc in result:
        for p in sc.players:
            w.writerow([csv_cell(sc.session or ""), "total", "", csv_cell(p), *(t.get(p, 0) for t in sc.totals)])
        if sc.charged:
            for p in sc.players:
                w.writerow([csv_cell(sc.session or ""), "final", "", csv_cell(p), *(f[p] for f in sc.finals)])
        for d in sc.diffs:
            for p in sc.players:
                w.writerow([csv_cell(sc.session or ""), d.hand, csv_cell(d.id), csv_cell(p),
                            *("error" if s is None else s.get(p, 0) for s in d.scores)])
    return buf.getvalue()


def render_text(result: list[SessionCompare], names: list[str]) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from tarock.safe_text import escape_controls

    console = Console(highlight=False)
    for sc in result:
        table = Table(title=escape_controls(f"session {sc.session}" if sc.session else "deals outside any session"))
        table.add_column("player")
        for name in names:
            table.add_column(escape_controls(name), justify="right")
        rows = [("", sc.totals)] + ([(" final", sc.finals)] if sc.charged else [])
        for label, sums in rows:
            for p in sc.players:
                values = [t.get(p, 0) for t in sums]
                cells = [Text(f"{v:+d}" if v else "0", style="bold" if len(set(values)) > 1 else "") for v in values]
                table.add_row(escape_controls(p) + label, *cells, end_section=p == sc.players[-1])
        if sc.charged:
            ends = ", ".join(f"{name} {end:+d}" if end else f"{name} nothing: it keeps no radelci"
                             for name, end in zip(names, sc.ends))
            table.caption = (f"Each player's deals summed, then the final figure, as the score sheet writes it: "
                             f"each radelc still open at the end costs its player ({ends}).")
        console.print(table)
        if not sc.diffs:
            console.print("every deal scores the same under every table\n", markup=False)
            continue
        console.print(f"{plural(len(sc.diffs), 'deal')} score{'s' if len(sc.diffs) == 1 else ''} differently:",
                      markup=False)
        for d in sc.diffs:
            figures = "  ".join(f"{name}: " + ("error" if s is None else " ".join(f"{p} {v:+d}" for p, v in s.items()))
                                for name, s in zip(names, d.scores))
            console.print(escape_controls(f"  hand {d.hand} ({d.id}, {d.contract})  {figures}"), markup=False)
            for name, lines in zip(names, d.lines):
                for line in lines:
                    console.print(escape_controls(f"    [{name}] {line}"), markup=False)
        console.print("")
