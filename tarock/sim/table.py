"""The simulator's table for a deal its players play without a mistake: the cards and nothing else.

``tarock.game.Game`` judges every card as it is played (is it held, is it
legal, who may play it) so that a record is replayed with a finding for each
fault.  The simulator's players only ever choose from the legal mask, so a
deal they play cleanly needs none of that: ``Table`` keeps just what the
players and the record need (the hands, the trick so far, the tricks, their
seats and winners) and checks nothing.  The check comes once, at the end: the
record written is replayed by the engine (``tarock.engine.replay``, through
the accelerator where it applies; for a clean Slovenian deal the kernel's
lane, ``tarock.sim.lane_score``), which must
find nothing, and whose facts score the deal.  A deal with a mistake in the card play is played on ``Game``,
which finds the renons cards.

The trick's winner is decided exactly as ``Game.play`` and ``Game._finish_trick``
decide it (the highest card of the led suit, the highest tarok where taroks
are trumps, the emperor trick by the contract's emperor mode); a difference
would surface as a finding in that replay and stop the run.

``Table.play_with`` plays the deal out with the heuristic players of
``tarock.sim.players`` in one call to the compiled players
(``tarock/sim/_simplay.c``, a projection of the Python ones that takes the
legal cards and trick winners from the rules kernel) when they are built, the
kernel is loaded and it declares the options (``tarock.accel.declared``);
otherwise card by card in Python, the reference.  Both give the same tricks,
which ``tests/sim/test_compiled_play.py`` checks.
"""

from __future__ import annotations

from typing import Any, Callable

from tarock import accel
from tarock.accel.declared import accepts
from tarock.cards import CARD_SUIT, TAROK
from tarock.options import Options
from tarock.rules.koenigrufen import contracts as koenigrufen
from tarock.rules.play import EMPEROR_ALWAYS, TRULA, legal_mask
from tarock.rules.slovenian import contracts as slovenian
from tarock.sim.compiled import running
from tarock.sim.players import CardPlay

_TABLE_RULES: dict[str, Callable[[Any, Any], tuple[Any, bool, int]]] = {
    "slovenian": slovenian.table_rules, "koenigrufen": koenigrufen.table_rules}

_KNOWN: dict[tuple[int, int], tuple[Any, Options, tuple[Any, bool, int], bool]] = {}
"""The table rules and whether the accelerator declares the options, by the contract's and the options'
identity, with both (kept alive, so the ids stay theirs): ``table_rules``' own cache hashes every field of
both per deal."""


def _rules_of(contract: Any, options: Options) -> tuple[tuple[Any, bool, int], bool]:
    known = _KNOWN.get((id(contract), id(options)))
    if known is not None and known[0] is contract and known[1] is options:
        return known[2], known[3]
    rules = _TABLE_RULES[options.ruleset](contract, options)
    if len(_KNOWN) >= 4096:
        _KNOWN.clear()
    _KNOWN[(id(contract), id(options))] = (contract, options, rules, accepts(options))
    return rules, accepts(options)


class Table:
    """A deal's card play as the players see it (the parts of ``Game`` they read), played out in one call."""

    __slots__ = ("players", "n", "hands", "tricks", "trick_seats", "winners", "current_trick", "_taken",
                 "_leader", "_rules", "_force_pagat", "_emperor", "_declared")

    def __init__(self, players: tuple[str, ...], hands: list[int], contract: Any, options: Options,
                 leader: int = 0) -> None:
        self.players = players
        self.n = len(players)
        (self._rules, self._force_pagat, self._emperor), self._declared = _rules_of(contract, options)
        self.hands = list(hands)
        self.tricks: list[tuple[int, ...]] = []
        self.trick_seats: list[tuple[int, ...]] = []
        self.winners: list[int] = []
        self.current_trick: list[int] = []
        self._taken = [0] * self.n
        self._leader = leader

    def play_with(self, players: CardPlay) -> None:
        """Play every card with the heuristic ``players``: compiled when it can (see the module's docstring),
        else ``play_out(players.choose, players.trick_done)``.  ``players`` is used up either way."""
        compiled = running()
        if compiled is None or not self._declared:
            self.play_out(players.choose, players.trick_done)
            return
        rules = accel.play_rules(self._rules, self._force_pagat, self._emperor)
        self.tricks, self.trick_seats, self.winners = compiled.play(self.hands, self._leader, rules, players.state())
        for winner in self.winners:
            self._taken[winner] += 1
        self.hands = [0] * self.n

    def tricks_taken(self, seat: int) -> int:
        return self._taken[seat]

    def play_out(self, choose: Callable[[Any, int, int], int],
                 trick_done: Callable[[tuple[int, ...], int], None]) -> None:
        """Play every card: ``choose(table, seat, legal mask)`` picks each, ``trick_done(cards, winner)``
        hears of each finished trick."""
        hands, n = self.hands, self.n
        rules, force, emperor = self._rules, self._force_pagat, self._emperor
        trumps = rules.trumps
        tricks, trick_seats, winners, taken = self.tricks, self.trick_seats, self.winners, self._taken
        seats_from = [tuple((lead + i) % n for i in range(n)) for lead in range(n)]
        lead = self._leader
        while hands[lead]:
            cards: list[int] = []
            self.current_trick = cards
            seats = seats_from[lead]
            led = win = -1
            led_suit = pos = mask = 0
            for i, seat in enumerate(seats):
                hand = hands[seat]
                card = choose(self, seat, legal_mask(hand, led, win, mask, rules, force))
                bit = 1 << card
                hands[seat] = hand ^ bit
                if led < 0:
                    led = win = card
                    led_suit = CARD_SUIT[card]
                else:
                    suit = CARD_SUIT[card]
                    if trumps and suit == TAROK:
                        if CARD_SUIT[win] != TAROK or card > win:
                            win, pos = card, i
                    elif suit == led_suit and CARD_SUIT[win] == suit and card > win:
                        win, pos = card, i
                cards.append(card)
                mask |= bit
            done = tuple(cards)
            if mask & TRULA == TRULA and emperor and (emperor == EMPEROR_ALWAYS or led_suit == TAROK):
                pos = done.index(0)
            winner = seats[pos]
            tricks.append(done)
            trick_seats.append(seats)
            winners.append(winner)
            taken[winner] += 1
            trick_done(done, winner)
            lead = winner
        self.current_trick = []

