"""Findings: what a replay or an audit says is wrong with a record.

The codes and severities are the contract between the engine, the store, the
dashboard and audits (docs/findings.md).  A finding is plain data with a
one-sentence message a player understands.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from tarock.cards import cards_text

ERROR = "error"
RENONS = "renons"
WARNING = "warning"
MISPLAY = "misplay"
AUDIT = "audit"

SEVERITY: dict[str, str] = {
    "E_PARSE": ERROR,
    "E_DECK": ERROR,
    "E_NOT_IN_HAND": ERROR,
    "E_SEQUENCE": ERROR,
    "E_BID": ERROR,
    "E_TALON": ERROR,
    "E_KING": ERROR,
    "R_STASH": RENONS,
    "E_ANNOUNCE": ERROR,
    "R_FOLLOW_SUIT": RENONS,
    "R_MUST_TAROK": RENONS,
    "R_MUST_OVERTRUMP": RENONS,
    "R_PAGAT": RENONS,
    "R_LEAD_TAROK": RENONS,
    "R_OWN_KING": RENONS,
    "R_OUT_OF_TURN": RENONS,
    "W_MISDEAL": WARNING,
    "W_SEQ": WARNING,
    "M_BAD_CLAIM": MISPLAY,
    "M_GAME_LOST": MISPLAY,
    "A_SCORE_MISMATCH": AUDIT,
}
"""Every finding code and its severity."""

PLAIN_NAMES: dict[str, str] = {
    "E_PARSE": "unreadable record",
    "E_DECK": "not a valid deal",
    "E_NOT_IN_HAND": "card not in the hand",
    "E_SEQUENCE": "tricks or plays missing",
    "E_BID": "illegal bid",
    "E_TALON": "impossible talon pick",
    "E_KING": "impossible king call",
    "R_STASH": "illegal card laid away",
    "E_ANNOUNCE": "impossible announcement",
    "R_FOLLOW_SUIT": "did not follow suit",
    "R_MUST_TAROK": "did not play a tarok",
    "R_MUST_OVERTRUMP": "did not beat the trick",
    "R_PAGAT": "Pagat rule broken",
    "R_LEAD_TAROK": "led a tarok in a colour game",
    "R_OWN_KING": "called a king held",
    "R_OUT_OF_TURN": "played out of turn",
    "W_MISDEAL": "misdeal: a hand without a tarok",
    "W_SEQ": "deal order unclear",
    "M_BAD_CLAIM": "claim that could be beaten",
    "A_SCORE_MISMATCH": "recorded score differs",
}
"""Each code in a few plain words, for a column or a list a club player reads (docs/findings.md has the whole
rule): the code stays the stable identifier in files and the store."""


def plain_name(code: str) -> str:
    """``code`` in plain words ("did not follow suit"); an unknown code as it is."""
    return PLAIN_NAMES.get(code, code)

RENONS_PLAY_ORDER = ("R_FOLLOW_SUIT", "R_MUST_TAROK", "R_PAGAT", "R_MUST_OVERTRUMP", "R_LEAD_TAROK")
"""Precedence when one play breaks several rules: the first applies."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing wrong with a record, pinned to where it happened.

    ``trick`` is 1-based, ``position`` the 0-based order within the trick;
    ``card`` is a canonical code.
    """

    code: str
    message: str
    trick: int | None = None
    position: int | None = None
    player: str | None = None
    card: str | None = None
    file: str | None = None
    line: int | None = None

    @property
    def severity(self) -> str:
        return SEVERITY[self.code]

    def located(self, file: str | None, line: int | None) -> "Finding":
        """This finding with the record's file and line filled in."""
        return replace(self, file=file, line=line)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out = {"code": self.code, "severity": self.severity, **{k: v for k, v in out.items() if k != "code"}}
        return out


def readable(code: str, message: str) -> str:
    """A finding's sentence for people: its cards as drawn (``tarock.cards.cards_text``), except in a record that
    could not be read (``E_PARSE``), whose sentence quotes the file's own text and the codes to write there."""
    return message if code == "E_PARSE" else cards_text(message)


def status_of(findings: list[Finding] | tuple[Finding, ...]) -> str:
    """``error`` if any finding is an error, else ``renons`` if any renons, else ``ok``."""
    status = "ok"
    for f in findings:
        sev = SEVERITY[f.code]
        if sev == ERROR:
            return "error"
        if sev == RENONS:
            status = "renons"
    return status
