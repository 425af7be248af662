"""Replay a recorded deal through the ``slovenian`` rules and collect every finding.

``replay(deal)`` walks the phases in order (deal, bidding, king call, talon,
stash, announcements, trick play), never raises on a rule violation, and
returns a ``Replay``: the tricks with their winners, card points per side,
the findings in deal order, and the ``DealFacts`` scoring needs.  Loading a
record *is* replaying it (PokerKit's idea).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from tarock.cards import (
    CARD_BIT,
    CARD_POINTS,
    CODES,
    FULL_DECK,
    KINGS_MASK,
    MOND,
    PAGAT,
    PLAIN_MASK,
    SKIS,
    TAROK_MASK,
    TRULA_MASK,
    counted_points,
    mask_of,
)
from tarock.deal import Deal
from tarock.facts import DECLARER, OPPONENTS, DealFacts, Side
from tarock.findings import Finding, status_of
from tarock.game import Game, Phase
from tarock.options import OptionError, SlovenianOptions, slovenian_options
from tarock.slovenian import (
    CARDS_PER_HAND,
    CONTRACTS,
    TALON_SIZE,
    Contract,
    allowed_contract,
    check_bidding,
    trick_winner,
    valid_king_call,
)

KONTRA_TARGETS = ("game", "pagat_ultimo", "king_ultimo", "valat", "mondfang")
_KONTRA_NAMES = {2: "kontra", 4: "re", 8: "sub", 16: "mord"}


@dataclass(slots=True)
class Replay:
    """Everything a replay established about one deal.

    ``facts`` is None when the deal has an ``error`` finding (it cannot be
    scored).  ``card_points`` is ``{"declarer_side": …, "opponents": …}``
    or, in Klop, one entry per player.
    """

    deal: Deal
    options: SlovenianOptions | None
    findings: list[Finding]
    contract: str
    declarer: int | None = None
    partner: int | None = None
    hands: list[int] | None = None
    talon: tuple[int, ...] | None = None
    tricks: list[tuple[int, ...]] = field(default_factory=list)
    trick_seats: list[tuple[int, ...]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    card_points: dict[str, int] | None = None
    facts: DealFacts | None = None

    @property
    def status(self) -> str:
        return status_of(self.findings)

    def player(self, seat: int | None) -> str | None:
        return None if seat is None else self.deal.players[seat]

    def trick_leaders(self) -> list[int]:
        return [seats[0] for seats in self.trick_seats]


class _Abort(Exception):
    """The deal cannot be replayed further (an error that leaves nothing to check)."""


def replay(deal: Deal, overrides: Mapping[str, Any] | None = None) -> Replay:
    """Replay ``deal`` card by card; every rule broken becomes a finding."""
    findings: list[Finding] = []
    out = Replay(deal, None, findings, deal.contract)
    try:
        _replay(deal, overrides, out)
    except _Abort:
        pass
    out.findings.sort(key=_order)
    return out


def _order(f: Finding) -> tuple[int, int, int]:
    if f.trick is None:
        return (0, 0, 0)
    return (1, f.trick, f.position if f.position is not None else -1)


def _err(out: Replay, code: str, message: str, player: str | None = None, card: int | None = None,
         trick: int | None = None, position: int | None = None) -> None:
    out.findings.append(Finding(code, message, trick, position, player,
                                None if card is None else CODES[card]))


def _replay(deal: Deal, overrides: Mapping[str, Any] | None, out: Replay) -> None:
    if deal.ruleset != "slovenian":
        _err(out, "E_PARSE", f"ruleset {deal.ruleset} is not supported by this engine yet")
        raise _Abort
    try:
        options = slovenian_options(deal.options, overrides)
    except OptionError as exc:
        _err(out, "E_PARSE", str(exc))
        raise _Abort from None
    out.options = options
    n = deal.n_players
    if n not in CARDS_PER_HAND:
        _err(out, "E_PARSE", f"slovenian is played by 3 or 4 players, not {n}")
        raise _Abort
    contract = CONTRACTS.get(deal.contract)
    if contract is None:
        _err(out, "E_PARSE", f"{deal.contract} is not a slovenian contract")
        raise _Abort
    if not allowed_contract(contract, n):
        _err(out, "E_BID", f"{contract.label} is not played with 3 players")
    declarer = _declarer(deal, contract, out)
    out.declarer = declarer
    seats = _seats(deal, contract, declarer, options)
    hands, talon = _hands(deal, contract, declarer, seats, out)
    out.hands = list(hands)
    out.talon = talon
    _check_misdeal(deal, hands, out)
    if deal.bidding is not None:
        _check_bidding(deal, contract, declarer, options, out)
    called_king, partner, king_in_talon = _king(deal, contract, declarer, hands, talon, out)
    out.partner = partner
    play_hands = list(hands)
    pick_mask, stash = _talon_and_stash(deal, contract, declarer, hands, talon, play_hands, seats, out)
    announced, kontra = _announcements(deal, contract, declarer, partner, called_king, play_hands, out)
    leader = declarer if contract.declarer_leads and declarer is not None else 0
    game = Game(deal.players, play_hands, contract, options, leader)
    game.phase = Phase.PLAY
    decided_at = _play(deal, game, contract, declarer, out)
    out.tricks = game.tricks
    out.trick_seats = game.trick_seats
    out.winners = game.winners
    out.findings.extend(game.findings)
    _outcome(deal, game, contract, options, declarer, partner, called_king, king_in_talon, talon,
             pick_mask, stash, announced, kontra, decided_at, out)


# -- deal ------------------------------------------------------------------
def _declarer(deal: Deal, contract: Contract, out: Replay) -> int | None:
    given = deal.declarer
    if isinstance(given, tuple):
        _err(out, "E_PARSE", "slovenian has one declarer, but the record lists several")
        raise _Abort
    if contract.is_klop:
        if given is not None and deal.seat(given) != 0:
            _err(out, "E_BID", f"Klop has no declarer, and only forehand ({deal.players[0]}) may name it, "
                               f"not {given}")
        return None
    if given is not None:
        return deal.seat(given)
    if deal.bidding:
        outcome = check_bidding([(deal.seat(p), b) for p, b in deal.bidding], deal.n_players,
                                slovenian_options(deal.options), deal.players)
        if outcome.declarer is not None:
            return outcome.declarer
    _err(out, "E_BID", f"the record plays {contract.label} but names no declarer")
    raise _Abort


def _hands(deal: Deal, contract: Contract, declarer: int | None, seats: list[list[int]],
           out: Replay) -> tuple[list[int], tuple[int, ...] | None]:
    """Initial hands as masks (given, or inferred from the play) and the talon in dealt order."""
    n = deal.n_players
    per_hand = CARDS_PER_HAND[n]
    talon = deal.talon
    if deal.hands is not None:
        hands = []
        seen = 0
        for seat, cards in enumerate(deal.hands):
            mask = mask_of(cards)
            if mask.bit_count() != len(cards) or mask & seen:
                dup = _duplicate(cards, seen)
                first = next((deal.players[s] for s, h in enumerate(hands) if h >> dup & 1), deal.players[seat])
                _err(out, "E_DECK", f"{CODES[dup]} is dealt twice: to {first} and to {deal.players[seat]}",
                     deal.players[seat], dup)
                raise _Abort
            seen |= mask
            if len(cards) != per_hand:
                _err(out, "E_DECK", f"{deal.players[seat]} was dealt {len(cards)} cards, not {per_hand}",
                     deal.players[seat])
                raise _Abort
            hands.append(mask)
        rest = FULL_DECK & ~seen
        if talon is not None:
            _check_talon(talon, seen, out)
        elif rest.bit_count() == TALON_SIZE:
            talon = tuple(c for c in range(54) if rest >> c & 1)
        return hands, talon
    return _infer_hands(deal, contract, declarer, seats, out)


def _duplicate(cards: tuple[int, ...], seen: int) -> int:
    for c in cards:
        if seen >> c & 1:
            return c
        seen |= 1 << c
    return cards[0]


def _check_talon(talon: tuple[int, ...], hands_mask: int, out: Replay) -> None:
    tmask = mask_of(talon)
    if len(talon) != TALON_SIZE or tmask.bit_count() != len(talon):
        _err(out, "E_DECK", f"the talon must hold 6 different cards, not {len(talon)}")
        raise _Abort
    if tmask & hands_mask:
        dup = (tmask & hands_mask & -(tmask & hands_mask)).bit_length() - 1
        _err(out, "E_DECK", f"{CODES[dup]} is both in a hand and in the talon", card=dup)
        raise _Abort


def _infer_hands(deal: Deal, contract: Contract, declarer: int | None, seats: list[list[int]],
                 out: Replay) -> tuple[list[int], tuple[int, ...] | None]:
    """Hands rebuilt from who played what, plus the declarer's stash minus the talon pick."""
    n = deal.n_players
    per_hand = CARDS_PER_HAND[n]
    hands = [0] * n
    for t, (cards, who) in enumerate(zip(deal.tricks, seats)):
        for pos, card in enumerate(cards):
            bit = CARD_BIT[card]
            if any(h & bit for h in hands):
                _err(out, "E_DECK", f"{CODES[card]} is played twice", deal.players[who[pos]], card, t + 1, pos)
                raise _Abort
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
            _err(out, "E_DECK", f"the record has no hands and {deal.players[seat]}'s cannot be rebuilt from "
                                f"the play: {h.bit_count()} cards instead of {per_hand}", deal.players[seat])
            raise _Abort
    rest = FULL_DECK & ~seen
    if talon is None:
        if rest.bit_count() != TALON_SIZE:
            _err(out, "E_DECK", "the talon cannot be rebuilt from the play")
            raise _Abort
        talon = tuple(c for c in range(54) if rest >> c & 1)
        if contract.talon_group and contract.talon_group < 3 or contract.is_klop:
            _err(out, "E_DECK", f"{contract.label} needs the talon in dealt order, and the record has none")
            raise _Abort
    return hands, talon


