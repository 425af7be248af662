"""Exact double-dummy solver for Slovenian tarok card play (all hands known).

Scope: the team contracts Tri … Solo ena and Solo brez (3 and 4 players),
Berač and Odprti berač, Valat and Barvni valat.  Klop has no sides: asking
for it raises ``OutOfScope``.

What is solved, per goal (``goal_of`` picks the contract's own):

* ``POINTS`` (Tri … Solo brez): the card points the declarer side can
  guarantee.  Card counting is additive in thirds (docs/rules.md: a pile counts
  ``round(raw − 2/3·n)``), so each card adds ``3·value − 2`` thirds to the
  side that takes it and the side's counted points are ``round(thirds / 3)``
  of its whole pile.  The caller passes what that pile already holds
  (``Position.banked``: tricks won so far, the stash, the talon share); the
  search adds the thirds still to come.
* ``NO_TRICK`` (Berač, Odprti berač): whether the declarer side can avoid
  taking any trick.
* ``ALL_TRICKS`` (Valat, Barvni valat; also claims): whether the declarer
  side can take every remaining trick.

The search is minimax (declarer-side seats maximise, the others minimise)
by fail-soft alpha-beta over single cards in null windows ("can the side
reach t points?", bisecting the points; boolean goals are values in
{-1, 0}), with

* a transposition table keyed at trick boundaries (the leader and the
  hands, equal cards packed by relative rank) holding lower/upper bounds
  and the best lead, kept per game context across calls, so analysing a
  deal card by card reuses it;
* move ordering: take the trick (highest first) when the other side is
  winning it, give points ("smear") when the own side is, duck low otherwise,
  the table's best lead first;
* equivalent-card pruning: two cards of one suit in one hand that are
  adjacent in rank among the cards still live (hands and the trick on the
  table) and have the same value for the goal are interchangeable, so only
  the higher is searched (Pagat, Mond, Škis and a bring-home king are never
  merged: they carry rules of their own).

The search below the driver (``_Engine.exact``) runs in the compiled core
(``tarock/accel/_solver.c``, the same tree in C, playing by the kernel's
legality) when it is built and the options are declared
(``compiled_available``); this module's own search is the reference it is
tested against.  docs/solver.md has the details and the measured speed.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from tarock import accel
from tarock.cards import (
    ABOVE,
    CARD_POINTS,
    CARD_SUIT,
    PAGAT,
    SUIT_OF_CARD_MASK,
    TAROK,
    TAROK_MASK,
    TRULA_MASK,
)
from tarock.options import DEFAULT_SLOVENIAN, SlovenianOptions
from tarock.rules.slovenian.contracts import (
    CONTRACTS,
    Contract,
    forced_pagat_applies,
    legal_mask,
    table_rules,
    trick_winner,
)

POINTS = "points"
NO_TRICK = "no_trick"
ALL_TRICKS = "all_tricks"

THIRDS: tuple[int, ...] = tuple(3 * p - 2 for p in CARD_POINTS)
"""What each card adds to the pile that takes it, in thirds of a point."""

_INF = 1 << 30
_TT_LIMIT = 1_000_000  # entries per game context before its table is cleared (about 1.3 kB each, memos included)
_MOVES_LIMIT = 500_000  # memoised move lists (and packed runs) per game context
_CORE_TT_START_BITS = 16  # the compiled core's table per game context: 2**16 entries of 32 bytes (2 MB) at first,
_CORE_TT_BITS = 22  # doubled as it fills up to 2**22 (128 MB, a whole deal's search: docs/solver.md)
_CORE_ETC_MIN_CARDS = 8  # the core's last seat tries an enhanced transposition cutoff from 8 cards a hand on
_CORE_SETTLED = True  # the core searches one card a chain where the trick's winning side is settled (docs/solver.md)
_BEATERS_TRUMPS: tuple[int, ...] = tuple(
    ABOVE[c] | (TAROK_MASK if CARD_SUIT[c] != TAROK else 0) for c in range(54)
)
"""With taroks as trumps: the cards that beat ``c`` when ``c`` is winning a trick."""


class OutOfScope(ValueError):
    """A position the solver does not handle (Klop: there are no sides)."""


class SearchStopped(Exception):
    """A search ran past the CPU time ``cpu_limit`` allows.  The tables keep only what it finished, so a later
    search (with more time) gives the same values as from a cold table."""


class _Limit(threading.local):
    """The CPU deadline of this thread's searches (``cpu_limit``): a Dask worker runs tasks in threads, each
    held to its own limit on its own clock."""

    deadline = 0.0
    """The thread's CPU seconds (``time.thread_time``) at which its searches stop; 0: never."""


