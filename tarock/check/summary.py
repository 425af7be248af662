"""One deal's replay as the JSON object ``tarock check --format json`` prints.

This is the shape docs/architecture.md fixes for dashboards and ingest: they store
exactly what this returns.  ``card_points`` holds whole points: two sides, or
per player in Klop and Trischaken (Königrufen's counting 1/3 rounds thirds to
the nearest point, which keeps the win at ≥ 36 ⇔ ≥ 35⅔).
"""

from __future__ import annotations

from typing import Any

from tarock import accel
from tarock.cards import CARD_POINTS, CODES
from tarock.engine import Replay
from tarock.findings import Finding


_CODE = CODES.__getitem__
_POINTS = CARD_POINTS.__getitem__


def finding_dict(f: Finding, file: str | None, line: int | None) -> dict[str, Any]:
    """A finding with the record's place filled in."""
    d = f.to_dict()
    if d.get("file") is None:
        d["file"] = file
    if d.get("line") is None:
        d["line"] = line
    return d


def parse_error(finding: Finding) -> dict[str, Any]:
    """The object printed for an input line that is not a record."""
    return {
        "id": None,
        "file": finding.file,
        "line": finding.line,
        "status": "error",
        "findings": [finding.to_dict()],
    }


def _trick_dicts(rp: Replay, players: tuple[str, ...]) -> list[dict[str, Any]]:
    name = players.__getitem__
    return [{
        "leader": players[seats[0]],
        "players": list(map(name, seats)),
        "cards": list(map(_CODE, cards)),
        "winner": players[winner],
        "points": sum(map(_POINTS, cards)),
    } for cards, seats, winner in zip(rp.tricks, rp.trick_seats, rp.winners)]


def deal_summary(rp: Replay, file: str | None = None, line: int | None = None) -> dict[str, Any]:
    """The check object of a replayed deal (without scores; scoring adds those)."""
    deal = rp.deal
    players = deal.players
    kernel = accel.KERNEL
    tricks = None if kernel is None else kernel.trick_dicts(rp.tricks, rp.trick_seats, rp.winners, players)
    if tricks is None:
        tricks = _trick_dicts(rp, players)
    summary: dict[str, Any] = {
        "id": deal.id,
        "file": file,
        "line": line,
        "session": deal.session,
        "seq": deal.seq,
        "status": rp.status,
        "findings": [finding_dict(f, file, line) for f in rp.findings],
        "ruleset": deal.ruleset,
        "players": list(players),
        "contract": deal.contract,
        "declarer": rp.player(rp.declarer),
        "partner": rp.player(rp.partner),
        "tricks": tricks,
        "card_points": rp.card_points,
    }
    if deal.ruleset == "koenigrufen":  # a parallel negative game has several declarers ("declarer" is the first)
        summary["declarers"] = [players[s] for s in rp.declarers]
    return summary