def _check_misdeal(deal: Deal, hands: list[int], out: Replay) -> None:
    for seat, h in enumerate(hands):
        if not h & TAROK_MASK:
            _err(out, "W_MISDEAL", f"{deal.players[seat]} was dealt no tarok, which calls for a redeal",
                 deal.players[seat])


# -- bidding -----------------------------------------------------------------
def _check_bidding(deal: Deal, contract: Contract, declarer: int | None, options: SlovenianOptions,
                   out: Replay) -> None:
    bids = [(deal.seat(p), b) for p, b in deal.bidding or ()]
    result = check_bidding(bids, deal.n_players, options, deal.players)
    for _, seat, message in result.errors:
        _err(out, "E_BID", message, deal.players[seat])
    if result.errors:
        return
    if result.contract is None:
        _err(out, "E_BID", "the bidding is incomplete: nobody won it")
        return
    won = CONTRACTS[result.contract]
    if won.name != contract.name:
        who = "everyone passing" if result.declarer is None else f"{deal.players[result.declarer]}'s bid"
        _err(out, "E_BID", f"the bidding ends with {who} ({won.label}) but the record plays {contract.label}")
    elif not contract.is_klop and result.declarer != declarer:
        _err(out, "E_BID", f"the bidding was won by {deal.players[result.declarer or 0]}, "
                           f"but the record names {deal.players[declarer or 0]} as declarer")