_limit = _Limit()


@contextmanager
def cpu_limit(seconds: float | None) -> Iterator[None]:
    """Searches inside stop with ``SearchStopped`` once this thread has spent ``seconds`` more CPU seconds
    (None: no limit of its own; an enclosing limit still holds).  The compiled core looks at the clock every
    4,096 nodes, the reference at every trick boundary."""
    before = _limit.deadline
    if seconds is not None:
        mine = time.thread_time() + max(seconds, 0.0)
        _limit.deadline = min(before, mine) if before else mine
    try:
        yield
    finally:
        _limit.deadline = before


@dataclass(frozen=True, slots=True)
class Position:
    """A card-play position with every remaining hand known.

    ``hands`` are the seats' remaining cards (masks), ``leader`` the seat
    that led the current trick and ``trick`` the cards already in it (in
    play order; empty at a trick boundary), so the seat to move is
    ``(leader + len(trick)) % n``.  ``declarer_side`` is the set of seats
    that play for the declarer.  ``banked`` is what the declarer side's pile
    already holds, in thirds (``tarock.cards.counted_thirds``: tricks won,
    stash, talon share).  ``bring_home`` is the called king that, when the
    declarer wins a trick with it, brings the unchosen talon home, and
    ``bring_home_thirds`` what that talon is worth (docs/rules.md; -1: none).
    ``goal`` is what is solved (default: the contract's own, ``goal_of``);
    ``failed`` marks a boolean goal already lost before this position.
    """

    hands: tuple[int, ...]
    leader: int
    contract: str
    declarer_side: frozenset[int]
    trick: tuple[int, ...] = ()
    options: SlovenianOptions = DEFAULT_SLOVENIAN
    banked: int = 0
    bring_home: int = -1
    bring_home_thirds: int = 0
    goal: str | None = None
    failed: bool = False

    @property
    def objective(self) -> str:
        """The goal solved: ``goal``, else the contract's own (OutOfScope for Klop)."""
        return self.goal or goal_of(self.contract)

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def turn(self) -> int:
        """The seat to play next."""
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def finished(self) -> bool:
        return not any(self.hands) and not self.trick

    def legal(self) -> int:
        """The cards the seat to move may play, as a mask."""
        contract = CONTRACTS[self.contract]
        led, winner = _trick_state(self.trick, contract.trumps)
        mask = 0
        for card in self.trick:
            mask |= 1 << card
        force = forced_pagat_applies(contract, self.options)
        return legal_mask(self.hands[self.turn], led, winner, mask, contract, force)


def _trick_state(trick: tuple[int, ...], trumps: bool) -> tuple[int, int]:
    """The led card and the card currently winning ``trick`` (-1, -1 when empty)."""
    if not trick:
        return -1, -1
    winner = trick[0]
    beaters = _BEATERS_TRUMPS if trumps else ABOVE
    for card in trick[1:]:
        if beaters[winner] >> card & 1:
            winner = card
    return trick[0], winner


