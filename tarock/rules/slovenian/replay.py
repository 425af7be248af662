"""The ``slovenian`` phases of a replay: announcements and kontras, and the facts scoring needs.

The engine (``tarock.engine``) runs the phases every ruleset shares and calls
these where Slovenian Tarok has rules of its own (docs/rules.md, "Decisions —
ruleset slovenian").
"""

from __future__ import annotations

from typing import Callable

from tarock.rules import events
from tarock.cards import KINGS_MASK, MOND, PAGAT, SKIS, TRULA_MASK, counted_points, mask_of
from tarock.facts import DECLARER, OPPONENTS, DealFacts, Side
from tarock.game import Game
from tarock.options import SlovenianOptions
from tarock.rules.penalties import PlayedTricks, jass_trick_forfeit
from tarock.replay_state import SlovenianTable, claimed_rest, holder_side, side_piles
from tarock.rules.slovenian.contracts import CARDS_PER_HAND, Contract, emperor_mode, mondfang_applies, trick_winner

KONTRA_TARGETS = ("game", "pagat_ultimo", "king_ultimo", "valat", "mondfang")
_KONTRA_NAMES = {2: "kontra", 4: "re", 8: "sub", 16: "mord"}


# -- announcements -----------------------------------------------------------
def announcements(table: SlovenianTable) -> None:
    """Check each announcement and kontra; keep the valid ones in ``table.announced`` / ``table.kontra``."""
    deal, contract = table.deal, table.contract
    announced: dict[str, Side] = {}
    side_of_target: dict[str, Side] = {"game": DECLARER}
    for a in deal.announcements:
        seat = deal.seat(a.player)
        side = table.side_of(seat)
        if a.bonus is not None:
            reason = _bonus_problem(a.bonus, side, seat, table)
            if reason is None and a.bonus in announced:
                reason = f"{a.bonus.replace('_', ' ')} was already announced"
            if reason:
                table.report("E_ANNOUNCE", f"{a.player} announced {a.bonus.replace('_', ' ')}, but {reason}",
                             a.player)
                continue
            announced[a.bonus] = side
            side_of_target[a.bonus] = side
            table.announced.append((a.bonus, side, seat))
            continue
        target = a.kontra or "game"
        level = a.level or 2
        reason = None
        if contract.is_klop:
            reason = _klop_kontra_problem(target, level, table)
            if reason is None:
                table.kontra[target] = level
            else:
                table.report("E_ANNOUNCE", f"{a.player} said kontra ×{level} on {target.replace('_', ' ')}, "
                                           f"but {reason}", a.player)
            continue
        if target not in KONTRA_TARGETS:
            reason = f"{target.replace('_', ' ')} cannot be kontra'd"
        elif target not in side_of_target:
            reason = f"{target.replace('_', ' ')} was not announced"
        elif target == "valat" and table.options.valat_game_kontra:
            reason = "the valat takes the game's kontra (valat_game_kontra): kontra the game"
        else:
            current = table.kontra.get(target, 1)
            owner = side_of_target[target]
            by_owner = level in (4, 16)
            if level != current * 2:
                reason = f"the next step on {target.replace('_', ' ')} is ×{current * 2}, not ×{level}"
            elif (side == owner) != by_owner:
                reason = f"{_KONTRA_NAMES.get(level, level)} must come from the other side"
        if reason:
            table.report("E_ANNOUNCE", f"{a.player} said kontra ×{level} on {target.replace('_', ' ')}, but {reason}",
                         a.player)
            continue
        table.kontra[target] = level


def _klop_kontra_problem(target: str, level: int, table: SlovenianTable) -> str | None:
    """Klop: no kontra, or under ``klop_kontra`` (Palčka's rule) one kontra ×2 on the game, by anyone."""
    if not table.options.klop_kontra:
        return "there is no kontra in Klop"
    if target != "game":
        return "only the Klop itself (the game) can be kontra'd"
    if level != 2 or "game" in table.kontra:
        return "a Klop takes one kontra (×2) and no more"
    return None