# -- king --------------------------------------------------------------------
def _king(deal: Deal, contract: Contract, declarer: int | None, hands: list[int],
          talon: tuple[int, ...] | None, out: Replay) -> tuple[int | None, int | None, bool]:
    """The called king, the partner's seat and whether the king lies in the talon."""
    king = deal.called_king
    calls = contract.calls_king and deal.n_players == 4
    if not calls:
        if king is not None:
            _err(out, "E_KING", f"no king is called in {contract.label}"
                 + (" with 3 players" if contract.calls_king else ""), card=king)
        return None, None, False
    assert declarer is not None
    if king is None:
        _err(out, "E_KING", f"{deal.players[declarer]} plays {contract.label} but the record calls no king",
             deal.players[declarer])
        return None, None, False
    if not valid_king_call(king):
        _err(out, "E_KING", f"{deal.players[declarer]} called {CODES[king]}, which is not a king",
             deal.players[declarer], king)
        return None, None, False
    for seat, h in enumerate(hands):
        if h >> king & 1:
            return king, (None if seat == declarer else seat), False
    return king, None, True


# -- talon and stash -----------------------------------------------------------
def _talon_and_stash(deal: Deal, contract: Contract, declarer: int | None, hands: list[int],
                     talon: tuple[int, ...] | None, play_hands: list[int], seats: list[list[int]],
                     out: Replay) -> tuple[int, int]:
    """Check the talon pick and the stash; returns (picked cards, stashed cards) as masks."""
    group = contract.talon_group
    if not group or declarer is None:
        if deal.talon_pick:
            _err(out, "E_TALON", f"nobody takes talon cards in {contract.label}", card=deal.talon_pick[0])
        if deal.stash:
            _err(out, "E_TALON", f"nobody lays cards away in {contract.label}", card=deal.stash[0])
        return 0, 0
    who = deal.players[declarer]
    hand = hands[declarer]
    played = _played_by(deal, seats, declarer)
    pick = mask_of(deal.talon_pick) if deal.talon_pick is not None else None
    tmask = mask_of(talon) if talon is not None else 0
    if pick is None:
        pick = (played | mask_of(deal.stash or ())) & ~hand & tmask
    if deal.talon_pick is not None and len(deal.talon_pick) != pick.bit_count():
        _err(out, "E_TALON", f"{who} took the same talon card twice", who)
    if pick & ~tmask:
        bad = ((pick & ~tmask) & -(pick & ~tmask)).bit_length() - 1
        _err(out, "E_TALON", f"{who} took {CODES[bad]} from the talon, but it is not in the talon", who, bad)
    elif talon is not None:
        groups = [mask_of(talon[i:i + group]) for i in range(0, TALON_SIZE, group)]
        if pick not in groups:
            _err(out, "E_TALON", f"in {contract.label} {who} must take one group of {group} from the talon, "
                                 f"not {' '.join(CODES[c] for c in range(54) if pick >> c & 1) or 'nothing'}", who)
    after_pick = hand | pick
    if deal.stash is not None:
        stash_cards = deal.stash
    else:
        stash_cards = tuple(c for c in range(54) if (after_pick & ~played) >> c & 1)
    stash = mask_of(stash_cards)
    k = pick.bit_count()
    if len(stash_cards) != k:
        _err(out, "R_STASH", f"{who} laid away {len(stash_cards)} cards after taking {k}", who)
    for card in stash_cards:
        bit = 1 << card
        if not after_pick & bit:
            _err(out, "E_NOT_IN_HAND", f"{who} laid away {CODES[card]}, which was not in the hand", who, card)
            continue
        if bit & KINGS_MASK:
            _err(out, "R_STASH", f"{who} laid away the king {CODES[card]}; kings may not be laid away", who, card)
        elif bit & TRULA_MASK:
            _err(out, "R_STASH", f"{who} laid away {CODES[card]}; Pagat, Mond and Škis may not be laid away",
                 who, card)
        elif bit & TAROK_MASK:
            spare = after_pick & PLAIN_MASK & ~KINGS_MASK & ~stash
            if spare:
                example = CODES[(spare & -spare).bit_length() - 1]
                _err(out, "R_STASH", f"{who} laid away the tarok {CODES[card]} while still holding the suit "
                                     f"card {example}", who, card)
    play_hands[declarer] = after_pick & ~stash
    return pick, stash