def play(position: Position, card: int) -> Position:
    """The position after the seat to move plays ``card`` (legal or not: records hold renons too).

    Completing a trick hands its cards to the winner (``trick_winner``, the
    ruleset's own rule): the declarer side's thirds go to ``banked``, a lost
    Berač or valat sets ``failed``, a bring-home king adds its talon.
    """
    seat = position.turn
    hands = list(position.hands)
    hands[seat] &= ~(1 << card)
    trick = position.trick + (card,)
    if len(trick) < position.n:
        return replace(position, hands=tuple(hands), trick=trick)
    contract = CONTRACTS[position.contract]
    win_pos = trick_winner(trick, contract, position.options)
    winner = (position.leader + win_pos) % position.n
    ours = winner in position.declarer_side
    banked = position.banked
    bring_home = position.bring_home
    if ours:
        banked += sum(THIRDS[c] for c in trick)
    if bring_home in trick:
        if trick[win_pos] == bring_home:
            banked += position.bring_home_thirds
        bring_home = -1
    failed = position.failed or breaks(position.objective, ours)
    return replace(position, hands=tuple(hands), trick=(), leader=winner, banked=banked,
                   bring_home=bring_home, failed=failed)


def breaks(goal: str, ours: bool) -> bool:
    """Whether a trick taken (``ours``) or lost by the declarer side breaks ``goal`` (a Berač or valat lost)."""
    return (goal == NO_TRICK and ours) or (goal == ALL_TRICKS and not ours)


def goal_of(contract: str) -> str:
    """The solver's objective in ``contract``; OutOfScope for Klop."""
    info = CONTRACTS[contract]
    if info.is_klop:
        raise OutOfScope("Klop has no sides; the solver does not apply")
    if info.is_beggar:
        return NO_TRICK
    if info.is_valat:
        return ALL_TRICKS
    return POINTS


@dataclass(frozen=True, slots=True)
class Solution:
    """The outcome of best play from a position.

    ``points`` are the declarer side's counted card points at the end
    (``round(thirds / 3)`` of its whole pile; in the valats with best play
    for points, in Berač None); for the boolean goals ``success`` says
    whether the declarer side reaches its goal (no trick taken, or every
    trick taken).  ``best_cards`` are all the cards of the seat to move
    that achieve the optimum, ``variation`` one line of best play to the
    end (or to the trick that loses a boolean goal).
    """

    goal: str
    points: int | None
    success: bool | None
    best_cards: tuple[int, ...]
    variation: tuple[int, ...]


def counted(thirds: int) -> int:
    """Counted card points of a pile of ``thirds`` (never a half: piles are ≡ their card count mod 3)."""
    return (thirds + 1) // 3


# -- the search ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Context:
    """Everything a search depends on besides the hands: one transposition table per context."""

    contract: str
    options: SlovenianOptions
    n: int
    side_mask: int
    goal: str
    bring_home: int
    bring_home_thirds: int


