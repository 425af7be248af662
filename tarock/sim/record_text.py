"""The card texts of a simulated record: codes, and a named session's ``Name:CODE`` trick entries.

Both simulators (``tarock.sim.simulate``, ``tarock.sim.koenigrufen_sim``) write every card of a deal as text; a
deal has some seventy.  ``codes`` maps ints to codes without a Python loop, and ``TrickTexts`` writes each
seat's ``Name:CODE`` of every card once per seating rather than formatting each card of each deal (once per player and session).
"""

from __future__ import annotations

from collections.abc import Iterable

from tarock.cards import CODES
from tarock.sim.compiled import running

_CODE = CODES.__getitem__


def codes(cards: Iterable[int]) -> list[str]:
    """The cards' codes, in the order given."""
    return list(map(_CODE, cards))


class TrickTexts:
    """The tricks as a record writes them: plain codes, or ``Name:CODE`` in a named session (in one call to the
    compiled players when they may run, ``tarock.sim.compiled``: the same lists)."""

    __slots__ = ("named", "_texts")

    def __init__(self, named: bool) -> None:
        self.named = named
        self._texts: dict[str, tuple[str, ...]] = {}

    def __call__(self, players: tuple[str, ...], tricks: list[tuple[int, ...]],
                 trick_seats: list[tuple[int, ...]]) -> list[list[str]]:
        """``tricks`` (cards by play order, played from ``trick_seats`` of ``players``) as text."""
        if self.named:
            known = self._texts
            table = tuple([known.get(name) or self._of(name) for name in players])
        else:
            table = (CODES,) * len(players)
        compiled = running()
        if compiled is not None:
            texts: list[list[str]] = compiled.texts(tricks, trick_seats, table)
            return texts
        return [[table[s][c] for c, s in zip(cards, seats)] for cards, seats in zip(tricks, trick_seats)]

    def _of(self, name: str) -> tuple[str, ...]:
        """``name``'s ``Name:CODE`` of every card, made once."""
        texts = self._texts[name] = tuple(f"{name}:{code}" for code in CODES)
        return texts