def _played_by(deal: Deal, seats: list[list[int]], seat: int) -> int:
    """Cards the record shows ``seat`` playing."""
    mask = 0
    for cards, who in zip(deal.tricks, seats):
        for card, s in zip(cards, who):
            if s == seat:
                mask |= 1 << card
    return mask


def _seats(deal: Deal, contract: Contract, declarer: int | None, options: SlovenianOptions) -> list[list[int]]:
    """Who played each recorded card: the named player, else turn order from the trick winners."""
    n = deal.n_players
    leader = declarer if contract.declarer_leads and declarer is not None else 0
    out: list[list[int]] = []
    for t, cards in enumerate(deal.tricks):
        names = deal.trick_players[t]
        if names is not None:
            seats = [deal.seat(p) for p in names]
        else:
            seats = [(leader + i) % n for i in range(len(cards))]
        out.append(seats)
        if len(cards) == n:
            leader = seats[trick_winner(cards, contract, options)]
    return out


# -- announcements -----------------------------------------------------------
def _announcements(deal: Deal, contract: Contract, declarer: int | None, partner: int | None,
                   called_king: int | None, hands: list[int], out: Replay
                   ) -> tuple[list[tuple[str, Side]], dict[str, int]]:
    announced: dict[str, Side] = {}
    kontra: dict[str, int] = {}
    side_of_target: dict[str, Side] = {"game": DECLARER}
    for a in deal.announcements:
        seat = deal.seat(a.player)
        side: Side = DECLARER if seat in (declarer, partner) else OPPONENTS
        if a.bonus is not None:
            reason = _bonus_problem(a.bonus, side, seat, contract, declarer, called_king, hands, deal)
            if reason is None and a.bonus in announced:
                reason = f"{a.bonus.replace('_', ' ')} was already announced"
            if reason:
                _err(out, "E_ANNOUNCE", f"{a.player} announced {a.bonus.replace('_', ' ')}, but {reason}", a.player)
                continue
            announced[a.bonus] = side
            side_of_target[a.bonus] = side
            continue
        target = a.kontra or "game"
        level = a.level or 2
        reason = None
        if contract.is_klop:
            reason = "there is no kontra in Klop"
        elif target not in KONTRA_TARGETS:
            reason = f"{target.replace('_', ' ')} cannot be kontra'd"
        elif target not in side_of_target:
            reason = f"{target.replace('_', ' ')} was not announced"
        else:
            current = kontra.get(target, 1)
            owner = side_of_target[target]
            by_owner = level in (4, 16)
            if level != current * 2:
                reason = f"the next step on {target.replace('_', ' ')} is ×{current * 2}, not ×{level}"
            elif (side == owner) != by_owner:
                reason = f"{_KONTRA_NAMES.get(level, level)} must come from the other side"
        if reason:
            _err(out, "E_ANNOUNCE", f"{a.player} said kontra ×{level} on {target.replace('_', ' ')}, but {reason}",
                 a.player)
            continue
        kontra[target] = level
    return list(announced.items()), kontra


