"""Sessions: scoring a table's deals in order, carrying radelci and running totals.

Radelci live across the deals of one session (docs/rules.md: "radelci and running
totals are per session"): each deal is scored with the radelci the players
hold before it, and its ``radelci_after`` becomes the ledger.  Players are
keyed by name, since seats rotate with the dealer.  At the end of a session
every uncancelled radelc costs 100 (40 under ``radelc_session_value: 40``, the options of the
session's last scored Slovenian deal) — a separate "session end" line, never part
of any deal's scores.  A deal whose record has an error (no facts) is skipped
and leaves the ledger unchanged.  Putting the deals in order is the caller's
business: ``tarock.check.sessions`` is the one session model every command uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable

from tarock.facts import AnyFacts
from tarock.rules.rulesets import score_facts
from tarock.rules.slovenian.options import SlovenianOptions
from tarock.rules.slovenian.scoring import SESSION_END_PER_RADELC, ScoreResult, session_end_per_radelc

@dataclass(slots=True)
class SessionLedger:
    """Radelci and running totals of one session, per player name."""

    radelci: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    scored: int = 0
    skipped: int = 0
    end_per_radelc: int = SESSION_END_PER_RADELC
    """What each uncancelled radelc costs at the session end (the last scored Slovenian deal's options)."""

    @classmethod
    def for_players(cls, players: Iterable[str]) -> "SessionLedger":
        """A fresh ledger with every named player at 0 radelci and 0 points."""
        ledger = cls()
        ledger.join(players)
        return ledger

    def join(self, players: Iterable[str]) -> None:
        """Make sure each player has an entry (a newcomer starts at 0)."""
        for name in players:
            self.radelci.setdefault(name, 0)
            self.totals.setdefault(name, 0)

    def apply(self, facts: AnyFacts | None) -> ScoreResult | None:
        """Score the next deal with the radelci held now; None (ledger unchanged) for a deal in error.

        Either ruleset's deals: Königrufen has no radelci and leaves them as they are.
        """
        if facts is None:
            self.skipped += 1
            return None
        self.join(facts.players)
        if isinstance(facts.options, SlovenianOptions):
            self.end_per_radelc = session_end_per_radelc(facts.options)
        result = score_facts(facts, {name: self.radelci[name] for name in facts.players})
        self.radelci.update(result.radelci_after)
        for name, score in result.scores.items():
            self.totals[name] += score
        self.scored += 1
        return result

    def close(self) -> dict[str, int]:
        """The session-end line: -100 (``radelc_session_value``) per uncancelled radelc, per player."""
        return {name: self.end_per_radelc * n for name, n in self.radelci.items()}

    def final_totals(self) -> dict[str, int]:
        """Running totals with the session-end line added."""
        end = self.close()
        return {name: total + end[name] for name, total in self.totals.items()}


@dataclass(frozen=True, slots=True)
class SessionEntry:
    """One deal of a session: its result (None for a deal in error) and the ledger after it."""

    key: Hashable
    result: ScoreResult | None
    totals: dict[str, int]
    radelci: dict[str, int]


@dataclass(frozen=True, slots=True)
class SessionReport:
    """A scored session: its deals in order, the session-end line and the final totals."""

    entries: tuple[SessionEntry, ...]
    session_end: dict[str, int]
    totals: dict[str, int]
    final: dict[str, int]


def score_session(
    items: Iterable[tuple[Hashable, AnyFacts | None]], players: Iterable[str] = ()
) -> SessionReport:
    """Score ``(key, facts)`` pairs in the order given; ``players`` seeds the ledger (others join as seen)."""
    ledger = SessionLedger.for_players(players)
    entries = []
    for key, facts in items:
        result = ledger.apply(facts)
        entries.append(SessionEntry(key, result, dict(ledger.totals), dict(ledger.radelci)))
    return SessionReport(tuple(entries), ledger.close(), dict(ledger.totals), ledger.final_totals())
