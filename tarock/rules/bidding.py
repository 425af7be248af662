"""Bidding, shared by the rulesets: replay the words spoken and say who declares what.

Both rulesets bid the same way: in rounds, a pass is final, a seat with
higher priority (closer to forehand) may match the current bid while the
others must bid higher, and some contracts belong to forehand once everyone
else has passed.  What differs is data (``BiddingRules``): the ladder, who
speaks first, whether forehand's pass keeps its choice, what everyone passing
means, and Königrufen's two extras — a contract only forehand's first word may
name (Sechserdreier) and negative games several players may play at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Protocol


class Biddable(Protocol):
    """What bidding needs to know of a contract."""

    @property
    def name(self) -> str: ...
    @property
    def rank(self) -> int: ...
    @property
    def label(self) -> str: ...
    @property
    def forehand_only(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class BiddingRules:
    """How a table bids.

    Attributes:
        contracts: the ladder by name.
        order: seats in the order they speak in each round.
        forehand_keeps_choice: forehand may pass and still choose a
            forehand-only contract once everyone else has passed.
        all_pass: the contract played when everyone passes (Klop), or None.
        unavailable: why a contract cannot be bid at this table (too few
            players, switched off by an option), or None when it can.
        opening: contracts only forehand's first word may name.
        parallel: contracts a later bidder joins instead of outbidding
            (several declarers play them at once).
    """

    contracts: Mapping[str, Biddable]
    order: tuple[int, ...]
    forehand_keeps_choice: bool
    all_pass: str | None
    unavailable: Callable[[Biddable], str | None]
    opening: frozenset[str] = frozenset()
    parallel: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class BiddingOutcome:
    """Who won the bidding with what, and every illegal bid as (bid index, seat, sentence).

    ``declarers`` lists every seat playing the contract (several only for a
    ``parallel`` contract); ``declarer`` is the first of them.
    """

    declarer: int | None
    contract: str | None
    errors: tuple[tuple[int, int, str], ...]
    declarers: tuple[int, ...] = ()


def run_bidding(bids: list[tuple[int, str]], names: tuple[str, ...], rules: BiddingRules) -> BiddingOutcome:
    """Replay the bids spoken, in order, and say who declares what.

    Bidding goes in rounds; in each round every seat still in speaks once, in
    ``rules.order``.  A pass is final (except that with
    ``forehand_keeps_choice`` a forehand who passed keeps the forehand-only
    choice); a seat with higher priority may match the current bid, others
    must bid higher, and a ``parallel`` contract is joined by whoever names it
    again.  The winner may raise once more after all others passed (the final
    declaration).  A bid out of turn is reported and then taken as spoken.
    """
    n_players = len(names)
    others = range(1, n_players)
    passed: set[int] = set()
    spoken: set[int] = set()  # seats that have spoken in the current round
    holders: list[int] = []
    best: Biddable | None = None
    errors: list[tuple[int, int, str]] = []
    done = False
    forehand_spoke = False

    def others_out() -> bool:
        return passed.issuperset(others)

    def forehand_choice() -> bool:
        return rules.forehand_keeps_choice and not holders and others_out()

    def expected() -> int | None:
        for s in rules.order:
            if s not in spoken and (s not in passed or (s == 0 and forehand_choice())):
                return s
        return None

    for i, (seat, bid) in enumerate(bids):
        if done:
            errors.append((i, seat, f"{names[seat]} bid {bid} after the bidding had ended"))
            continue
        turn = expected()
        if turn is None:
            spoken.clear()
            turn = expected()
        if turn is not None and seat != turn:
            errors.append((i, seat, f"{names[seat]} spoke out of turn: it was {names[turn]}'s turn to bid"))
        spoken.add(seat)
        opening = seat == 0 and not forehand_spoke
        forehand_spoke = forehand_spoke or seat == 0
        error = _bid_error(seat, bid, passed, holders, best, names, rules, seat == 0 and forehand_choice(),
                           others_out(), opening)
        if error:
            errors.append((i, seat, error))
        elif bid == "pass":
            passed.add(seat)
        else:
            contract = rules.contracts[bid]
            if best is not None and contract.rank == best.rank and bid in rules.parallel:
                holders.append(seat)
            else:
                holders = [seat]
            best = contract
            passed.discard(seat)
        active = n_players - len(passed)  # seats still in
        if holders:  # over once only the holders are still in, unless the winner raises (the final declaration)
            final_declaration = i + 1 < len(bids) and bids[i + 1][0] in holders and bids[i + 1][1] != "pass"
            done = active == len(holders) and passed.isdisjoint(holders) and not final_declaration
        else:  # everyone passed: over, unless forehand still has the forehand-only choice to make
            done = not active and (not forehand_choice() or (bid == "pass" and seat == 0))
    if not holders:
        everyone_passed = len(passed) == n_players
        return BiddingOutcome(None, rules.all_pass if everyone_passed else None, tuple(errors))
    declarers = tuple(sorted(holders))
    return BiddingOutcome(declarers[0], best.name if best else None, tuple(errors), declarers)


def _bid_error(seat: int, bid: str, passed: set[int], holders: list[int], best: Biddable | None,
               names: tuple[str, ...], rules: BiddingRules, forehand_choice: bool, others_out: bool,
               opening: bool) -> str | None:
    """Why ``bid`` by ``seat`` is illegal now, or None."""
    who = names[seat]
    if seat in passed and not forehand_choice:
        return f"{who} bid {bid} after passing"
    if bid == "pass":
        return None
    contract = rules.contracts[bid]
    reason = rules.unavailable(contract)
    if reason:
        return f"{who} bid {contract.label}, which {reason}"
    if bid in rules.opening:
        if not opening:
            return f"{who} bid {contract.label}, which only forehand may announce, as the first word of the bidding"
    elif contract.forehand_only and not (seat == 0 and others_out):
        return f"{who} bid {contract.label}, which only forehand may choose after everyone else has passed"
    if best is not None and holders and seat not in holders:
        holder = holders[0]
        joins = contract.rank == best.rank and bid in rules.parallel
        if contract.rank < best.rank or (contract.rank == best.rank and seat > holder and not joins):
            need = "at least match" if seat < holder else "bid higher than"
            return f"{who} bid {contract.label} but had to {need} {names[holder]}'s {best.label}"
    if best is not None and seat in holders and contract.rank <= best.rank:
        return f"{who} bid {contract.label} but had already bid {best.label}"
    return None
