"""The ``Deal`` of a record the simulator has just built, made from the cards it played instead of re-read.

The simulator checks every deal it writes by replaying it (``tarock.engine.replay``).  Reading the record
object back through the codec (``tarock.formats.codec.deal_from_obj``) would parse again every code the
simulator has just written from card ints, and validate what it built by construction; ``record_deal``
builds the same ``Deal`` from the ints and names it holds.  ``tests/sim/test_record_deal.py`` checks, deal
by deal of both rulesets, with and without mistakes, that it equals ``deal_from_obj`` of the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from tarock.deal import EMPTY, Announcement, Deal


def record_deal(record: dict[str, Any], hands: Sequence[Sequence[int]], talon: Sequence[int],
                pick: Sequence[int], stash: Sequence[int], called_king: int | None,
                tricks: Sequence[tuple[int, ...]], trick_seats: Sequence[tuple[int, ...]], named: bool) -> Deal:
    """``deal_from_obj(record)`` for a record object the simulator built (no ``recorded`` yet), given the
    cards it wrote as ints: each player's hand in the order written, the talon, the talon pick and the stash
    (empty when the record has none), the called king, and the tricks with their seats (named in the record
    when ``named``)."""
    players = tuple(record["players"])
    declarer = record.get("declarer")
    options = record.get("options")
    return Deal(
        id=record["id"],
        id_given=True,
        ruleset=record["ruleset"],
        players=players,
        contract=record["contract"],
        tricks=tuple(tricks),
        trick_players=_trick_players(players, trick_seats) if named else (None,) * len(tricks),
        session=record["session"],
        seq=record["seq"],
        date=record["date"],
        options=EMPTY if options is None else MappingProxyType(dict(options)),
        hands=tuple(tuple(hand) for hand in hands),
        talon=tuple(talon),
        bidding=tuple((player, bid) for player, bid in record["bidding"]),
        declarer=tuple(declarer) if isinstance(declarer, list) else declarer,
        called_king=called_king,
        talon_pick=tuple(pick) if "talon_pick" in record else None,
        stash=tuple(stash) if "stash" in record else None,
        announcements=tuple(_announcement(a) for a in record.get("announcements", ())),
        conceded=record.get("conceded"),
        extra=EMPTY,
    )


def _trick_players(players: tuple[str, ...], trick_seats: Sequence[tuple[int, ...]]
                   ) -> tuple[tuple[str, ...], ...]:
    """Each trick's players by name: one tuple per distinct seating (a deal played in turn has one per leader)."""
    named: dict[tuple[int, ...], tuple[str, ...]] = {}
    out = []
    for seats in trick_seats:
        names = named.get(seats)
        if names is None:
            names = named[seats] = tuple([players[s] for s in seats])
        out.append(names)
    return tuple(out)


def _announcement(item: dict[str, Any]) -> Announcement:
    if "bonus" in item:
        return Announcement(item["player"], bonus=item["bonus"])
    return Announcement(item["player"], kontra=item["kontra"], level=item["level"], against=item.get("against"))
