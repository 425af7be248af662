"""Whether a bidding ends in the contract and declarers a deal plays, by the ruleset's own ``check_bidding``,
remembered per auction: the fast lanes (``tarock.accel.lane``, ``tarock.accel.kr_lane``) ask it of every deal,
and a club's auctions recur endlessly, whoever sits where."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from tarock.rules.bidding import BiddingOutcome

CheckBidding = Callable[..., BiddingOutcome]
"""A ruleset's ``check_bidding(bids, n_players, options, players)``."""



class Played(Protocol):
    """What this asks of a ruleset's contract."""

    @property
    def name(self) -> str: ...
    @property
    def has_declarer(self) -> bool: ...


_OUTCOMES: dict[tuple[Any, ...], tuple[object, BiddingOutcome]] = {}
"""Outcomes by (the check, the bids by seat, the table's size, the options' identity), each with its options
(kept alive with it, so their id stays theirs)."""
_LIMIT = 1 << 16


def bids_agree(check: CheckBidding, bids: tuple[tuple[int, str], ...], players: tuple[str, ...],
               contract: Played, declarers: tuple[int, ...], options: object) -> bool:
    """Whether the bids (seat, bid, in the order spoken) are legal by ``check`` and end in ``contract`` played
    by ``declarers``.  By seat, not by name: the names reach only the errors' sentences, of which this asks
    only whether there are any; and the options by identity (hashing one hashes every field)."""
    key = (check, bids, len(players), id(options))
    known = _OUTCOMES.get(key)
    if known is not None and known[0] is options:
        outcome = known[1]
    else:
        outcome = check(list(bids), len(players), options, players)
        if len(_OUTCOMES) >= _LIMIT:
            _OUTCOMES.clear()
        _OUTCOMES[key] = (options, outcome)
    if outcome.errors or outcome.contract != contract.name:
        return False
    return not contract.has_declarer or outcome.declarers == declarers
