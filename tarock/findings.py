"""Findings: what a replay or an audit says is wrong with a record.

The codes and severities are the contract between the engine, the store, the
dashboard and audits (docs/findings.md).  A finding is plain data with a
one-sentence message a player understands.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

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
