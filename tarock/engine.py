"""Replay a recorded deal through the rules of its ruleset and collect every finding.

``replay(deal)`` walks the phases in order (deal, bidding, king call, talon,
stash, announcements, trick play), never raises on a rule violation, and
returns a ``Replay``: the tricks with their winners, card points, the
findings in deal order, and the facts scoring needs.  Loading a record *is*
replaying it (PokerKit's idea).

This module runs the phases every ruleset shares; a ``_Ruleset`` holds the
ruleset's data and the few phases it plays its own way
(``tarock.rules.slovenian.replay``, ``tarock.rules.koenigrufen.replay``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from tarock import accel
from tarock.rules import events
from tarock.rules.koenigrufen import contracts as koenigrufen
from tarock.rules.koenigrufen import replay as koenigrufen_replay
from tarock.rules.slovenian import contracts as slovenian
from tarock.rules.slovenian import replay as slovenian_replay
from tarock.rules.bidding import BiddingOutcome
from tarock.cards import (
    CARD_BIT,
    CODES,
    FULL_DECK,
    KINGS_MASK,
    PLAIN_MASK,
    TAROK_MASK,
    TRULA_MASK,
    mask_of,
)
from tarock.deal import Deal
from tarock.accel.lane import replay_slovenian
from tarock.findings import Finding
from tarock.game import Game, Phase
from tarock.options import OptionError, options_for
from tarock.rules.play import trick_winner
from tarock.replay_state import Abort, Replay, Table, report
from tarock.solver.claims import claim_findings

__all__ = ["Replay", "replay"]


@dataclass(frozen=True, slots=True)
class _Ruleset:
    """What the replay needs of a ruleset: its data, and the phases it plays its own way.

    Attributes:
        contracts: the contracts by name.
        cards_per_hand: hand size by number of players (the table sizes played).
        unavailable: why a contract is not played at this table (size, options), or None.
        leader: who leads trick 1, given the contract, the declarers, the options and the deal.
        winning: what decides a trick (``tarock.rules.play.trick_winner``'s
            ``trumps`` and ``emperor``), given the contract and the options.
        check_bidding: replays the bidding (``tarock.rules.bidding``).
        misdeal_warning: a hand without a tarok is ``W_MISDEAL``.
        austrian_king_call: calling a king the declarer holds is
            ``R_OWN_KING`` (holding all four, any call is ``E_KING``), and a
            called king lying in the talon must be taken with its half.
        taroks_first: whether the stash must hold taroks before suit cards.
        check_contract: checks of the ruleset's own once the declarers and
            the king are known (may set ``Table.conceded``).
        decider: for a contract that can be decided before the last trick,
            the test whether it is decided after the tricks played so far.
        announcements, outcome: the ruleset's phases.
        several_declarers: whether the contract may be declared by several players at once, given the
            options (Königrufen's Piccolo, Zwiccolo, Triccolo unless ``several_declarers`` is off).
    """

    contracts: Mapping[str, Any]
    cards_per_hand: Mapping[int, int]
    unavailable: Callable[[Any, int, Any], str | None]
    leader: Callable[[Any, tuple[int, ...], Any, Deal], int]
    winning: Callable[[Any, Any], tuple[bool, int]]
    check_bidding: Callable[[list[tuple[int, str]], int, Any, tuple[str, ...]], BiddingOutcome]
    misdeal_warning: bool
    austrian_king_call: bool
    taroks_first: Callable[[Any, Any], bool]
    check_contract: Callable[[Table], None]
    announcements: Callable[[Table], None]
    decider: Callable[[Table], Callable[[Game], bool] | None]
    outcome: Callable[[Table], None]
    several_declarers: Callable[[Any, Any], bool]


_RULESETS: dict[str, _Ruleset] = {
    "slovenian": _Ruleset(
        contracts=slovenian.CONTRACTS,
        cards_per_hand=slovenian.CARDS_PER_HAND,
        unavailable=lambda c, n, options: None if slovenian.allowed_contract(c, n, options)
        else "is not played with 3 players",
        leader=lambda c, declarers, options, deal: slovenian_replay.leader(
            c, declarers, options, tuple(a.bonus for a in deal.announcements)),
        winning=lambda c, options: (c.trumps, slovenian.emperor_mode(c, options)),
        check_bidding=slovenian.check_bidding,
        misdeal_warning=True,
        austrian_king_call=False,
        taroks_first=lambda c, o: False,
        check_contract=lambda table: None,
        announcements=slovenian_replay.announcements,
        decider=slovenian_replay.decider,
        outcome=slovenian_replay.outcome,
        several_declarers=lambda c, options: c.parallel,
    ),
    "koenigrufen": _Ruleset(
        contracts=koenigrufen.CONTRACTS,
        cards_per_hand={koenigrufen.N_PLAYERS: koenigrufen.CARDS_PER_HAND},
        unavailable=lambda c, n, options: koenigrufen.unavailable(c, options),
        leader=lambda c, declarers, _options, _deal: koenigrufen.leader(c, declarers),
        winning=lambda c, options: (c.trumps, koenigrufen.table_rules(c, options)[2]),
        check_bidding=koenigrufen.check_bidding,
        misdeal_warning=False,
        austrian_king_call=True,
        taroks_first=lambda c, options: c.color and options.color_discard_restriction,
        check_contract=koenigrufen_replay.check_contract,
        announcements=koenigrufen_replay.announcements,
        decider=koenigrufen_replay.decider,
        outcome=koenigrufen_replay.outcome,
        several_declarers=koenigrufen.several_declarers,
    ),
}
TALON_SIZE = 6


def replay(deal: Deal, overrides: Mapping[str, Any] | None = None) -> Replay:
    """Replay ``deal`` card by card; every rule broken becomes a finding.

    A clean Slovenian deal takes the fast lane (``tarock.accel.lane``) when the accelerator is built;
    the lane gives up on anything else, and the reference replay below runs.
    """
    kernel = accel.KERNEL
    if kernel is not None and deal.ruleset == "slovenian" and deal.contract in slovenian.CONTRACTS:
        try:
            options = options_for(deal.ruleset, deal.options, overrides)
        except OptionError:
            pass
        else:
            fast = replay_slovenian(deal, options, kernel)  # type: ignore[arg-type]
            if fast is not None:
                return fast
    findings: list[Finding] = []
    out = Replay(deal, None, findings, deal.contract)
    try:
        _replay(deal, overrides, out)
    except Abort:
        pass
    out.findings.sort(key=_order)
    return out


def _order(f: Finding) -> tuple[int, int, int]:
    if f.trick is None:
        return (0, 0, 0)
    return (1, f.trick, f.position if f.position is not None else -1)


def _replay(deal: Deal, overrides: Mapping[str, Any] | None, out: Replay) -> None:
    ruleset = _RULESETS.get(deal.ruleset)
    if ruleset is None:
        report(out, "E_PARSE", f"ruleset {deal.ruleset} is not supported by this engine yet")
        raise Abort
    try:
        options = options_for(deal.ruleset, deal.options, overrides)
    except OptionError as exc:
        report(out, "E_PARSE", str(exc))
        raise Abort from None
    out.options = options
    n = deal.n_players
    if n not in ruleset.cards_per_hand:
        sizes = " or ".join(map(str, ruleset.cards_per_hand))
        report(out, "E_PARSE", f"{deal.ruleset} is played by {sizes} players, not {n}")
        raise Abort
    contract = ruleset.contracts.get(deal.contract)
    if contract is None:
        report(out, "E_PARSE", f"{deal.contract} is not a {deal.ruleset} contract")
        raise Abort
    reason = ruleset.unavailable(contract, n, options)
    if reason:
        report(out, "E_BID", f"{contract.label} {reason}")
    declarers = _declarers(deal, ruleset, contract, options, out)
    out.declarer = declarers[0] if declarers else None
    out.declarers = declarers
    if deal.extra.get("sheet_only") is True:
        _sheet_only(deal, ruleset, contract, options, out)
        return
    leader = ruleset.leader(contract, declarers, options, deal)
    demotions = events.plan(deal, contract)
    table = Table(deal, out, options, contract, declarers,
                  _seats(deal, ruleset, contract, options, leader, demotions))
    table.demotions = demotions
    table.hands, table.talon = _hands(table, ruleset)
    out.hands = list(table.hands)
    out.talon = table.talon
    if ruleset.misdeal_warning:
        _check_misdeal(table)
    if deal.bidding is not None:
        _check_bidding(table, ruleset)
    _king(table, ruleset)
    out.partner = table.partner
    ruleset.check_contract(table)
    table.play_hands = list(table.hands)
    if not table.conceded:
        _talon_and_stash(table, ruleset)
    ruleset.announcements(table)
    if not table.conceded:
        game = Game(deal.players, table.play_hands, contract, options, leader)
        game.phase = Phase.PLAY
        game.demote = demotions
        table.game = game
        table.decided_at = _play(table, ruleset, game)
        out.tricks = game.tricks
        out.trick_seats = game.trick_seats
        out.winners = game.winners
        out.findings.extend(game.findings)
        if deal.claim is not None:
            # judged before the outcome, which gives the claimed cards away
            out.findings.extend(claim_findings(out))
    ruleset.outcome(table)


def _sheet_only(deal: Deal, ruleset: _Ruleset, contract: Any, options: Any, out: Replay) -> None:
    """A record from a score sheet (``sheet_only``): no cards to replay, only the contract, declarer and bidding.

    The partner comes from the extra key ``partner``; whether the declarer's side won from the extra key
    ``won``, else from the sign of the declarer's recorded figure.  No card points and no facts.
    """
    out.sheet_only = True
    if deal.tricks or deal.hands is not None:
        report(out, "E_PARSE", "a sheet_only record has no card play, but this one has hands or tricks")
    partner = deal.extra.get("partner")
    if isinstance(partner, str) and partner in deal.players:
        out.partner = deal.seat(partner)
    if deal.bidding is not None:
        _check_bidding(Table(deal, out, options, contract, out.declarers, []), ruleset)
    won = deal.extra.get("won")
    if isinstance(won, bool):
        out.won = won
    elif out.declarer is not None and deal.recorded is not None:
        figure = deal.recorded.scores.get(deal.players[out.declarer])
        out.won = None if not figure else figure > 0


# -- deal ------------------------------------------------------------------
def _declarers(deal: Deal, ruleset: _Ruleset, contract: Any, options: Any, out: Replay) -> tuple[int, ...]:
    """The declarer's seat (several in a parallel game; none in Klop and Trischaken)."""
    given = deal.declarer
    if not contract.has_declarer:
        if given is not None and (not isinstance(given, str) or deal.seat(given) != 0):
            names = given if isinstance(given, str) else ", ".join(given)
            report(out, "E_BID", f"{contract.label} has no declarer, and only forehand ({deal.players[0]}) may name "
                               f"it, not {names}")
        return ()
    if isinstance(given, tuple):
        if not ruleset.several_declarers(contract, options):
            report(out, "E_BID", f"{contract.label} is played by one declarer, but the record names several")
        return tuple(sorted(deal.seat(p) for p in given))
    if given is not None:
        return (deal.seat(given),)
    if deal.bidding:
        outcome = ruleset.check_bidding([(deal.seat(p), b) for p, b in deal.bidding], deal.n_players, options,
                                        deal.players)
        if outcome.declarer is not None:
            return outcome.declarers
    report(out, "E_BID", f"the record plays {contract.label} but names no declarer")
    raise Abort


def _hands(table: Table, ruleset: _Ruleset) -> tuple[list[int], tuple[int, ...] | None]:
    """Initial hands as masks (given, or inferred from the play) and the talon in dealt order."""
    deal, out = table.deal, table.out
    per_hand = ruleset.cards_per_hand[deal.n_players]
    talon = deal.talon
    if deal.hands is not None:
        hands: list[int] = []
        seen = 0
        for seat, cards in enumerate(deal.hands):
            mask = mask_of(cards)
            if mask.bit_count() != len(cards) or mask & seen:
                dup = _duplicate(cards, seen)
                first = next((deal.players[s] for s, h in enumerate(hands) if h >> dup & 1), deal.players[seat])
                report(out, "E_DECK", f"{CODES[dup]} is dealt twice: to {first} and to {deal.players[seat]}",
                     deal.players[seat], dup)
                raise Abort
            seen |= mask
            if len(cards) != per_hand:
                report(out, "E_DECK", f"{deal.players[seat]} was dealt {len(cards)} cards, not {per_hand}",
                     deal.players[seat])
                raise Abort
            hands.append(mask)
        rest = FULL_DECK & ~seen
        if talon is not None:
            _check_talon(talon, seen, out)
        elif rest.bit_count() == TALON_SIZE:
            talon = tuple(c for c in range(54) if rest >> c & 1)
        return hands, talon
    return _infer_hands(table, per_hand)


def _duplicate(cards: tuple[int, ...], seen: int) -> int:
    for c in cards:
        if seen >> c & 1:
            return c
        seen |= 1 << c
    return cards[0]


def _check_talon(talon: tuple[int, ...], hands_mask: int, out: Replay) -> None:
    tmask = mask_of(talon)
    if len(talon) != TALON_SIZE or tmask.bit_count() != len(talon):
        report(out, "E_DECK", f"the talon must hold 6 different cards, not {len(talon)}")
        raise Abort
    if tmask & hands_mask:
        dup = (tmask & hands_mask & -(tmask & hands_mask)).bit_length() - 1
        report(out, "E_DECK", f"{CODES[dup]} is both in a hand and in the talon", card=dup)
        raise Abort


def _infer_hands(table: Table, per_hand: int) -> tuple[list[int], tuple[int, ...] | None]:
    """Hands rebuilt from who played what, plus the declarer's stash minus the talon pick."""
    deal, out, contract, declarer = table.deal, table.out, table.contract, table.declarer
    n = deal.n_players
    hands = [0] * n
    for t, (cards, who) in enumerate(zip(deal.tricks, table.seats)):
        for pos, card in enumerate(cards):
            bit = CARD_BIT[card]
            if any(h & bit for h in hands):
                report(out, "E_DECK", f"{CODES[card]} is played twice", deal.players[who[pos]], card, t + 1, pos)
                raise Abort
            hands[who[pos]] |= bit
    talon = deal.talon
    pick = mask_of(deal.talon_pick or ())
    stash = mask_of(deal.stash or ())
    if declarer is not None and (pick or stash):
        if not deal.talon_pick and talon is not None:
            pick = mask_of(talon) & (hands[declarer] | stash)
        hands[declarer] = (hands[declarer] | stash) & ~pick
    seen = 0
    for h in hands:
        seen |= h
    if talon is not None:
        _check_talon(talon, seen & ~pick, out)
        seen |= mask_of(talon)
    for seat, h in enumerate(hands):
        if h.bit_count() != per_hand:
            report(out, "E_DECK", f"the record has no hands and {deal.players[seat]}'s cannot be rebuilt from "
                                f"the play: {h.bit_count()} cards instead of {per_hand}", deal.players[seat])
            raise Abort
    rest = FULL_DECK & ~seen
    if talon is None:
        if rest.bit_count() != TALON_SIZE:
            report(out, "E_DECK", "the talon cannot be rebuilt from the play")
            raise Abort
        talon = tuple(c for c in range(54) if rest >> c & 1)
        if contract.talon_group in (1, 2) or not contract.has_declarer:
            report(out, "E_DECK", f"{contract.label} needs the talon in dealt order, and the record has none")
            raise Abort
    return hands, talon


def _check_misdeal(table: Table) -> None:
    for seat, h in enumerate(table.hands):
        if not h & TAROK_MASK:
            player = table.deal.players[seat]
            table.report("W_MISDEAL", f"{player} was dealt no tarok, which calls for a redeal", player)


# -- bidding -----------------------------------------------------------------
_BIDDINGS: dict[tuple[Any, ...], tuple[Any, BiddingOutcome]] = {}
"""Error-free bidding outcomes by (ruleset, bids by seat, table size, the options' identity), each with its
options (kept alive, so the id stays theirs): auctions recur endlessly, whoever sits where."""
_BIDDINGS_LIMIT = 1 << 16


def _bidding_outcome(deal: Deal, bids: list[tuple[int, str]], options: Any, ruleset: _Ruleset) -> BiddingOutcome:
    """``ruleset.check_bidding`` of the bids, remembered when it finds no error: the players' names reach only
    the errors' sentences, so an error-free outcome is the same at any table of that size."""
    key = (deal.ruleset, tuple(bids), deal.n_players, id(options))
    known = _BIDDINGS.get(key)
    if known is not None and known[0] is options:
        return known[1]
    result = ruleset.check_bidding(bids, deal.n_players, options, deal.players)
    if not result.errors:
        if len(_BIDDINGS) >= _BIDDINGS_LIMIT:
            _BIDDINGS.clear()
        _BIDDINGS[key] = (options, result)
    return result


def _check_bidding(table: Table, ruleset: _Ruleset) -> None:
    deal, contract = table.deal, table.contract
    bids = [(deal.seat(p), b) for p, b in deal.bidding or ()]
    result = _bidding_outcome(deal, bids, table.options, ruleset)
    for _, seat, message in result.errors:
        table.report("E_BID", message, deal.players[seat])
    if result.errors:
        return
    if result.contract is None:
        table.report("E_BID", "the bidding is incomplete: nobody won it")
        return
    won = ruleset.contracts[result.contract]
    if won.name != contract.name:
        who = "everyone passing" if result.declarer is None else f"{_names(deal, result.declarers)}'s bid"
        table.report("E_BID", f"the bidding ends with {who} ({won.label}) but the record plays {contract.label}")
    elif contract.has_declarer and result.declarers != table.declarers:
        table.report("E_BID", f"the bidding was won by {_names(deal, result.declarers)}, "
                              f"but the record names {_names(deal, table.declarers)} as declarer")


def _names(deal: Deal, seats: tuple[int, ...]) -> str:
    return " and ".join(deal.players[s] for s in seats) or deal.players[0]


# -- king --------------------------------------------------------------------
def _king(table: Table, ruleset: _Ruleset) -> None:
    """The called king, the partner's seat and whether the king lies in the talon."""
    deal, contract, declarer = table.deal, table.contract, table.declarer
    king = deal.called_king
    calls = contract.calls_king and deal.n_players == 4
    if not calls:
        if king is not None:
            table.report("E_KING", f"no king is called in {contract.label}"
                         + (" with 3 players" if contract.calls_king else ""), card=king)
        return
    assert declarer is not None
    who = deal.players[declarer]
    if king is None:
        table.report("E_KING", f"{who} plays {contract.label} but the record calls no king", who)
        return
    if not slovenian.valid_king_call(king):
        table.report("E_KING", f"{who} called {CODES[king]}, which is not a king", who, king)
        return
    table.called_king = king
    own_kings = table.hands[declarer] & KINGS_MASK
    if ruleset.austrian_king_call and own_kings == KINGS_MASK:
        table.report("E_KING", f"{who} holds all four kings and has no king to call in {contract.label}", who, king)
        return
    for seat, h in enumerate(table.hands):
        if h >> king & 1:
            if seat == declarer and ruleset.austrian_king_call:
                fourth = KINGS_MASK & ~own_kings
                hint = f"; holding three kings, {who} had to call the fourth, {CODES[fourth.bit_length() - 1]}" \
                    if fourth.bit_count() == 1 else ""
                table.report("R_OWN_KING", f"{who} called {CODES[king]}, a king {who} holds{hint}", who, king)
            table.partner = None if seat == declarer else seat
            return
    table.king_in_talon = True


# -- talon and stash -----------------------------------------------------------
def _talon_and_stash(table: Table, ruleset: _Ruleset) -> None:
    """Check the talon pick and the stash; sets ``table.pick`` / ``table.stash`` and the declarer's play hand."""
    deal, contract, declarer, talon = table.deal, table.contract, table.declarer, table.talon
    group = contract.talon_group
    if not group or declarer is None:
        if deal.talon_pick:
            table.report("E_TALON", f"nobody takes talon cards in {contract.label}", card=deal.talon_pick[0])
        if deal.stash:
            table.report("E_TALON", f"nobody lays cards away in {contract.label}", card=deal.stash[0])
        return
    who = deal.players[declarer]
    hand = table.hands[declarer]
    played = _played_by(deal, table.seats, declarer)
    pick = mask_of(deal.talon_pick) if deal.talon_pick is not None else None
    tmask = mask_of(talon) if talon is not None else 0
    if pick is None:
        pick = (played | mask_of(deal.stash or ())) & ~hand & tmask
    if deal.talon_pick is not None and len(deal.talon_pick) != pick.bit_count():
        table.report("E_TALON", f"{who} took the same talon card twice", who)
    if pick & ~tmask:
        bad = ((pick & ~tmask) & -(pick & ~tmask)).bit_length() - 1
        table.report("E_TALON", f"{who} took {CODES[bad]} from the talon, but it is not in the talon", who, bad)
    elif talon is not None:
        groups = [mask_of(talon[i:i + group]) for i in range(0, TALON_SIZE, group)]
        if pick not in groups:
            taken = " ".join(CODES[c] for c in range(54) if pick >> c & 1) or "nothing"
            table.report("E_TALON", f"in {contract.label} {who} must take one group of {group} from the talon, "
                                    f"not {taken}", who)
        elif ruleset.austrian_king_call and table.king_in_talon and not pick >> (table.called_king or 0) & 1:
            table.report("E_TALON", f"{who} must take the half of the talon holding the called king "
                                    f"{CODES[table.called_king or 0]}", who)
    after_pick = hand | pick
    if deal.stash is not None:
        stash_cards = deal.stash
    else:
        stash_cards = tuple(c for c in range(54) if (after_pick & ~played) >> c & 1)
    stash = mask_of(stash_cards)
    k = pick.bit_count()
    if len(stash_cards) != k:
        table.report("R_STASH", f"{who} laid away {len(stash_cards)} cards after taking {k}", who)
    taroks_first = ruleset.taroks_first(contract, table.options)
    for card in stash_cards:
        bit = 1 << card
        if not after_pick & bit:
            table.report("E_NOT_IN_HAND", f"{who} laid away {CODES[card]}, which was not in the hand", who, card)
            continue
        if bit & KINGS_MASK:
            table.report("R_STASH", f"{who} laid away the king {CODES[card]}; kings may not be laid away", who, card)
        elif bit & TRULA_MASK:
            table.report("R_STASH", f"{who} laid away {CODES[card]}; Pagat, Mond and Škis may not be laid away",
                         who, card)
        elif bit & TAROK_MASK and not taroks_first:
            spare = after_pick & PLAIN_MASK & ~KINGS_MASK & ~stash
            if spare:
                example = CODES[(spare & -spare).bit_length() - 1]
                table.report("R_STASH", f"{who} laid away the tarok {CODES[card]} while still holding the suit "
                                        f"card {example}", who, card)
        elif bit & PLAIN_MASK and taroks_first:
            spare = after_pick & TAROK_MASK & ~TRULA_MASK & ~stash
            if spare:
                example = CODES[(spare & -spare).bit_length() - 1]
                table.report("R_STASH", f"{who} laid away the suit card {CODES[card]} while still holding the "
                                        f"tarok {example}; in {contract.label} taroks are laid away first", who, card)
    table.play_hands[declarer] = after_pick & ~stash
    table.pick = pick
    table.stash = stash


def _played_by(deal: Deal, seats: list[list[int]], seat: int) -> int:
    """Cards the record shows ``seat`` playing."""
    kernel = accel.KERNEL
    if kernel is not None:
        fast = kernel.played_by(deal.tricks, seats, seat)
        if fast is not None:
            return fast
    mask = 0
    for cards, who in zip(deal.tricks, seats):
        for card, s in zip(cards, who):
            if s == seat:
                mask |= 1 << card
    return mask


def _seats(deal: Deal, ruleset: _Ruleset, contract: Any, options: Any, leader: int,
           demotions: events.Demotions | None = None) -> list[list[int]]:
    """Who played each recorded card: the named player, else turn order from the trick winners
    (skipping a player whose card is missing in a trick one card short; table events demoting a card)."""
    n = deal.n_players
    trumps, emperor = ruleset.winning(contract, options)
    kernel = accel.KERNEL
    if kernel is not None and demotions is None and accel.accepts_replay(options):
        names = deal.trick_players
        fast = kernel.seats(deal.tricks, n, leader, trumps, emperor, names if any(names) else None, deal.players)
        if fast is not None:
            return fast[0]
    out: list[list[int]] = []
    for t, cards in enumerate(deal.tricks):
        named = deal.trick_players[t]
        if named is not None:
            seats = [deal.seat(p) for p in named]
        else:
            order = [(leader + i) % n for i in range(n)]
            if demotions is not None and len(cards) == n - 1:
                order = [s for s in order if s not in {m for m, _ in demotions.missing}] + order
            seats = order[:len(cards)]
        out.append(seats)
        if len(cards) == n:
            pos = trick_winner(cards, trumps, emperor)
            if demotions is not None:
                weak = demotions.weak(t + 1, cards, seats)
                if weak:
                    pos = events.resolve(cards, weak, trumps, emperor)
            leader = seats[pos]
    return out


# -- play --------------------------------------------------------------------
def _play(table: Table, ruleset: _Ruleset, game: Game) -> int | None:
    """Play every recorded card; returns the trick that decided the contract early, if any."""
    deal = table.deal
    n = deal.n_players
    total_tricks = ruleset.cards_per_hand[n]
    decided = ruleset.decider(table) if table.declarers else None
    if table.demotions is None and _play_fast(table, game, total_tricks, decided):
        return None if decided is None else _decided_at(game, decided)
    decided_at: int | None = None
    for t, cards in enumerate(deal.tricks):
        if t >= total_tricks:
            table.report("E_SEQUENCE", f"the record has {len(deal.tricks)} tricks; only {total_tricks} can be "
                                       "played", trick=t + 1)
            break
        missing = _missing_card(table, game, cards, t == total_tricks - 1)
        complete = len(cards) + (missing is not None) == n
        if not complete:
            table.report("E_SEQUENCE", f"trick {t + 1} has {len(cards)} cards instead of {n}", trick=t + 1)
        names = deal.trick_players[t]
        if names is not None:
            seats = [deal.seat(p) for p in names]
            if len(set(seats)) != len(seats):
                table.report("E_SEQUENCE", f"a player plays twice in trick {t + 1}", trick=t + 1)
                break
            if missing is not None:
                _play_with_missing(game, list(zip(cards, seats)), missing)
            else:
                for card, seat in zip(cards, seats):
                    game.play(card, seat)
        elif missing is not None:
            _play_with_missing(game, [(card, None) for card in cards], missing)
        else:
            for card in cards:
                game.play(card)
        if not complete:
            break
        if decided is not None and decided_at is None and decided(game):
            decided_at = t + 1
    played = len(game.tricks)
    if played < total_tricks and not game.trick_in_progress:
        claimed = deal.claim is not None and deal.claim.after_trick == played
        if decided_at is None and not claimed:
            table.report("E_SEQUENCE", f"the record stops after trick {played} of {total_tricks}",
                         trick=played + 1 if played < total_tricks else None)
    return decided_at


def _play_fast(table: Table, game: Game, total_tricks: int, decided: Callable[[Game], bool] | None) -> bool:
    """Play the whole record at once on the accelerator (``tarock.accel``), when it can vouch for it:
    every trick complete and played in turn from the hands with legal cards, and a record stopping
    early only after the contract was decided.  False: nothing was played, and the reference engine
    plays the record card by card."""
    kernel = accel.KERNEL
    if kernel is None or (len(table.deal.tricks) < total_tricks and decided is None) \
            or not accel.accepts_replay(game.options):  # options it does not declare: tarock.accel.declared
        return False
    result = kernel.play(game.hands, table.deal.tricks, table.seats, game.turn, total_tricks,
                         accel.play_rules(*game.kernel_rules))
    if result is None:
        return False
    tricks = table.deal.tricks
    if len(tricks) < total_tricks:
        assert decided is not None
        game.tricks, game.winners = list(tricks), result[0]
        stopped_after_decision = _decided_at(game, decided) is not None
        game.tricks, game.winners = [], []
        if not stopped_after_decision:
            return False
    game.finish_all(tricks, [tuple(s) for s in table.seats], *result)
    return True


def _decided_at(game: Game, decided: Callable[[Game], bool]) -> int | None:
    """The first trick after which ``decided`` holds, asked of the game as it stood after each trick
    (the deciders read the tricks and their winners)."""
    tricks, winners = game.tricks, game.winners
    try:
        for t in range(1, len(winners) + 1):
            game.tricks, game.winners = tricks[:t], winners[:t]
            if decided(game):
                return t
        return None
    finally:
        game.tricks, game.winners = tricks, winners


def _missing_card(table: Table, game: Game, cards: tuple[int, ...], last: bool) -> tuple[int, int] | None:
    """(seat, card) of a ``missing_card`` event that explains a last trick one card short: the player's
    only card left is the missing one (docs/penalties.md, "Table events"; ``tarock.rules.events``)."""
    demotions = table.demotions
    if demotions is None or not demotions.missing or not last or len(cards) != table.deal.n_players - 1:
        return None
    for seat, card in demotions.missing:
        if game.hands[seat] == 1 << card:
            return seat, card
    return None


def _play_with_missing(game: Game, plays: list[tuple[int, int | None]], missing: tuple[int, int]) -> None:
    """Play a trick one card short, putting the missing card in at its player's turn."""
    seat, card = missing
    named = plays[0][1] is not None if plays else False
    done = False
    for c, s in plays:
        if not done and game.turn == seat:
            game.play(card, seat if named else None)
            done = True
        game.play(c, s)
    if not done:
        game.play(card, seat)
