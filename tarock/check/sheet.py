"""Score sheets: each session's deals scored in order, the way a score keeper writes them.

Hands are rows and players columns; only the players who write for a deal
have a figure (the playing side, everyone in Klop, a Mondfang or a penalty);
totals, the radelci still open and the session-end line (−100 per radelc)
close the sheet.  Recorded figures that differ from the recomputed ones are
kept beside them for the audit.  Sheet-only hands (imported score sheets) show
their recorded figures, not recomputed (``sheet_only``); the players the sheet
audit flags are listed in ``disputed`` ("" for a row-wide finding).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from msgspec.structs import asdict

from tarock.check.result import CheckedFinding, DealCheck
from tarock.check.sessions import SessionPlan, SessionScorer, ordered
from tarock.formats.items import ReadItem
from tarock.options import SlovenianOptions, options_for
from tarock.rules.slovenian.scoring import SESSION_END_PER_RADELC, session_end_per_radelc


@dataclass
class SheetRow:
    """One deal on the sheet."""

    hand: int
    id: str | None
    contract: str | None
    declarer: str | None
    status: str
    cells: dict[str, int | None]  # None: the player writes nothing for this deal
    recorded: dict[str, int] | None
    mismatches: dict[str, int]  # player -> recorded figure, where it differs
    radelci_after: dict[str, int] | None
    findings: list[CheckedFinding]
    file: str | None
    line: int | None
    sheet_only: bool = False  # the figures are the recorded ones, not recomputed
    disputed: list[str] = field(default_factory=list)  # players the sheet audit flags (A_SCORE_MISMATCH)


@dataclass
class Sheet:
    """A session's score sheet (``session`` None: deals outside any session)."""

    session: str | None
    players: list[str] = field(default_factory=list)
    rows: list[SheetRow] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    radelci: dict[str, int] = field(default_factory=dict)
    rulesets: set[str] = field(default_factory=set)
    end_per_radelc: int = SESSION_END_PER_RADELC  # what an open radelc costs at the end (the rules' options)

    @property
    def keeps_radelci(self) -> bool:
        """A session with radelci (slovenian deals; Königrufen has none)."""
        return self.session is not None and "slovenian" in self.rulesets

    @property
    def session_end(self) -> dict[str, int]:
        """``end_per_radelc`` (−100; −40 under Palčka's rules) per uncancelled radelc (only for a real
        session)."""
        if self.session is None:
            return {p: 0 for p in self.players}
        return {p: self.end_per_radelc * self.radelci.get(p, 0) for p in self.players}

    @property
    def final(self) -> dict[str, int]:
        end = self.session_end
        return {p: self.totals.get(p, 0) + end[p] for p in self.players}

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "players": self.players,
            "hands": [{**row.__dict__, "findings": [asdict(f) for f in row.findings]} for row in self.rows],
            "totals": self.totals,
            "radelci": self.radelci,
            "session_end": self.session_end,
            "final": self.final,
        }


def build_sheets(items: Iterable[ReadItem], overrides: dict[str, Any] | None = None) -> tuple[list[Sheet], list[ReadItem]]:
    """Score sheets per session (in order of first appearance), and the unreadable items.

    The session model of every command (``tarock.check.sessions``): each session's deals in ``seq`` order,
    a deal seen before (the same content hash) on the sheet once.
    """
    deals: list[ReadItem] = []
    bad: list[ReadItem] = []
    sheets: dict[str | None, Sheet] = {}
    for item in items:
        if item.deal is None:
            bad.append(item)
        else:
            deals.append(item)
            if item.deal.session not in sheets:
                sheets[item.deal.session] = Sheet(item.deal.session)
    key = _session_seq
    plan = SessionPlan.of(key(item) for item in deals)
    scorer = SessionScorer(plan, overrides)
    for item in ordered(deals, key):
        assert item.deal is not None  # the unreadable items went to ``bad``
        result, copy = scorer.score(item.deal, item.file, item.line)
        if not copy:
            sheet = sheets[item.deal.session]
            _add_row(sheet, len(sheet.rows) + 1, result)
            if item.deal.ruleset == "slovenian":  # the session's last Slovenian deal sets it, as its ledger does
                options = options_for("slovenian", item.deal.options, overrides)
                assert isinstance(options, SlovenianOptions)
                sheet.end_per_radelc = session_end_per_radelc(options)
    return list(sheets.values()), bad


def _session_seq(item: ReadItem) -> tuple[str | None, int | None]:
    assert item.deal is not None
    return item.deal.session, item.deal.seq


def _add_row(sheet: Sheet, hand: int, s: DealCheck) -> None:
    sheet.rulesets.add(s.ruleset)
    for p in s.players:
        if p not in sheet.players:
            sheet.players.append(p)
            sheet.totals[p] = 0
            sheet.radelci[p] = 0
    writers: set[str] = set()
    for line in s.breakdown or ():
        writers.update(line.players)
    sheet_only = s.sheet_only
    recorded = s.recorded
    if sheet_only:
        writers.update(recorded or ())
    scores = s.scores
    cells = {p: (scores[p] if scores is not None and p in writers else None) for p in s.players}
    mismatches = {}
    if recorded is not None and scores is not None:
        mismatches = {p: recorded.get(p, 0) for p in s.players if recorded.get(p, 0) != scores[p]}
    if scores is not None:
        for p, v in scores.items():
            sheet.totals[p] += v
        sheet.radelci.update(s.radelci_after or {})
    disputed = sorted({f.player or "" for f in s.findings if f.code == "A_SCORE_MISMATCH"}) if sheet_only else []
    sheet.rows.append(SheetRow(hand, s.id, s.contract, s.declarer, s.status, cells, recorded, mismatches,
                               s.radelci_after, s.findings, s.file, s.line, sheet_only, disputed))