def _bonus_problem(bonus: str, side: Side, seat: int, contract: Contract, declarer: int | None,
                   called_king: int | None, hands: list[int], deal: Deal) -> str | None:
    if not contract.bonuses:
        return f"bonuses are not announced in {contract.label}"
    if bonus == "mondfang":
        return None if side == OPPONENTS else "only the defenders announce Mondfang"
    if bonus == "valat":
        return None if side == DECLARER else "only the declarer's side announces valat"
    if bonus == "pagat_ultimo":
        return None if hands[seat] >> PAGAT & 1 else "only the Pagat's holder announces pagat ultimo"
    if bonus == "king_ultimo":
        if called_king is None:
            return "no king was called"
        if side != DECLARER or not (seat == declarer or hands[seat] >> called_king & 1):
            return "only the declarer or the called king's holder announces king ultimo"
    return None


# -- play --------------------------------------------------------------------
def _play(deal: Deal, game: Game, contract: Contract, declarer: int | None, out: Replay) -> int | None:
    """Play every recorded card; returns the trick that decided a Berač or valat early, if any."""
    n = deal.n_players
    total_tricks = CARDS_PER_HAND[n]
    decided_at: int | None = None
    for t, cards in enumerate(deal.tricks):
        if t >= total_tricks:
            _err(out, "E_SEQUENCE", f"the record has {len(deal.tricks)} tricks; only {total_tricks} can be played",
                 trick=t + 1)
            break
        if len(cards) != n:
            _err(out, "E_SEQUENCE", f"trick {t + 1} has {len(cards)} cards instead of {n}", trick=t + 1)
        names = deal.trick_players[t]
        if names is not None:
            seats = [deal.seat(p) for p in names]
            if len(set(seats)) != len(seats):
                _err(out, "E_SEQUENCE", f"a player plays twice in trick {t + 1}", trick=t + 1)
                break
            for card, seat in zip(cards, seats):
                game.play(card, seat)
        else:
            for card in cards:
                game.play(card)
        if len(cards) != n:
            break
        if decided_at is None and declarer is not None:
            winner = game.winners[-1]
            if contract.is_beggar and winner == declarer:
                decided_at = t + 1
            elif contract.is_valat and winner != declarer:
                decided_at = t + 1
    played = len(game.tricks)
    if played < total_tricks and not game.trick_in_progress:
        claimed = deal.claim is not None and deal.claim.after_trick == played
        if decided_at is None and not claimed:
            _err(out, "E_SEQUENCE", f"the record stops after trick {played} of {total_tricks}",
                 trick=played + 1 if played < total_tricks else None)
    return decided_at


