"""The check result of one input item: the typed object ``tarock check --format json`` prints a line of.

Ingest stores exactly what a ``DealCheck`` holds (``ingest.rows.ShardRows``), score sheets are built from
it (``tarock.check.sheet``), and the command line prints it.  The structs encode, field by field in the order
declared here, to the JSON object of docs/store.md and docs/architecture.md: ``encode`` and ``encode_line`` are the
way to print one.

``card_points`` holds whole points: two sides, or per player in Klop and Trischaken (Königrufen's counting
1/3 rounds thirds to the nearest point, which keeps the win at ≥ 36 ⇔ ≥ 35⅔).
"""

from __future__ import annotations

from typing import TypedDict

import msgspec

from tarock.findings import Finding

__all__ = ["BreakdownLine", "CheckResult", "CheckedFinding", "DealCheck", "Trick", "UnreadableCheck",
           "encode", "encode_line", "located"]


class Trick(TypedDict):
    """One trick of a check result: its leader, who played which card in play order, the winner and the
    trick's raw card points.

    A dict, not a struct: the compiled kernel builds these (``tarock.accel._fastplay.trick_dicts``).
    """

    leader: str
    players: list[str]
    cards: list[str]
    winner: str
    points: int


class CheckedFinding(msgspec.Struct, frozen=True):
    """A finding as a check result carries it: its severity spelled out, the record's place filled in."""

    code: str
    severity: str
    message: str
    trick: int | None
    position: int | None
    player: str | None
    card: str | None
    file: str | None
    line: int | None


def located(f: Finding, file: str | None, line: int | None) -> CheckedFinding:
    """A finding with the record's place filled in where the finding has none of its own."""
    return CheckedFinding(f.code, f.severity, f.message, f.trick, f.position, f.player, f.card,
                          file if f.file is None else f.file, line if f.line is None else f.line)


class BreakdownLine(msgspec.Struct, frozen=True):
    """One line of a deal's score breakdown: the players it is written for, what it is and its value."""

    players: list[str]
    component: str
    detail: str
    value: int


class UnreadableCheck(msgspec.Struct, frozen=True):
    """The check result of an input line that is not a record: where it is and why (one ``error`` finding)."""

    id: None
    file: str | None
    line: int | None
    status: str
    findings: list[CheckedFinding]


class DealCheck(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The check result of a deal: its replay, its scores and every finding of the replay and the audits.

    ``status`` is ``ok``, ``renons`` or ``error``.  ``declarer`` is the first declarer (None in Klop and
    Trischaken); ``declarers`` lists every one, and only Königrufen deals have it (a parallel negative game
    has several).  The scoring fields (``scores`` to ``unpenalised``) are None for a deal in error;
    ``breakdown`` and ``radelci_before`` are None for a sheet-only deal, whose ``scores`` are the recorded
    figures and which alone has ``sheet_only`` (true).  ``recorded`` is the record's own scores, if any.
    The fields with defaults are left out of the JSON when at them: their absence is the shape of
    a Slovenian deal and of a replayed one.  A result of ``tarock check``'s fast path
    (``tarock.check.fast``, only printed) holds ``tricks`` and ``breakdown`` as their JSON text
    (``msgspec.Raw``), which encodes to the same bytes.
    """

    id: str
    file: str | None
    line: int | None
    session: str | None
    seq: int | None
    status: str
    findings: list[CheckedFinding]
    ruleset: str
    players: list[str]
    contract: str
    declarer: str | None
    partner: str | None
    tricks: list[Trick]
    card_points: dict[str, int] | None
    declarers: list[str] | None = None
    scores: dict[str, int] | None
    breakdown: list[BreakdownLine] | None
    radelci_before: dict[str, int] | None
    radelci_after: dict[str, int] | None
    won: bool | None
    penalty: str | None
    unpenalised: dict[str, int] | None
    recorded: dict[str, int] | None
    sheet_only: bool = False
    duplicate_of: str | None = None
    """``FILE:LINE`` of the first copy when this deal was seen before (the same content hash): the copy
    carries that copy's result with no findings of its own, and did not advance the session's ledger."""


CheckResult = DealCheck | UnreadableCheck
"""What checking one input item gives."""

_ENCODER = msgspec.json.Encoder()


def encode(result: CheckResult) -> bytes:
    """The compact JSON object of a check result (one line of ``tarock check --format json``)."""
    return _ENCODER.encode(result)


def encode_line(result: CheckResult, buffer: bytearray) -> None:
    """The JSON line of a check result, newline included, appended to ``buffer`` (one buffer written out
    now and then spares a bytes object and a write per line)."""
    _ENCODER.encode_into(result, buffer, -1)
    buffer.append(0x0A)
