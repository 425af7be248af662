"""The ``koenigrufen`` phases of a replay: forehand games and concessions, announcements and
kontras, and the facts scoring needs.

The engine (``tarock.engine``) runs the phases every ruleset shares (deal,
bidding, king call with ``R_OWN_KING``, talon and stash, card play) and calls
these where Königrufen has rules of its own (docs/koenigrufen.md, "koenigrufen details
(settled)").
"""

from __future__ import annotations

from typing import Callable

from tarock.cards import CODES, KINGS_MASK, TRULA_MASK, mask_of
from tarock.facts import DECLARER, KoenigrufenFacts, Side
from tarock.game import Game
from tarock.rules.koenigrufen.contracts import (
    BIRDS,
    CARDS_PER_HAND,
    CLOSED,
    HALF,
    NONE,
    card_score,
    counted_bonuses,
    shown_points,
)
from tarock.rules.koenigrufen.contracts import (
    decided as declarer_decided,
)
from tarock.options import KoenigrufenOptions
from tarock.replay_state import KoenigrufenTable, claimed_rest, holder_side, side_piles

KONTRA_NAMES = {2: "kontra", 4: "re", 8: "sub"}
"""Königrufen's kontra chain: ×2 by the party opposing the announcer, ×4 back, ×8; nothing higher."""


# -- contract ------------------------------------------------------------------
def check_contract(table: KoenigrufenTable) -> None:
    """Forehand games belong to forehand; a concession is valid only with the called king in a shown talon."""
    deal, contract, declarers = table.deal, table.contract, table.declarers
    players = deal.players
    if contract.forehand_only and declarers and declarers != (0,):
        who = " and ".join(players[s] for s in declarers)
        table.report("E_BID", f"only forehand ({players[0]}) plays {contract.label}, not {who}", players[declarers[0]])
    if not deal.conceded:
        return
    who = players[declarers[0]] if declarers else players[0]
    if not (contract.calls_king and contract.talon == HALF):
        table.report("E_KING", f"{who} conceded, but only a Rufer or Besserrufer whose called king lies in the "
                               f"talon can be conceded, not a {contract.label}", who)
        return
    if not table.king_in_talon:
        table.report("E_KING", f"{who} conceded, but the called king is not in the talon", who)
        return
    table.conceded = True
    if deal.tricks:
        table.report("E_SEQUENCE", f"{who} conceded, so the deal has no card play, but the record has "
                                   f"{len(deal.tricks)} tricks", trick=1)
    if deal.talon_pick or deal.stash:
        table.report("E_TALON", f"{who} conceded, so no talon cards are taken or laid away", who)


# -- announcements -----------------------------------------------------------
def announcements(table: KoenigrufenTable) -> None:
    """Check each announcement and kontra; keep the valid ones in ``table.announced`` / ``table.kontra``
    (``table.pair_kontra`` in a negative game).

    Trull, Vier Könige and Valat may be announced by anyone, the birds and
    König ultimo only by their holder; each bonus once.  A kontra comes from
    the party opposing the announcer (the declarer's side announces the
    game), re from the announcer's party, sub from the opposing one.  In a
    negative game a kontra binds one player against one declarer: it names
    the declarer (``against``, needed when there are several); a declarer's
    re answers the kontra of the player named by ``against``, else every
    kontra against that declarer.
    """
    deal, contract, options = table.deal, table.contract, table.options
    counted = counted_bonuses(contract, options)
    owners: dict[str, Side] = {"game": DECLARER}
    for a in deal.announcements:
        seat = deal.seat(a.player)
        reason: str | None = None
        if a.bonus is not None:
            name = a.bonus.replace("_", " ")
            reason = _bonus_problem(a.bonus, seat, table, counted)
            if reason is None and a.bonus in owners:
                reason = f"{name} was already announced"
            if reason:
                table.report("E_ANNOUNCE", f"{a.player} announced {name}, but {reason}", a.player)
                continue
            owners[a.bonus] = table.side_of(seat)
            table.announced.append((a.bonus, table.side_of(seat), seat))
            continue
        target, level = a.kontra or "game", a.level or 2
        if contract.is_trischaken:
            reason = "there is no kontra in Trischaken"
        elif level not in KONTRA_NAMES:
            reason = "nothing goes above sub (×8) in Königrufen"
        elif contract.negative:
            reason = _negative_kontra(table, seat, target, level, a.against)
        elif target not in owners:
            reason = f"{target.replace('_', ' ')} was not announced"
        else:
            current = table.kontra.get(target, 1)
            by_owner = level == 4
            if level != current * 2:
                reason = f"the next step on {target.replace('_', ' ')} is ×{current * 2}, not ×{level}"
            elif (table.side_of(seat) == owners[target]) != by_owner:
                reason = f"{KONTRA_NAMES[level]} must come from the other party"
            else:
                table.kontra[target] = level
        if reason:
            table.report("E_ANNOUNCE", f"{a.player} said kontra ×{level} on {target.replace('_', ' ')}, but {reason}",
                         a.player)
    _besserrufer_bird(table)