def leader(contract: Contract, declarers: tuple[int, ...], options: SlovenianOptions,
           announced: tuple[str | None, ...]) -> int:
    """Who leads trick 1: the declarer in Berač and above, forehand otherwise -- and under
    ``valat_announcer_leads`` (Palčka's rule) the declarer after a valat announcement (``announced``: the
    bonuses the record announces; an invalid one is still reported by ``announcements``)."""
    if declarers and (contract.declarer_leads or (options.valat_announcer_leads and "valat" in announced)):
        return declarers[0]
    return 0


def _bonus_problem(bonus: str, side: Side, seat: int, table: SlovenianTable) -> str | None:
    contract, hands, called_king = table.contract, table.play_hands, table.called_king
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
        if side != DECLARER or not (seat == table.declarer or hands[seat] >> called_king & 1):
            return "only the declarer or the called king's holder announces king ultimo"
    return None


# -- play ----------------------------------------------------------------------
def decider(table: SlovenianTable) -> Callable[[Game], bool] | None:
    """Berač / Odprti berač are decided when the declarer takes a trick, the valats when the declarer
    loses one; other contracts only by the last trick."""
    declarer = table.declarer
    if table.contract.is_beggar:
        return lambda game: game.winners[-1] == declarer
    if table.contract.is_valat:
        return lambda game: game.winners[-1] != declarer
    return None