class _Engine:
    """Alpha-beta over one context; ``tt`` maps packed (leader, *hands) at trick boundaries to (low, high, lead).

    With ``compiled`` (``_core``) the search below the driver runs in the compiled core, which holds a table
    of its own; the driver (``exact``) is the same either way.
    """

    def __init__(self, ctx: _Context, compiled: bool = False) -> None:
        self.ctx = ctx
        self.tt: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.hands: list[int] = [0] * ctx.n
        self.visit = _make_visit(ctx, self.hands, self.tt)
        self.core = _core(ctx) if compiled else None

    def size(self) -> int:
        """Positions held in the transposition table."""
        return int(self.core.size()) if self.core is not None else len(self.tt)

    def exact(self, position: Position, guess: int | None = None) -> int:
        """The value of ``position``: the declarer side's counted points at the end, or 0 / -1.

        Points: null-window searches, each asking "can the side reach t
        points?" (``3t - 1`` thirds in its whole pile).  They cut off far
        more than one wide window, only resolve what the rounding can see,
        and leave bounds in the table for the next one.  With a ``guess``
        (say the value before the last card) the first two ask about the
        guess and its neighbour, which settles an unchanged value at once;
        otherwise, and after them, the range is bisected.
        """
        if self.ctx.goal != POINTS:
            return self.probe(position, -1, 0)
        banked = position.banked
        low, high = counted(banked), counted(banked + _upper_bound(position, self.ctx))
        target = guess if guess is not None and low < guess <= high else (low + high + 1) // 2
        near = target == guess
        while low < high:
            need = 3 * target - 1 - banked  # future thirds that make ``target`` points
            g = self.probe(position, need - 1, need)
            if g >= need:
                low = max(target, counted(banked + g))
                target = low + 1 if near else (low + high + 1) // 2
            else:
                high = min(target - 1, counted(banked + g))
                target = high if near else (low + high + 1) // 2
            near = False
        return low

    def probe(self, position: Position, alpha: int, beta: int) -> int:
        """The future value of ``position`` within a fail-soft window (alpha, beta)."""
        if position.failed and self.ctx.goal != POINTS:
            return -1
        if position.finished:
            return 0
        if self.core is not None:
            v = self.core.probe(position.hands, position.leader, position.trick, _upper_bound(position, self.ctx),
                                alpha, beta, _limit.deadline)
            if v is None:
                raise SearchStopped
            return int(v)
        self.hands[:] = position.hands
        contract = CONTRACTS[self.ctx.contract]
        led, winner = _trick_state(position.trick, contract.trumps)
        seats = [(position.leader + i) % position.n for i in range(len(position.trick))]
        win_seat = seats[position.trick.index(winner)] if position.trick else -1
        tmask = tval = 0
        for card in position.trick:
            tmask |= 1 << card
            tval += THIRDS[card]
        live = tmask
        for hand in position.hands:
            live |= hand
        pagat_seat = seats[position.trick.index(PAGAT)] if PAGAT in position.trick else -1
        return self.visit(position.turn, len(position.trick), led, winner, win_seat, tmask, tval, live,
                          _upper_bound(position, self.ctx), pagat_seat, alpha, beta)


def _upper_bound(position: Position, ctx: _Context) -> int:
    """The most the declarer side can still add: every live card, and the bring-home talon if pending."""
    live = 0
    for hand in position.hands:
        live |= hand
    for card in position.trick:
        live |= 1 << card
    total = sum(THIRDS[c] for c in range(54) if live >> c & 1)
    if ctx.bring_home >= 0 and live >> ctx.bring_home & 1:
        total += ctx.bring_home_thirds
    return total


def _equivalence(goal: str, bring_home: int) -> tuple[int, ...]:
    """A class per card: adjacent live cards of one hand with equal class are interchangeable.

    Points goal: the card's value; boolean goals: all alike.  Trula cards
    and the bring-home king get a class of their own.
    """
    classes = [CARD_POINTS[c] if goal == POINTS else 0 for c in range(54)]
    for c in range(54):
        if TRULA_MASK >> c & 1 or c == bring_home:
            classes[c] = 100 + c
    return tuple(classes)