# -- outcome -----------------------------------------------------------------
def _outcome(deal: Deal, game: Game, contract: Contract, options: SlovenianOptions, declarer: int | None,
             partner: int | None, called_king: int | None, king_in_talon: bool,
             talon: tuple[int, ...] | None, pick: int, stash: int,
             announced: list[tuple[str, Side]], kontra: dict[str, int], decided_at: int | None,
             out: Replay) -> None:
    """Card points, and the facts scoring needs, from the finished play."""
    n = deal.n_players
    players = deal.players
    tmask = mask_of(talon) if talon is not None else 0
    piles = list(game.piles)
    if contract.is_klop:
        if talon is not None:
            for i, card in enumerate(talon[:len(game.winners)]):
                piles[game.winners[i]] |= 1 << card
        out.card_points = {players[s]: counted_points(piles[s]) for s in range(n)}
        klop_points = tuple(counted_points(p) for p in piles)
        klop_tricks = tuple(game.tricks_taken(s) for s in range(n))
        offenders = _offenders(out, deal)
        if out.status != "error":
            out.facts = DealFacts(players, contract.name, options=options, klop_points=klop_points,
                                  klop_tricks=klop_tricks, offenders=offenders)
        return
    assert declarer is not None
    side_seats = {declarer} if partner is None else {declarer, partner}
    declarer_pile = 0
    opp_pile = 0
    for s in range(n):
        if s in side_seats:
            declarer_pile |= piles[s]
        else:
            opp_pile |= piles[s]
    declarer_pile |= stash
    unchosen = tmask & ~pick
    brought_home = False
    if king_in_talon and called_king is not None and pick >> called_king & 1:
        for cards, seats, w in zip(game.tricks, game.trick_seats, game.winners):
            if called_king in cards and w == declarer and seats[cards.index(called_king)] == declarer:
                brought_home = True
                break
    if contract.talon_group and brought_home:
        declarer_pile |= unchosen
    else:
        opp_pile |= unchosen
    if deal.claim is not None and len(game.tricks) == deal.claim.after_trick:
        rest = game.unplayed()
        if deal.seat(deal.claim.player) in side_seats:
            declarer_pile |= rest
        else:
            opp_pile |= rest
    dp = counted_points(declarer_pile)
    op = counted_points(opp_pile)
    out.card_points = {"declarer_side": dp, "opponents": op}
    side = {s: (DECLARER if s in side_seats else OPPONENTS) for s in range(n)}
    full = len(game.tricks) == CARDS_PER_HAND[n]
    valat_side: Side | None = None
    if game.winners and full:
        sides = {side[w] for w in game.winners}
        if len(sides) == 1:
            valat_side = sides.pop()
    trula_side = _holder_side(TRULA_MASK, declarer_pile, opp_pile)
    kings_side = _holder_side(KINGS_MASK, declarer_pile, opp_pile)
    pagat_last = None
    king_last = None
    if full:
        last_cards, last_seats, last_w = game.tricks[-1], game.trick_seats[-1], game.winners[-1]
        if PAGAT in last_cards:
            pos = last_cards.index(PAGAT)
            pagat_last = (side[last_seats[pos]], last_seats[pos] == last_w and _wins_with(last_cards, pos, contract, options))
        if called_king is not None and called_king in last_cards:
            king_last = side[last_w]
    mondfang = _mondfang(game, contract, options, declarer, side, unchosen, brought_home)
    lost_trick = any(w not in side_seats for w in game.winners)
    offenders = _offenders(out, deal)
    if out.status == "error":
        return
    out.facts = DealFacts(
        players, contract.name, declarer, partner, options, (dp, op),
        declarer_took_trick=contract.is_beggar and any(w == declarer for w in game.winners),
        declarer_lost_trick=contract.is_valat and lost_trick,
        valat_side=valat_side if not contract.is_valat else (None if lost_trick else DECLARER),
        trula_side=trula_side, kings_side=kings_side, pagat_last=pagat_last, king_last=king_last,
        mondfang=mondfang, announced=tuple(announced), kontra=dict(kontra), offenders=offenders,
        decided_early=decided_at if decided_at is not None and decided_at < CARDS_PER_HAND[n] else None,
    )