def _bonus_problem(bonus: str, seat: int, table: KoenigrufenTable, counted: tuple[str, ...]) -> str | None:
    """Why ``seat`` may not announce ``bonus`` here, or None."""
    contract, hands = table.contract, table.play_hands
    if not counted:
        return f"bonuses are not announced in {contract.label}"
    if bonus not in counted:
        if bonus == "quapil" and not table.options.quapil:
            return "Quapil is not played unless the option quapil is on"
        if bonus == "king_ultimo":
            return f"no king is called in {contract.label}"
        return f"only {' and '.join(b.replace('_', ' ') for b in counted)} count in {contract.label}"
    if bonus in BIRDS:
        card = BIRDS[bonus][0]
        return None if hands[seat] >> card & 1 else f"only the holder of {CODES[card]} announces it"
    if bonus == "king_ultimo":
        king = table.called_king
        if king is None or not hands[seat] >> king & 1:
            return "only the called king's holder announces König ultimo"
    return None


def _negative_kontra(table: KoenigrufenTable, seat: int, target: str, level: int,
                     against: str | None) -> str | None:
    """Apply a kontra in a negative game to its (opponent, declarer) chains; or say why it is invalid."""
    deal, declarers = table.deal, table.declarers
    if target != "game":
        return f"there are no bonuses in {table.contract.label}"
    named = None if against is None else deal.seat(against)
    if level == 4:  # re: a declarer answers kontras said against them
        if seat not in declarers:
            return "re comes from a declarer"
        chains = [key for key, k in table.pair_kontra.items() if key[1] == seat and k == 2
                  and (named is None or key[0] == named)]
        if not chains:
            return "no kontra against that declarer is waiting for a re"
        for key in chains:
            table.pair_kontra[key] = 4
        return None
    if named is None:
        if len(declarers) > 1:
            return "with several declarers a kontra must name the one it is against"
        named = declarers[0]
    if named not in declarers or named == seat:
        return f"{deal.players[named]} is not a declarer this player can kontra"
    current = table.pair_kontra.get((seat, named), 1)
    if level != current * 2:
        return f"the next step of this player's kontra against {deal.players[named]} is ×{current * 2}"
    table.pair_kontra[(seat, named)] = level
    return None


def _besserrufer_bird(table: KoenigrufenTable) -> None:
    """A Besserrufer's declarer announces a bird held in the dealt hand (before the talon)."""
    if table.contract.name != "besserrufer" or table.declarer is None:
        return
    declarer = table.declarer
    dealt = table.hands[declarer]
    if not any(bonus in BIRDS and seat == declarer and dealt >> BIRDS[bonus][0] & 1
               for bonus, _, seat in table.announced):
        who = table.deal.players[declarer]
        table.report("E_ANNOUNCE", f"{who} plays Besserrufer but announced no bird (pagat ultimo, uhu, kakadu or "
                                   "quapil) held in the dealt hand", who)


# -- play ----------------------------------------------------------------------
def decider(table: KoenigrufenTable) -> Callable[[Game], bool] | None:
    """A negative game is decided once every declarer has taken too many tricks or can no longer reach
    the number the game needs; positive games and Trischaken only by the last trick."""
    contract, declarers = table.contract, table.declarers
    if contract.tricks is None:
        return None
    return lambda game: all(declarer_decided(contract, game.tricks_taken(d), CARDS_PER_HAND - len(game.tricks))
                            for d in declarers)