# -- outcome -----------------------------------------------------------------
def outcome(table: SlovenianTable) -> None:
    """Card points, and the facts scoring needs, from the finished play."""
    deal, game, contract, options, out = table.deal, table.game, table.contract, table.options, table.out
    assert game is not None
    n = deal.n_players
    players = deal.players
    talon = table.talon
    tmask = mask_of(talon) if talon is not None else 0
    piles = list(game.piles)
    if contract.is_klop:
        if talon is not None:
            for i, card in enumerate(talon[:len(game.winners)]):
                piles[game.winners[i]] |= 1 << card
        out.card_points = {players[s]: counted_points(piles[s]) for s in range(n)}
        klop_points = tuple(counted_points(p) for p in piles)
        klop_tricks = tuple(game.tricks_taken(s) for s in range(n))
        offenders = table.offenders()
        if out.status != "error":
            out.facts = DealFacts(players, contract.name, options=options, klop_points=klop_points,
                                  klop_tricks=klop_tricks, offenders=offenders, kontra=dict(table.kontra))
            if options.penalty == "jass_trick_forfeit" and offenders:
                out.facts = jass_trick_forfeit(out.facts, PlayedTricks((), (), ()), out.findings)
        return
    declarer, partner, called_king = table.declarer, table.partner, table.called_king
    assert declarer is not None
    side_seats = table.side_seats
    declarer_pile, opp_pile = side_piles(piles, side_seats)
    declarer_pile |= table.stash
    unchosen = tmask & ~table.pick
    brought_home = False
    if table.king_in_talon and called_king is not None and table.pick >> called_king & 1:
        for cards, seats, w in zip(game.tricks, game.trick_seats, game.winners):
            if called_king in cards and w == declarer and seats[cards.index(called_king)] == declarer:
                brought_home = True
                break
    if contract.talon_group and brought_home:
        declarer_pile |= unchosen
    else:
        opp_pile |= unchosen
    demotions = table.demotions
    ghost = demotions.missing_mask if demotions is not None else 0  # cards that fell: in no ultimo, no Mondfang
    if ghost:
        declarer_pile, opp_pile = events.move_missing(demotions, table.side_of, DECLARER, declarer_pile, opp_pile)
    rest, claimer = claimed_rest(table)
    if claimer == DECLARER:
        declarer_pile |= rest
    else:
        opp_pile |= rest
    # What each side holds outside the tricks (for the trick-forfeit penalty).
    declarer_extra = table.stash | (unchosen if contract.talon_group and brought_home else 0)
    declarer_extra |= rest if claimer == DECLARER else 0
    opponents_extra = (0 if contract.talon_group and brought_home else unchosen) | (0 if claimer == DECLARER else rest)
    dp = counted_points(declarer_pile)
    op = counted_points(opp_pile)
    out.card_points = {"declarer_side": dp, "opponents": op}
    side = {s: DECLARER if s in side_seats else OPPONENTS for s in range(n)}
    full = len(game.tricks) == CARDS_PER_HAND[n]
    valat_side: Side | None = None
    if game.winners and full:
        sides = {side[w] for w in game.winners}
        if len(sides) == 1:
            valat_side = sides.pop()
    pagat_last = None
    king_last = None
    if full:
        last_cards, last_seats, last_w = game.tricks[-1], game.trick_seats[-1], game.winners[-1]
        if PAGAT in last_cards and not ghost >> PAGAT & 1:
            pos = last_cards.index(PAGAT)
            pagat_last = (side[last_seats[pos]],
                          last_seats[pos] == last_w and trick_winner(last_cards, contract, options) == pos)
        if called_king is not None and called_king in last_cards and not ghost >> called_king & 1:
            king_last = side[last_w]
    mondfang = _mondfang(game, contract, options, declarer, side, unchosen, brought_home, ghost)
    lost_trick = any(w not in side_seats for w in game.winners)
    offenders = table.offenders()
    if out.status == "error":
        return
    decided_at = table.decided_at
    out.facts = DealFacts(
        players, contract.name, declarer, partner, options, (dp, op),
        declarer_took_trick=contract.is_beggar and any(w == declarer for w in game.winners),
        declarer_lost_trick=contract.is_valat and lost_trick,
        valat_side=valat_side if not contract.is_valat else (None if lost_trick else DECLARER),
        trula_side=holder_side(TRULA_MASK, declarer_pile, opp_pile),
        kings_side=holder_side(KINGS_MASK, declarer_pile, opp_pile), pagat_last=pagat_last,
        king_last=king_last, mondfang=mondfang,
        announced=tuple((bonus, side) for bonus, side, _ in table.announced), kontra=dict(table.kontra),
        offenders=offenders,
        decided_early=decided_at if decided_at is not None and decided_at < CARDS_PER_HAND[n] else None,
        mond_holder=_mond_holder(table) if options.failed_mondfang_pays else None,
    )
    if options.penalty == "jass_trick_forfeit" and offenders:
        played = PlayedTricks(
            tuple(game.tricks), tuple(game.trick_seats), tuple(game.winners), declarer_extra, opponents_extra,
            full, talon_mondfang=contract.normal and bool(unchosen >> MOND & 1) and not brought_home,
            called_king=called_king, trumps=contract.trumps, emperor=emperor_mode(contract, options),
            renons_called=tuple(e.after_trick for e in deal.events
                                if e.event == "renons_called" and e.after_trick is not None))
        out.facts = jass_trick_forfeit(out.facts, played, out.findings)


def _mond_holder(table: SlovenianTable) -> int | None:
    """The seat that played with the Mond, or None (it lay in the talon).  Set in the facts only under
    ``failed_mondfang_pays``, the one rule that reads it (the fast lane's facts have no such field)."""
    return next((s for s, h in enumerate(table.play_hands) if h >> MOND & 1), None)


def _mondfang(game: Game, contract: Contract, options: SlovenianOptions, declarer: int,
              side: dict[int, Side], unchosen: int, brought_home: bool, ghost: int = 0) -> tuple[int, ...]:
    if not mondfang_applies(contract) or (contract.name == "solo_brez" and not options.solo_brez_mondfang):
        return ()
    payers: list[int] = []
    for cards, seats, w in zip(game.tricks, game.trick_seats, game.winners):
        if MOND in cards and not ghost >> MOND & 1:
            owner = seats[cards.index(MOND)]
            win_card = cards[seats.index(w)] if w in seats else -1
            captured = win_card in (SKIS, PAGAT)
            if captured and (options.mondfang_any_side or side[w] != side[owner]):
                payers.append(owner)
            break
    if contract.normal and unchosen >> MOND & 1 and not brought_home:
        payers.append(declarer)
    return tuple(payers)