def _wins_with(cards: tuple[int, ...], pos: int, contract: Contract, options: SlovenianOptions) -> bool:
    return trick_winner(cards, contract, options) == pos


def _holder_side(target: int, declarer_pile: int, opp_pile: int) -> Side | None:
    if declarer_pile & target == target:
        return DECLARER
    if opp_pile & target == target:
        return OPPONENTS
    return None


def _mondfang(game: Game, contract: Contract, options: SlovenianOptions, declarer: int,
              side: dict[int, Side], unchosen: int, brought_home: bool) -> tuple[int, ...]:
    if not (contract.normal or contract.name == "solo_brez"):
        return ()
    payers: list[int] = []
    for cards, seats, w in zip(game.tricks, game.trick_seats, game.winners):
        if MOND in cards:
            owner = seats[cards.index(MOND)]
            win_card = cards[seats.index(w)] if w in seats else -1
            captured = win_card in (SKIS, PAGAT)
            if captured and (options.mondfang_any_side or side[w] != side[owner]):
                payers.append(owner)
            break
    if contract.normal and unchosen >> MOND & 1 and not brought_home:
        payers.append(declarer)
    return tuple(payers)


def _offenders(out: Replay, deal: Deal) -> tuple[int, ...]:
    seats = []
    for f in out.findings:
        if f.severity == "renons" and f.player is not None:
            s = deal.seat(f.player)
            if s not in seats:
                seats.append(s)
    return tuple(seats)