def _blocks(classes: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Runs of two or more cards of one suit and one class, as (first card, mask).

    Only the order of the live cards within such a run matters, so the
    table key packs them to the bottom of the run (like bridge solvers'
    relative ranks): positions that differ in which equal cards are gone
    share one entry.
    """
    runs = []
    start = 0
    for card in range(1, 55):
        if card == 54 or CARD_SUIT[card] != CARD_SUIT[start] or classes[card] != classes[start]:
            if card - start >= 2:
                runs.append((start, ((1 << (card - start)) - 1) << start))
            start = card
    return tuple(runs)


def _packer(classes: tuple[int, ...]) -> Callable[[int, int], int]:
    """``pack(hand, live)``: a hand's cards in the runs of ``_blocks`` packed to each run's bottom, the rest kept.

    Memoised by (the hand's run cards, the live run cards).
    """
    blocks = _blocks(classes)
    runs = sum(block for _, block in blocks)
    memo: dict[tuple[int, int], int] = {}

    def pack_runs(hand: int, live: int) -> int:
        out = 0
        for start, block in blocks:
            lb = live & block
            target = 1 << start
            while lb:
                low = lb & -lb
                lb ^= low
                if hand & low:
                    out |= target
                target <<= 1
        return out

    def pack(hand: int, live: int) -> int:
        hr, lr = hand & runs, live & runs
        packed = memo.get((hr, lr))
        if packed is None:
            if len(memo) >= _MOVES_LIMIT:
                memo.clear()
            packed = memo[hr, lr] = pack_runs(hr, lr)
        return hand ^ hr | packed

    return pack


def _make_visit(ctx: _Context, hands: list[int], tt: dict[tuple[int, ...], tuple[int, int, int]]
                ) -> Callable[..., int]:
    """Build the recursive search over ``hands`` (mutated in place and restored) for ``ctx``.

    A closure, so the constants are cell loads rather than attribute
    lookups: the inner loop is the whole cost of the solver.  The moves of
    a node (legal cards less equivalent ones, ordered) are memoised by the
    legal cards, the live cards of their suit, those that beat the trick
    and the ordering case; the packed table key by the raw one.
    """
    contract: Contract = CONTRACTS[ctx.contract]
    options = ctx.options
    n = ctx.n
    side = ctx.side_mask
    force = forced_pagat_applies(contract, options)
    trumps = contract.trumps
    emperor = options.emperor_trick
    beaters = _BEATERS_TRUMPS if trumps else ABOVE
    classes = _equivalence(ctx.goal, ctx.bring_home)
    points = ctx.goal == POINTS
    takes = ctx.goal != NO_TRICK
    fail_when_ours = ctx.goal == NO_TRICK
    bonus_card, bonus = ctx.bring_home, ctx.bring_home_thirds
    nxt = tuple((s + 1) % n for s in range(n))
    thirds = THIRDS
    suit_of = CARD_SUIT
    suit_mask = SUIT_OF_CARD_MASK
    legal = legal_mask
    move_cache: dict[tuple[int, int, int, int], list[int]] = {}
    pack = _packer(classes)
    keys: dict[tuple[int, ...], tuple[int, ...]] = {}  # raw (leader, *hands) -> packed table key
    bonus_bit = 1 << bonus_card if bonus_card >= 0 else 0
    limit = _limit

    def moves(ok: int, live: int, beat: int, case: int) -> list[int]:
        if len(move_cache) >= _MOVES_LIMIT:
            move_cache.clear()
        cards = move_cache[ok, live, beat, case] = _ordered(_distinct(ok, live, classes), beat, case)
        return cards

    def visit(seat: int, pos: int, led: int, wcard: int, wseat: int, tmask: int, tval: int, live: int,
              rem: int, pseat: int, alpha: int, beta: int) -> int:
        """Future value with ``seat`` to play card ``pos`` of the trick; fail-soft in (alpha, beta)."""
        if pos == 0:
            if points:
                if rem <= alpha:
                    return rem
                if beta <= 0:
                    return 0
            if limit.deadline and time.thread_time() > limit.deadline:
                raise SearchStopped
            raw = (seat, *hands)
            key = keys.get(raw)
            if key is None:
                if len(keys) >= _TT_LIMIT:
                    keys.clear()
                key = keys[raw] = (seat, *[pack(h, live) for h in hands])
            entry = tt.get(key)
            if entry is not None:
                low, high, lead = entry
                if low >= beta or low == high:
                    return low
                if high <= alpha:
                    return high
                alpha = max(alpha, low)
                beta = min(beta, high)
            else:
                lead = -1
            case = _LEAD
        else:
            key = None
            mine = side >> seat & 1
            case = (_TAKE if (side >> wseat & 1) != mine else _SMEAR) if takes else _DUCK
        hand = hands[seat]
        ok = legal(hand, led, wcard, tmask, contract, force)
        cards: Sequence[int]
        if not ok & (ok - 1):
            cards = (ok.bit_length() - 1,)
        else:
            suit = suit_mask[ok.bit_length() - 1]
            near = live & suit if not ok & ~suit else live  # the live cards the equivalence looks at
            beat = ok & beaters[wcard] if pos else 0
            cards = move_cache.get((ok, near, beat, case)) or moves(ok, near, beat, case)
        if pos == 0 and lead >= 0 and cards[0] != lead and lead in cards:
            cards = [lead] + [c for c in cards if c != lead]
        a0, b0 = alpha, beta
        maxi = side >> seat & 1
        best = -_INF if maxi else _INF
        best_card = -1
        last = pos + 1 == n
        for card in cards:
            bit = 1 << card
            hands[seat] = hand ^ bit
            if pos == 0 or beaters[wcard] & bit:
                nw, nws = card, seat
            else:
                nw, nws = wcard, wseat
            nps = seat if card == PAGAT else pseat
            if not last:
                v = visit(nxt[seat], pos + 1, card if pos == 0 else led, nw, nws, tmask | bit, tval + thirds[card],
                          live, rem, nps, alpha, beta)
            else:
                tm = tmask | bit
                if tm & TRULA_MASK == TRULA_MASK and emperor and (trumps or suit_of[led] == TAROK):
                    nws, nw = nps, PAGAT
                ours = side >> nws & 1
                nlive = live & ~tm
                if points:
                    tv = tval + thirds[card]
                    gain = tv if ours else 0
                    if nw == bonus_card:
                        gain += bonus
                    nrem = rem - tv - bonus if tm & bonus_bit else rem - tv
                    v = gain + visit(nws, 0, -1, -1, -1, 0, 0, nlive, nrem, -1, alpha - gain, beta - gain) \
                        if nlive else gain
                elif ours == fail_when_ours:
                    v = -1
                else:
                    v = visit(nws, 0, -1, -1, -1, 0, 0, nlive, 0, -1, alpha, beta) if nlive else 0
            hands[seat] = hand
            if maxi:
                if v > best:
                    best, best_card = v, card
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, best_card = v, card
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if key is not None:
            _store(tt, key, best, a0, b0, best_card)
        return best

    return visit


def _store(tt: dict[tuple[int, ...], tuple[int, int, int]], key: tuple[int, ...], value: int, alpha: int,
           beta: int, card: int) -> None:
    """Record what a search in (alpha, beta) proved about ``key``: a bound, or the exact value."""
    low, high = (value, value) if alpha < value < beta else ((-_INF, value) if value <= alpha else (value, _INF))
    old = tt.get(key)
    if old is not None:
        low, high = max(low, old[0]), min(high, old[1])
    elif len(tt) >= _TT_LIMIT:
        _shrink(tt)
    tt[key] = (low, high, card)


def _shrink(tt: dict[tuple[int, ...], tuple[int, int, int]]) -> None:
    """Make room in a full table: drop the positions nearest the end of play (the cheapest to solve again).

    Whole depths go, fewest cards first, until at most half the entries are left.
    """
    depth = Counter(_cards_left(key) for key in tt)
    kept = 0
    threshold = max(depth) + 1
    for cards in sorted(depth, reverse=True):
        if kept + depth[cards] > len(tt) // 2:
            break
        kept += depth[cards]
        threshold = cards
    for key in [key for key in tt if _cards_left(key) < threshold]:
        del tt[key]


def _cards_left(key: tuple[int, ...]) -> int:
    """Cards still in the hands of a table key (leader, *hands)."""
    return sum(hand.bit_count() for hand in key[1:])


_LEAD, _TAKE, _SMEAR, _DUCK = range(4)
"""Ordering cases: leading; the other side wins the trick so far; the own side does; Berač (duck)."""


def _distinct(ok: int, live: int, classes: tuple[int, ...]) -> int:
    """``ok`` less every card whose next higher live card of its suit is also in ``ok`` and of its class."""
    cands = ok
    m = ok
    while m:
        low = m & -m
        m ^= low
        card = low.bit_length() - 1
        up = live & ABOVE[card]
        if up:
            nb = up & -up
            if nb & ok and classes[card] == classes[nb.bit_length() - 1]:
                cands ^= low
    return cands


def _ordered(cands: int, beat: int, case: int) -> list[int]:
    """The cards of ``cands`` in the order most likely to cut off first.

    Leading: highest first.  Following while the other side wins: beat it,
    highest first, else throw the cheapest card.  While the own side wins:
    give the dearest card that does not overtake.  Berač: duck, highest
    first, then beat as low as possible.
    """
    if case == _LEAD:
        return _high_first(cands)
    beat &= cands
    duck = cands ^ beat
    if case == _TAKE:
        return _high_first(beat) + sorted(_high_first(duck), key=CARD_POINTS.__getitem__)
    if case == _SMEAR:
        return sorted(_high_first(duck), key=CARD_POINTS.__getitem__, reverse=True) + _high_first(beat)[::-1]
    return _high_first(duck) + _high_first(beat)[::-1]


def _high_first(mask: int) -> list[int]:
    """The cards of ``mask``, highest int first."""
    out = []
    while mask:
        card = mask.bit_length() - 1
        out.append(card)
        mask ^= 1 << card
    return out


_GOAL_CODES = {POINTS: "GOAL_POINTS", NO_TRICK: "GOAL_NO_TRICK", ALL_TRICKS: "GOAL_ALL_TRICKS"}
"""Each goal's name in the compiled core."""


def compiled_available(options: SlovenianOptions) -> bool:
    """Whether the compiled core searches under ``options``: built, the kernel loaded (not ``accel.reference()``)
    and the options declared (``tarock.accel.declared``); otherwise this module's own search runs."""
    return accel.SOLVER is not None and accel.KERNEL is not None and accel.accepts(options)


def _core(ctx: _Context) -> Any:
    """The compiled core's engine of ``ctx`` (``tarock/accel/_solver.c``): the kernel's play rules of the contract
    (``tarock.accel.play_rules`` of the reference's ``table_rules``) and this module's tables."""
    assert accel.SOLVER is not None
    contract = CONTRACTS[ctx.contract]
    beaters = _BEATERS_TRUMPS if contract.trumps else ABOVE
    return accel.SOLVER.Engine(accel.play_rules(*table_rules(contract, ctx.options)), ctx.n, ctx.side_mask,
                               getattr(accel.SOLVER, _GOAL_CODES[ctx.goal]), ctx.bring_home, ctx.bring_home_thirds,
                               THIRDS, _equivalence(ctx.goal, ctx.bring_home), CARD_POINTS, beaters, ABOVE,
                               min(_CORE_TT_START_BITS, _CORE_TT_BITS), _CORE_TT_BITS, _CORE_ETC_MIN_CARDS,
                               _CORE_SETTLED)


_ENGINES: OrderedDict[tuple[_Context, bool], _Engine] = OrderedDict()
_MAX_CONTEXTS = 4  # with the compiled core's largest tables (and payoff-similarity's) at most 1.0 GB


def _engine(ctx: _Context) -> _Engine:
    """The engine (and its transposition table) of one context, kept across calls (least recently used out).

    Compiled and reference engines are kept apart, so ``accel.reference()`` always gets the reference.
    """
    key = (ctx, compiled_available(ctx.options))
    engine = _ENGINES.get(key)
    if engine is None:
        engine = _ENGINES[key] = _Engine(ctx, key[1])
        if len(_ENGINES) > _MAX_CONTEXTS:
            _ENGINES.popitem(last=False)
    else:
        _ENGINES.move_to_end(key)
    return engine


def clear_cache() -> None:
    """Forget every transposition table (the next search starts cold)."""
    _ENGINES.clear()


def cache_size() -> int:
    """Positions held in the transposition tables of every kept context."""
    return sum(e.size() for e in _ENGINES.values())


def node_count() -> int:
    """Nodes the compiled core has visited in every kept context since it was made (the reference counts none):
    bench/bench_solver.py reports them, a measure of the search that a shared machine does not blur."""
    return sum(int(e.core.nodes()) for e in _ENGINES.values() if e.core is not None)


def search_stats() -> Counter[str]:
    """The compiled core's counters summed over the kept contexts (``stats()`` in ``tarock/accel/_solver.c``):
    trick boundaries and how they ended (bounds, the last trick, the table, payoff-similarity's table:
    ``sim_found`` / ``sim_cut``), cut-off nodes and those cut off
    by their first move, nodes that tried every move and how many, and per number of cards in the leader's
    hand the boundaries visited (``visits_at_<k>``) and searched (``expanded_at_<k>``);
    bench/bench_solver.py ``--stats`` prints them."""
    total: Counter[str] = Counter()
    for e in _ENGINES.values():
        if e.core is None:
            continue
        for name, count in e.core.stats().items():
            if isinstance(count, list):
                total.update({f"{name}_{k}": c for k, c in enumerate(count) if c})
            else:
                total[name] += count
    return total


def _context(position: Position, goal: str) -> _Context:
    side_mask = 0
    for seat in position.declarer_side:
        side_mask |= 1 << seat
    bring_home = position.bring_home if goal == POINTS else -1
    return _Context(position.contract, position.options, position.n, side_mask, goal, bring_home,
                    position.bring_home_thirds if bring_home >= 0 else 0)


# -- public entry points ------------------------------------------------------------------------------
def value(position: Position, guess: int | None = None) -> int:
    """The exact value of ``position`` with best play by both sides.

    Points goal: the declarer side's counted card points at the end of the
    deal (``banked`` included).  Boolean goals: 0 when the declarer side
    reaches its goal, -1 when it cannot.  A ``guess`` of the points (e.g.
    the value of the position before) only speeds the search up.
    """
    return _engine(_context(position, position.objective)).exact(position, guess)


def at_least(position: Position, target: int) -> bool:
    """Whether ``value(position) >= target``: one null-window search, cheaper than the exact value.

    Points goal: can the declarer side end with ``target`` counted points
    (``3·target − 1`` thirds in its whole pile)?  Boolean goals: values are
    -1 and 0.
    """
    engine = _engine(_context(position, position.objective))
    if engine.ctx.goal != POINTS:
        return target <= -1 or (target <= 0 and engine.probe(position, -1, 0) >= 0)
    need = 3 * target - 1 - position.banked
    return need <= 0 or engine.probe(position, need - 1, need) >= need


def best_cards(position: Position, v: int | None = None) -> tuple[int, ...]:
    """Every legal card of the seat to move that keeps the value ``v`` of ``position`` (computed when None).

    A card is best when its position's value is ``v``: the declarer side
    cannot do better than ``v`` nor the others worse, so one null-window
    question per card settles it (``at_least``), the table shared with
    the value's search.
    """
    if v is None:
        v = value(position)
    cards = _cards(position.legal())
    if position.turn in position.declarer_side:
        return tuple(c for c in cards if at_least(play(position, c), v))
    return tuple(c for c in cards if not at_least(play(position, c), v + 1))


def solve(position: Position) -> Solution:
    """Best play from ``position``: its value, the best cards of the seat to move and a principal variation.

    In the valats the declarer side's card points with best play (for
    points) are given too; in Berač they mean nothing and are None.
    """
    goal = position.objective
    v = value(position)
    best = best_cards(position, v)
    line = _variation(position, v)
    if goal == POINTS:
        return Solution(goal, v, None, best, line)
    points = value(replace(position, goal=POINTS, failed=False)) if goal == ALL_TRICKS else None
    return Solution(goal, points, v == 0, best, line)


def _variation(position: Position, v: int) -> tuple[int, ...]:
    """One line of best play from ``position`` (value ``v``) to the end, or to a lost boolean goal."""
    line: list[int] = []
    while not position.finished and not position.failed:
        for card in _cards(position.legal()):
            child = play(position, card)
            if value(child, v) == v:
                line.append(card)
                position = child
                break
    return tuple(line)


def _cards(mask: int) -> list[int]:
    """The cards in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def can_opponents_take_a_trick(position: Position, claimer_side: Iterable[int]) -> bool:
    """Whether the seats outside ``claimer_side`` can take a trick from ``position`` by some legal play.

    A claim of all remaining tricks by ``claimer_side`` is sound exactly
    when they cannot (docs/penalties.md, "Claims"; ``M_BAD_CLAIM``).  Works in every
    contract, Klop included: only who takes the tricks matters.
    """
    claim = replace(position, declarer_side=frozenset(claimer_side), goal=ALL_TRICKS, failed=False)
    return value(claim) < 0