# -- outcome -----------------------------------------------------------------
def outcome(table: KoenigrufenTable) -> None:
    """Card points, and the facts scoring needs, from the finished play (or the concession)."""
    deal, contract, options, out = table.deal, table.contract, table.options, table.out
    players = deal.players
    announced = tuple((bonus, side) for bonus, side, _ in table.announced)
    if table.conceded:
        offenders = table.offenders()
        if out.status != "error":
            out.facts = KoenigrufenFacts(players, contract.name, table.declarers, None, options, conceded=True,
                                         announced=announced, offenders=offenders)
        return
    game = table.game
    assert game is not None
    n = deal.n_players
    piles = list(game.piles)
    talon = table.talon or ()
    tricks = tuple(game.tricks_taken(s) for s in range(n))
    if contract.is_trischaken:
        _talon_gifts(piles, talon, game.winners, options)
        scores = tuple(card_score(p, options) for p in piles)
        out.card_points = {players[s]: shown_points(scores[s], options) for s in range(n)}
        offenders = table.offenders()
        if out.status != "error":
            out.facts = KoenigrufenFacts(players, contract.name, options=options, pile_scores=scores, tricks=tricks,
                                         offenders=offenders)
        return
    side_seats = table.side_seats
    declarer_pile, opp_pile = side_piles(piles, side_seats)
    declarer_pile |= table.stash
    to_declarer, to_opponents = _talon_shares(table, any(w not in side_seats for w in game.winners))
    declarer_pile |= to_declarer
    opp_pile |= to_opponents
    rest, claimer = claimed_rest(table)
    if claimer == DECLARER:
        declarer_pile |= rest
    else:
        opp_pile |= rest
    dp, op = card_score(declarer_pile, options), card_score(opp_pile, options)
    out.card_points = {"declarer_side": shown_points(dp, options), "opponents": shown_points(op, options)}
    full = len(game.tricks) == CARDS_PER_HAND
    side = {s: table.side_of(s) for s in range(n)}
    valat_side = None
    if full and len({side[w] for w in game.winners}) == 1:
        valat_side = side[game.winners[0]]
    offenders = table.offenders()
    if out.status == "error":
        return
    negative = contract.negative
    decided_at = table.decided_at
    out.facts = KoenigrufenFacts(
        players, contract.name, table.declarers, table.partner, options,
        card_scores=(dp, op), tricks=tricks, valat_side=valat_side,
        trull_side=holder_side(TRULA_MASK, declarer_pile, opp_pile),
        kings_side=holder_side(KINGS_MASK, declarer_pile, opp_pile),
        birds=_birds(game, side) if full else (),
        king_last=full and _king_took_last(game, table.called_king, side, options),
        announced=announced,
        kontra={} if negative else dict(table.kontra),
        pair_kontra=dict(table.pair_kontra) if negative else {},
        offenders=offenders,
        decided_early=decided_at if decided_at is not None and decided_at < CARDS_PER_HAND else None,
    )


def _talon_gifts(piles: list[int], talon: tuple[int, ...], winners: list[int], options: KoenigrufenOptions) -> None:
    """Trischaken: the talon's cards go one each, in dealt order, to the winners of tricks 1–6, or all
    six to the winner of the last trick (option ``trischaken_talon``)."""
    if options.trischaken_talon == "first_six":
        for i, card in enumerate(talon[:len(winners)]):
            piles[winners[i]] |= 1 << card
    elif winners and len(winners) == CARDS_PER_HAND:
        piles[winners[-1]] |= mask_of(talon)


def _talon_shares(table: KoenigrufenTable, opponents_took_trick: bool) -> tuple[int, int]:
    """The talon cards that count for the declarer's side and for the opponents.

    Half games: the half not taken goes to the opponents (the declarer's
    half is in hand or in the stash).  Solo games: the closed talon goes to
    the opponents if they took a trick (docs/koenigrufen.md), else to the declarer; in
    a Solorufer the half holding the called king is the declarer's.
    Negative games: the opponents'.
    """
    contract, talon = table.contract, table.talon or ()
    tmask = mask_of(talon)
    if contract.talon == HALF:
        return 0, tmask & ~table.pick
    if contract.talon == NONE:
        return 0, tmask
    if contract.talon != CLOSED:
        return 0, 0  # Sechserdreier: all six were taken
    kings_half = 0
    if table.king_in_talon and table.called_king is not None:
        kings_half = next((mask_of(talon[i:i + 3]) for i in (0, 3) if table.called_king in talon[i:i + 3]), 0)
    rest = tmask & ~kings_half
    return (kings_half, rest) if opponents_took_trick else (tmask, 0)


def _birds(game: Game, side: dict[int, Side]) -> tuple[tuple[str, Side, bool], ...]:
    """Each bird played to its own trick: its player's side and whether it took that trick itself."""
    found = []
    for bonus, (card, trick) in BIRDS.items():
        cards, seats = game.tricks[trick - 1], game.trick_seats[trick - 1]
        if card in cards:
            seat = seats[cards.index(card)]
            found.append((bonus, side[seat], game.winners[trick - 1] == seat))
    return tuple(found)


def _king_took_last(game: Game, king: int | None, side: dict[int, Side], options: KoenigrufenOptions) -> bool:
    """König ultimo made: the called king itself took the last trick, or (``king_ultimo_by_party``) its
    holder's party took the last trick, which holds the called king."""
    cards, seats = game.tricks[-1], game.trick_seats[-1]
    if king is None or king not in cards:
        return False
    holder, winner = seats[cards.index(king)], game.winners[-1]
    if options.king_ultimo_by_party:
        return side[winner] == side[holder]
    return winner == holder
