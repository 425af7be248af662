"""A deal in play: the state of the table from the talon exchange to the last trick.

``Game`` is the python-chess ``Board`` of tarock: it knows whose turn it is,
``legal_cards()``, ``can_play(card)``, ``verify_play(card)`` (raises) and
``play(card)``, which never raises on a rule violation: it records a finding
and goes on with the card as played, so a record is replayed to its end.
Hands and piles are 54-bit masks; the hot path allocates nothing per card.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Callable, Mapping

from tarock.rules.koenigrufen import contracts as koenigrufen
from tarock.rules.slovenian import contracts as slovenian
from tarock.cards import CARD_SUIT, CODES, SUIT_NAMES, TAROK, TAROK_MASK, cards_of
from tarock.rules.events import Demotions, resolve
from tarock.findings import Finding
from tarock.options import Options
from tarock.rules.play import EMPEROR_ALWAYS, PAGAT_BIT, TRULA, FollowRules, legal_mask, violation

_CONTRACTS: Mapping[str, Mapping[str, Any]] = {"slovenian": slovenian.CONTRACTS,
                                               "koenigrufen": koenigrufen.CONTRACTS}
_TABLE_RULES: Mapping[str, Callable[[Any, Any], tuple[FollowRules, bool, int]]] = {
    "slovenian": slovenian.table_rules, "koenigrufen": koenigrufen.table_rules}
"""Per ruleset (the options' ``ruleset``): the contracts by name, and what a contract plays by."""


class Phase(IntEnum):
    """Where a deal stands; records are replayed through these in order."""

    DEAL = 0
    BIDDING = 1
    KING = 2
    TALON = 3
    STASH = 4
    ANNOUNCEMENTS = 5
    PLAY = 6
    DONE = 7


class IllegalPlayError(ValueError):
    """Raised by ``Game.verify_play`` for a card that may not be played now."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


class Game:
    """The card play of one deal under a contract.

    ``hands`` are the masks each seat plays from (the declarer's after the
    talon exchange); ``leader`` leads the first trick.  Completed tricks are
    kept as ``tricks`` (card tuples in play order), ``trick_seats`` and
    ``winners`` (seat of each trick's winner); ``piles`` are each seat's
    taken cards.
    """

    __slots__ = (
        "players", "n", "contract", "options", "rules", "hands", "piles", "findings", "phase",
        "tricks", "trick_seats", "winners", "_cards", "_seats", "_mask", "_led", "_win_card",
        "_win_pos", "_turn", "_force_pagat", "_trumps", "_emperor", "_seen", "played", "_leader",
        "_out_of_order", "demote", "_weak",
    )

    def __init__(self, players: tuple[str, ...], hands: list[int], contract: Any,
                 options: Options, leader: int = 0) -> None:
        """``contract`` is a contract of the options' ruleset, or its name."""
        self.players = players
        self.n = len(players)
        self.contract = _CONTRACTS[options.ruleset][contract] if isinstance(contract, str) else contract
        self.options = options
        self.rules, self._force_pagat, self._emperor = _TABLE_RULES[options.ruleset](self.contract, options)
        self._trumps = self.rules.trumps
        self.hands = list(hands)
        self.piles = [0] * self.n
        self.findings: list[Finding] = []
        self.phase = Phase.PLAY
        self.tricks: list[tuple[int, ...]] = []
        self.trick_seats: list[tuple[int, ...]] = []
        self.winners: list[int] = []
        self.played = 0
        self._cards: list[int] = []
        self._seats: list[int] = []
        self._mask = 0
        self._led = -1
        self._win_card = -1
        self._win_pos = 0
        self._turn = leader
        self._leader = leader  # who should lead the current trick
        self._out_of_order = False  # a card of this trick was played out of turn
        self._seen = 0  # every card played so far
        self.demote: Demotions | None = None  # table events: cards that cannot take (tarock.rules.events)
        self._weak = 0  # positions of the current trick played out of turn, when ``demote`` demotes them

    # -- queries -----------------------------------------------------------
    @property
    def turn(self) -> int:
        """The seat that plays next."""
        return self._turn

    @property
    def trick_number(self) -> int:
        """The 1-based number of the trick being played."""
        return len(self.tricks) + 1

    @property
    def current_trick(self) -> tuple[int, ...]:
        """Cards already in the unfinished trick."""
        return tuple(self._cards)

    @property
    def kernel_rules(self) -> tuple[FollowRules, bool, int]:
        """What the compiled kernel plays this game by: the follow rules, the forced Pagat and the emperor mode
        (``tarock.accel.play_rules`` reads them by name into the kernel's rules)."""
        return self.rules, self._force_pagat, self._emperor

    def legal_mask(self, seat: int | None = None) -> int:
        """The cards ``seat`` (default: whoever's turn it is) may play now, as a mask."""
        s = self._turn if seat is None else seat
        return legal_mask(self.hands[s], self._led, self._win_card, self._mask, self.rules, self._force_pagat)

    def legal_cards(self, seat: int | None = None) -> list[int]:
        """The cards that may be played now, lowest first."""
        return list(cards_of(self.legal_mask(seat)))

    def can_play(self, card: int, seat: int | None = None) -> bool:
        """Whether playing ``card`` now breaks no rule."""
        s = self._turn if seat is None else seat
        return self.phase == Phase.PLAY and bool(self.legal_mask(s) >> card & 1)

    def verify_play(self, card: int, seat: int | None = None) -> None:
        """Raise ``IllegalPlayError`` (carrying the finding) if ``card`` may not be played now."""
        finding = self._judge(card, self._turn if seat is None else seat)
        if finding is not None:
            raise IllegalPlayError(finding)

    # -- actions -----------------------------------------------------------
    def play(self, card: int, seat: int | None = None) -> None:
        """Play ``card`` (by ``seat`` when the record names the player; default: whose turn it is).

        A rule violation is recorded in ``findings``; the card is played anyway.
        """
        turn = self._turn
        if seat is None:
            seat = turn
        elif seat != turn:
            self._out_of_turn(card, seat, turn)
            self._out_of_order = True
            if self.demote is not None and self.demote.out_of_turn:
                self._weak |= 1 << len(self._cards)
        bit = 1 << card
        hand = self.hands[seat]
        if not hand & bit:
            self._not_in_hand(card, seat)
        else:
            legal = legal_mask(hand, self._led, self._win_card, self._mask, self.rules, self._force_pagat)
            if not legal & bit:
                self.findings.append(self._renons(card, seat, hand))
            self.hands[seat] = hand ^ bit
        cards = self._cards
        if self._led < 0:
            self._led = card
            self._win_card = card
            self._win_pos = 0
        else:
            win = self._win_card
            cs = CARD_SUIT[card]
            if self._trumps and cs == TAROK:
                if CARD_SUIT[win] != TAROK or card > win:
                    self._win_card = card
                    self._win_pos = len(cards)
            elif cs == CARD_SUIT[self._led] and CARD_SUIT[win] == cs and card > win:
                self._win_card = card
                self._win_pos = len(cards)
        cards.append(card)
        self._seats.append(seat)
        self._mask |= bit
        self.played += 1
        if len(cards) == self.n:
            self._finish_trick()
        else:
            self._turn = self._next_seat(seat)

    def _next_seat(self, seat: int) -> int:
        """Whose turn it is: the first seat clockwise from the trick's rightful leader that has
        not yet played to it (after a play out of turn, the skipped player still owes a card)."""
        n = self.n
        if not self._out_of_order:
            return (seat + 1) % n
        seats = self._seats
        for step in range(n):
            cand = (self._leader + step) % n
            if cand not in seats:
                return cand
        return (seat + 1) % n

    def _finish_trick(self) -> None:
        cards = tuple(self._cards)
        seats = tuple(self._seats)
        pos = self._win_pos
        if self._mask & TRULA == TRULA and self._emperor and (
            self._emperor == EMPEROR_ALWAYS or CARD_SUIT[cards[0]] == TAROK
        ):
            pos = cards.index(0)
        if self.demote is not None:
            weak = self._weak | self.demote.weak(len(self.tricks) + 1, cards, seats)
            if weak:
                pos = resolve(cards, weak, self._trumps, self._emperor)
            self._weak = 0
        winner = seats[pos]
        self.tricks.append(cards)
        self.trick_seats.append(seats)
        self.winners.append(winner)
        self.piles[winner] |= self._mask
        self._seen |= self._mask
        self._cards = []
        self._seats = []
        self._mask = 0
        self._led = -1
        self._win_card = -1
        self._turn = winner
        self._leader = winner
        self._out_of_order = False
        if not any(self.hands):
            self.phase = Phase.DONE

    def finish_all(self, tricks: tuple[tuple[int, ...], ...], seats: list[tuple[int, ...]], winners: list[int],
                   piles: list[int]) -> None:
        """Take the outcome of a whole deal played without a fault (``tarock.accel``'s kernel):
        the state ``play`` leaves after the same cards."""
        self.tricks = list(tricks)
        self.trick_seats = seats
        self.winners = winners
        self.piles = piles
        seen = 0
        for pile in piles:
            seen |= pile
        self._seen = seen
        self.played = sum(map(len, tricks))
        self.hands = [0] * self.n
        self._turn = self._leader = winners[-1]
        self.phase = Phase.DONE

    # -- findings ----------------------------------------------------------
    def _judge(self, card: int, seat: int) -> Finding | None:
        if seat != self._turn:
            return self._out_of_turn_finding(card, seat, self._turn)
        hand = self.hands[seat]
        if not hand >> card & 1:
            return self._not_in_hand_finding(card, seat)
        if not self.legal_mask(seat) >> card & 1:
            return self._renons(card, seat, hand)
        return None

    def _where(self) -> tuple[int, int]:
        return len(self.tricks) + 1, len(self._cards)

    def _out_of_turn(self, card: int, seat: int, turn: int) -> None:
        self.findings.append(self._out_of_turn_finding(card, seat, turn))

    def _out_of_turn_finding(self, card: int, seat: int, turn: int) -> Finding:
        trick, pos = self._where()
        return Finding("R_OUT_OF_TURN", f"{self.players[seat]} played {CODES[card]} when it was "
                       f"{self.players[turn]}'s turn", trick, pos, self.players[seat], CODES[card])

    def _not_in_hand(self, card: int, seat: int) -> None:
        self.findings.append(self._not_in_hand_finding(card, seat))
        for other in range(self.n):  # keep the deck consistent: the card leaves whoever held it
            if self.hands[other] >> card & 1:
                self.hands[other] ^= 1 << card

    def _not_in_hand_finding(self, card: int, seat: int) -> Finding:
        trick, pos = self._where()
        who = self.players[seat]
        if (self._seen | self._mask) >> card & 1:
            return Finding("E_DECK", f"{who} played {CODES[card]}, which had already been played",
                           trick, pos, who, CODES[card])
        holder = next((self.players[s] for s in range(self.n) if self.hands[s] >> card & 1), None)
        where = f"{holder} held" if holder else "was in no hand (it lies in the talon or the stash)"
        return Finding("E_NOT_IN_HAND", f"{who} played {CODES[card]}, which {where}", trick, pos, who,
                       CODES[card])

    def _renons(self, card: int, seat: int, hand: int) -> Finding:
        code = violation(card, hand, self._led, self._win_card, self._mask, self.rules, self._force_pagat)
        trick, pos = self._where()
        who = self.players[seat]
        return Finding(code, self._sentence(code, card, who, hand), trick, pos, who, CODES[card])

    def _sentence(self, code: str, card: int, who: str, hand: int) -> str:
        """One sentence a player understands, naming the card that should have been played."""
        played = CODES[card]
        led = self._led
        legal = legal_mask(hand, led, self._win_card, self._mask, self.rules, self._force_pagat)
        example = CODES[(legal & -legal).bit_length() - 1] if legal else "?"
        label = self.contract.label
        last_tarock = self.rules.pagat_scope == TAROK_MASK  # Königrufen: the Pagat waits for the last tarock
        if code == "R_PAGAT" and led < 0:
            others = "other taroks" if last_tarock else "other cards"
            return f"{who} led the Pagat (T1) while holding {others}, which {label} forbids"
        if code == "R_LEAD_TAROK":
            return f"{who} led the tarok {played} while holding the suit card {example}; in {label} " \
                   "tarock may be led only when no suit card is left"
        if code == "R_FOLLOW_SUIT":
            suit = CARD_SUIT[led]
            name = "tarok" if suit == TAROK else SUIT_NAMES[suit][:-1]
            return f"{who} played {played} on a {name} lead while holding {example}"
        if code == "R_MUST_TAROK":
            suit_name = SUIT_NAMES[CARD_SUIT[led]]
            return f"{who} played {played}, void in {suit_name}, while holding the tarok {example}"
        if code == "R_PAGAT":
            if legal == PAGAT_BIT:
                return f"{who} played {played} when Škis and Mond were in the trick and the Pagat had to be played"
            return f"{who} played the Pagat (T1) while holding {example}; in {label} " \
                   f"the Pagat may only be played as the {'last tarock' if last_tarock else 'last possible card'}"
        return f"{who} played {played} under {CODES[self._win_card]} while holding {example}, " \
               "which beats it"

    # -- results -----------------------------------------------------------
    def tricks_taken(self, seat: int) -> int:
        return sum(1 for w in self.winners if w == seat)

    def unplayed(self) -> int:
        """Cards still in hands (a record that stopped early)."""
        m = 0
        for h in self.hands:
            m |= h
        return m

    @property
    def trick_in_progress(self) -> bool:
        return bool(self._cards)
