"""One deal's replay as a check result (``tarock.check.result``), before scoring adds the scores.

This is the shape docs/architecture.md fixes for dashboards and ingest: they store exactly what the checker
(``tarock.check.checker``) makes of it.
"""

from __future__ import annotations

from tarock import accel
from tarock.cards import CARD_POINTS, CODES
from tarock.check.result import DealCheck, Trick, UnreadableCheck, located
from tarock.replay_state import Replay
from tarock.findings import Finding


_CODE = CODES.__getitem__
_POINTS = CARD_POINTS.__getitem__


def parse_error(finding: Finding) -> UnreadableCheck:
    """The check result of an input line that is not a record."""
    return UnreadableCheck(None, finding.file, finding.line, "error", [located(finding, None, None)])


def _trick_dicts(rp: Replay, players: tuple[str, ...]) -> list[Trick]:
    name = players.__getitem__
    return [{
        "leader": players[seats[0]],
        "players": list(map(name, seats)),
        "cards": list(map(_CODE, cards)),
        "winner": players[winner],
        "points": sum(map(_POINTS, cards)),
    } for cards, seats, winner in zip(rp.tricks, rp.trick_seats, rp.winners)]


def deal_summary(rp: Replay, file: str | None = None, line: int | None = None) -> DealCheck:
    """The check result of a replayed deal, unscored (its scoring fields None; the checker scores it)."""
    deal = rp.deal
    players = deal.players
    kernel = accel.KERNEL
    tricks: list[Trick] | None = None if kernel is None else kernel.trick_dicts(
        rp.tricks, rp.trick_seats, rp.winners, players)
    if tricks is None:
        tricks = _trick_dicts(rp, players)
    return DealCheck(
        id=deal.id,
        file=file,
        line=line,
        session=deal.session,
        seq=deal.seq,
        status=rp.status,
        findings=[located(f, file, line) for f in rp.findings],
        ruleset=deal.ruleset,
        players=list(players),
        contract=deal.contract,
        declarer=rp.player(rp.declarer),
        partner=rp.player(rp.partner),
        tricks=tricks,
        card_points=rp.card_points,
        # Königrufen's parallel negative games have several declarers ("declarer" is the first)
        declarers=[players[s] for s in rp.declarers] if deal.ruleset == "koenigrufen" else None,
        scores=None, breakdown=None, radelci_before=None, radelci_after=None, won=None, penalty=None,
        unpenalised=None, recorded=None,
    )
