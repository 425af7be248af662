"""Scoring of the ``koenigrufen`` ruleset: a replayed deal's facts -> zero-sum payments.

Every scored item — the game, each bonus, a valat, a renonce — is settled by
payments between the two parties: in a 2-against-2 Rufer each partner
receives the amount from (or pays it to) one opponent, a lone player receives
it from (or pays it to) each of the three others.  A player's line for an item
is what they receive minus what they pay, so every deal sums to zero
(docs/koenigrufen.md, "Decisions — ruleset koenigrufen", §3.1–3.6; docs/koenigrufen.md).

* Positive games: the declarer's side wins with ≥ 35⅔ card points (counting
  1/3; ``min_win_score`` under 1/1); the game value ``V`` comes from the cup
  table ``values``; a lost Sechserdreier pays double.  Bonuses (Trull, Vier
  Könige, Pagat/Uhu/Kakadu/Quapil ultimo, König ultimo) are worth their
  announced value, half when made silently; an announcement that fails costs
  the announced value; solo games double them.  A valat (×4 ``V`` silent,
  ×8 announced, or the fixed 10/20 of Wien and Tirol) replaces every other line.
* Kontra (×2, ×4, ×8) multiplies the game or the bonus it was said on — for
  the whole party in positive games, between one player and one declarer in
  negative games — when ``kontra_in_score`` is on.
* Negative games: each declarer is settled alone against the other three:
  ``V`` from (or to) each.  Trischaken: the player with most card points
  pays each other player ``V``, ×2 as a Bürgermeister, ×2 again as forehand;
  a Jungfrau (no trick) receives double.
* A concession costs the declarer ``V`` to each opponent.  Penalty
  ``austrian_renonce``: the offender alone pays every other player what that
  player would have received had their party won the game and every announced
  bonus (Trischaken: 3 ``V`` each); nothing else of the deal is scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from tarock.facts import DECLARER, OPPONENTS, KoenigrufenFacts, Side
from tarock.rules.koenigrufen.contracts import (
    CONTRACTS,
    N_PLAYERS,
    Contract,
    counted_bonuses,
    game_value,
    points_text,
    win_score,
)
from tarock.rules.slovenian.scoring import Line, ScoreResult, signed

BONUS_VALUES: Mapping[str, tuple[int, int]] = MappingProxyType({
    "trull": (1, 2),
    "vier_koenige": (1, 2),
    "pagat_ultimo": (1, 2),
    "uhu": (2, 4),
    "kakadu": (3, 6),
    "quapil": (4, 8),
    "king_ultimo": (1, 2),
})
"""(silent, announced) value of each bonus (R, W, T and SW agree)."""

VALAT_VALUES: Mapping[str, tuple[bool, int, int]] = MappingProxyType({
    "raiffeisen": (True, 4, 8),
    "wien": (False, 10, 20),
    "tirol": (False, 10, 20),
    "sauwald": (True, 4, 8),
})
"""Per cup table: (times the game value?, silent, announced) — ×4/×8 ``V`` (R, SW) or fixed 10/20 (W, T)."""

BONUS_LABELS: Mapping[str, str] = MappingProxyType({
    "trull": "Trull",
    "vier_koenige": "Vier Könige",
    "pagat_ultimo": "Pagat ultimo",
    "uhu": "Uhu",
    "kakadu": "Kakadu",
    "quapil": "Quapil",
    "king_ultimo": "König ultimo",
    "valat": "Valat",
})

COMPONENTS = ("game", "trull", "vier_koenige", "pagat_ultimo", "uhu", "kakadu", "quapil", "king_ultimo", "valat",
              "penalty")
"""Breakdown order of the lines."""

KONTRA_NAMES: Mapping[int, str] = MappingProxyType({2: "kontra", 4: "re", 8: "sub"})

_TRICK_WORDS = ("no trick", "exactly one trick", "exactly two tricks", "exactly three tricks")


@dataclass(frozen=True, slots=True)
class _Item:
    """One scored item settled by payments ``(payer, payee, amount)``; ``what`` says what happened."""

    component: str
    what: str
    payments: tuple[tuple[int, int, int], ...]
    basis: Mapping[str, int]


# --- small helpers ----------------------------------------------------------------------------


def _name_list(facts: KoenigrufenFacts, seats: tuple[int, ...] | list[int]) -> str:
    names = [facts.players[s] for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _party(facts: KoenigrufenFacts, side: Side) -> tuple[int, ...]:
    """The seats of ``side`` (the declarer and partner, or the others)."""
    return tuple(s for s in range(facts.n_players) if facts.side_of(s) == side)


def _other(side: Side) -> Side:
    return OPPONENTS if side == DECLARER else DECLARER


def _side_words(side: Side) -> str:
    return "the declarer's side" if side == DECLARER else "the opponents"


def _pairs(winners: tuple[int, ...], losers: tuple[int, ...]) -> list[tuple[int, int]]:
    """Who pays whom: two against two pair off (each partner with one opponent); a lone player meets each
    of the three others."""
    if len(winners) == len(losers):
        return list(zip(losers, winners))
    if len(winners) == 1:
        return [(loser, winners[0]) for loser in losers]
    return [(losers[0], winner) for winner in winners]


def _kontra(facts: KoenigrufenFacts, target: str) -> int:
    """The kontra multiplier of a positive game's target, if kontras count in the score."""
    return facts.kontra.get(target, 1) if facts.options.kontra_in_score else 1


def _pair_kontra(facts: KoenigrufenFacts, opponent: int, declarer: int) -> int:
    """A negative game's kontra between one opponent and one declarer, if kontras count."""
    return facts.pair_kontra.get((opponent, declarer), 1) if facts.options.kontra_in_score else 1


def _kontra_text(k: int) -> str:
    return f" × {KONTRA_NAMES.get(k, 'kontra')} {k}" if k > 1 else ""


def _settle(facts: KoenigrufenFacts, component: str, what: str, winning: Side, amount: int,
            **basis: int) -> _Item:
    """``winning`` side's party receives ``amount`` per payment from the other party."""
    payments = tuple((payer, payee, amount)
                     for payer, payee in _pairs(_party(facts, winning), _party(facts, _other(winning))))
    return _Item(component, what, payments, MappingProxyType({"base": amount, **basis}))


# --- the game ---------------------------------------------------------------------------------


def _contract(facts: KoenigrufenFacts) -> Contract:
    return CONTRACTS[facts.contract]


def _game_item(facts: KoenigrufenFacts, value: int, declarer_won: bool) -> _Item:
    """A positive game: ``V`` × game kontra, doubled for a lost Sechserdreier."""
    contract = _contract(facts)
    k = _kontra(facts, "game")
    double = 2 if contract.name == "sechserdreier" and not declarer_won else 1
    side = _name_list(facts, facts.playing_side)
    what = f"{contract.label} {'won' if declarer_won else 'lost'} by {side}"
    if facts.card_scores is not None:
        what += f" with {points_text(facts.card_scores[0], facts.options)} card points"
    what += f", value {value}{_kontra_text(k)}"
    if double > 1:
        what += " × 2 (a lost Sechserdreier counts double)"
    return _settle(facts, "game", what, DECLARER if declarer_won else OPPONENTS, value * k * double,
                   value=value, kontra=k, double=double)


def _negative_item(facts: KoenigrufenFacts, declarer: int, value: int, won: bool) -> _Item:
    """One declarer's negative game against each other player, each pair with its own kontra."""
    contract = _contract(facts)
    taken = facts.tricks[declarer] if facts.tricks else 0
    need = _TRICK_WORDS[contract.tricks or 0]
    what = (f"{contract.label} {'won' if won else 'lost'} by {facts.players[declarer]} "
            f"({taken} trick{'s' if taken != 1 else ''}, needs {need}), value {value}")
    payments = []
    kontras = []
    for other in range(facts.n_players):
        if other == declarer:
            continue
        k = _pair_kontra(facts, other, declarer)
        if k > 1:
            kontras.append(f"{facts.players[other]}'s{_kontra_text(k)}")
        payments.append((other, declarer, value * k) if won else (declarer, other, value * k))
    if kontras:
        what += " (" + ", ".join(kontras) + ")"
    return _Item("game", what, tuple(payments), MappingProxyType({"base": value, "value": value}))


def _trischaken_losers(facts: KoenigrufenFacts) -> list[int]:
    """Who loses a Trischaken: the player with most card points; of several tied, forehand alone if among
    them, else all of them (``trischaken_ties: share``) or the first in playing order (``earliest``)."""
    scores = facts.pile_scores
    assert scores is not None
    top = max(scores)
    tied = [s for s in range(facts.n_players) if scores[s] == top]
    if facts.options.trischaken_ties == "earliest" or 0 in tied:
        return tied[:1]
    return tied


def _trischaken_items(facts: KoenigrufenFacts, value: int) -> list[_Item]:
    """Each loser pays every player who did not lose ``V`` (×2 Bürgermeister, ×2 forehand); where someone took
    no trick the Jungfrauen collect the whole payment (``pot``) or double (``double``)."""
    if facts.pile_scores is None:
        raise ValueError("a trischaken needs pile_scores")
    scores = facts.pile_scores
    options = facts.options
    losers = _trischaken_losers(facts)
    payees = [s for s in range(facts.n_players) if s not in losers]
    virgins = [s for s in payees if facts.tricks[s] == 0]
    items = []
    for loser in losers:
        buerger = scores[loser] >= win_score(options)
        base = value * (2 if buerger else 1) * (2 if loser == 0 else 1)
        what = (f"Trischaken lost by {facts.players[loser]} with {points_text(scores[loser], options)} card "
                f"points" + (f" (tied with {_name_list(facts, [s for s in losers if s != loser])})"
                             if len(losers) > 1 else "") + f", value {value}")
        if buerger:
            what += " × 2 (Bürgermeister)"
        if loser == 0:
            what += " × 2 (forehand)"
        if not virgins:
            payments = tuple((loser, s, base) for s in payees)
        elif options.trischaken_jungfrau == "double":
            what += (f"; {_name_list(facts, virgins)} took no trick (Jungfrau) and "
                     f"receive{'s' if len(virgins) == 1 else ''} double")
            payments = tuple((loser, s, base * (2 if s in virgins else 1)) for s in payees)
        else:
            pot = base * len(payees)
            share = -(-pot // len(virgins))  # rounded up: the loser pays the rounding
            what += (f"; {_name_list(facts, virgins)} took no trick (Jungfrau) and collect"
                     f"{'s' if len(virgins) == 1 else ''} the whole {pot}"
                     + (f", {share} each" if len(virgins) > 1 else ""))
            payments = tuple((loser, s, share) for s in virgins)
        items.append(_Item("game", what, payments, MappingProxyType({"base": base, "value": value})))
    return items


def _concession_item(facts: KoenigrufenFacts, value: int) -> _Item:
    """A concession: a lone loss, ``V`` to each opponent, plus (``concession_pays_announced``) the announced
    value of every bonus the declarer's side announced, an announced valat in place of ``V``; no kontra."""
    declarer = facts.declarers[0]
    what = f"{_contract(facts).label} conceded by {facts.players[declarer]} (the called king lay in the talon)"
    amount = value
    parts = [f"value {value}"]
    if facts.options.concession_pays_announced:
        for bonus, side in facts.announced:
            if side != DECLARER:
                continue
            if bonus == "valat":
                per_game, _, full = VALAT_VALUES[facts.options.values]
                amount += full * (value if per_game else 1) - value
                parts[0] = f"announced Valat {full * (value if per_game else 1)}"
            else:
                amount += BONUS_VALUES[bonus][1]
                parts.append(f"announced {BONUS_LABELS[bonus]} {BONUS_VALUES[bonus][1]}")
    what += ", " + " + ".join(parts) + (f" = {amount}" if len(parts) > 1 else "")
    payments = tuple((declarer, s, amount) for s in range(facts.n_players) if s != declarer)
    return _Item("game", what, payments, MappingProxyType({"base": amount, "value": value}))


# --- bonuses --------------------------------------------------------------------------------------


def _achiever(facts: KoenigrufenFacts, bonus: str) -> Side | None:
    """The side that made ``bonus`` in play, if one did."""
    if bonus == "trull":
        return facts.trull_side
    if bonus == "vier_koenige":
        return facts.kings_side
    if bonus == "king_ultimo":
        return DECLARER if facts.king_last else None
    return next((side for name, side, won in facts.birds if name == bonus and won), None)


def _bonus_item(facts: KoenigrufenFacts, bonus: str, winning: Side, announced: bool, by: Side) -> _Item:
    """One bonus settled in ``winning``'s favour: the announced or silent value × its kontra, ×2 in solo games."""
    silent, full = BONUS_VALUES[bonus]
    base = full if announced else silent
    k = _kontra(facts, bonus) if announced else 1
    solo = 2 if _contract(facts).solo else 1
    label = BONUS_LABELS[bonus]
    if announced:
        what = f"{label} announced by {_side_words(by)} and {'made' if winning == by else 'failed'}"
    else:
        what = f"silent {label} made by {_side_words(winning)}"
    what += f", value {base}{_kontra_text(k)}" + (" × 2 (solo game)" if solo > 1 else "")
    return _settle(facts, bonus, what, winning, base * k * solo, value=base, kontra=k, solo=solo,
                   announced=int(announced), silent=silent, full=full)


def _bonus_items(facts: KoenigrufenFacts, announced_only: bool = False) -> list[_Item]:
    """Every bonus that counts: an announcement scores made or failed; a silent bonus only when made (and
    not at all with ``announced_only``: beside a valat)."""
    announcers = dict(facts.announced)
    items = []
    for bonus in counted_bonuses(_contract(facts), facts.options):
        if bonus == "valat":
            continue
        made_by = _achiever(facts, bonus)
        if bonus in announcers:
            by = announcers[bonus]
            items.append(_bonus_item(facts, bonus, by if made_by == by else _other(by), True, by))
        elif made_by is not None and not announced_only:
            items.append(_bonus_item(facts, bonus, made_by, False, made_by))
    return items


def _valat_item(facts: KoenigrufenFacts, value: int, winning: Side, announced: bool, by: Side) -> _Item:
    """A valat: ×4 / ×8 the game value (or Wien and Tirol's fixed 10 / 20); an announced one × its kontra;
    × the game's kontra too with ``valat_takes_game_kontra``; × 2 against the declarer of a Sechserdreier
    with ``sechserdreier_doubles_valat``."""
    options = facts.options
    per_game, silent, full = VALAT_VALUES[options.values]
    base = (full if announced else silent) * (value if per_game else 1)
    k = _kontra(facts, "valat") if announced else 1
    game_k = _kontra(facts, "game") if options.valat_takes_game_kontra else 1
    double = 2 if (options.sechserdreier_doubles_valat and _contract(facts).name == "sechserdreier"
                   and winning != DECLARER) else 1
    if announced:
        what = f"Valat announced by {_side_words(by)} and {'made' if winning == by else 'failed'}"
    else:
        what = f"silent Valat made by {_side_words(by)}"
    keeps = options.valat_keeps_announced
    what += f", value {base}{_kontra_text(k)}"
    if game_k > 1:
        what += f" × the game's {KONTRA_NAMES.get(game_k, 'kontra')} {game_k}"
    if double > 1:
        what += " × 2 (a lost Sechserdreier counts double)"
    what += f" (replaces the game and every {'silent bonus' if keeps else 'other line'})"
    extra = {"game_kontra": game_k} if game_k > 1 else {}
    if double > 1:
        extra["double"] = double
    return _settle(facts, "valat", what, winning, base * k * game_k * double, value=base, kontra=k,
                   announced=int(announced), silent=silent * (value if per_game else 1),
                   full=full * (value if per_game else 1), **extra)


def _valat(facts: KoenigrufenFacts, value: int) -> _Item | None:
    """The valat line of a positive game, when one applies (announced, or made silently)."""
    if "valat" not in counted_bonuses(_contract(facts), facts.options):
        return None
    announcers = dict(facts.announced)
    if "valat" in announcers:
        by = announcers["valat"]
        return _valat_item(facts, value, by if facts.valat_side == by else _other(by), True, by)
    if facts.valat_side is not None:
        return _valat_item(facts, value, facts.valat_side, False, facts.valat_side)
    return None


# --- the deal as played ---------------------------------------------------------------------------


def _played(facts: KoenigrufenFacts, value: int) -> tuple[list[_Item], bool | None]:
    """The items of the deal as played, and whether the declarer (side) won."""
    contract = _contract(facts)
    if facts.conceded:
        return [_concession_item(facts, value)], False
    if contract.is_trischaken:
        return _trischaken_items(facts, value), None
    if contract.negative:
        results = [facts.tricks[d] == contract.tricks if facts.tricks else False for d in facts.declarers]
        items = [_negative_item(facts, d, value, won) for d, won in zip(facts.declarers, results)]
        return items, results[0] if len(results) == 1 else None
    valat = _valat(facts, value)
    if valat is not None:
        kept = _bonus_items(facts, announced_only=True) if facts.options.valat_keeps_announced else []
        return [valat] + kept, any(payee == facts.declarers[0] for _, payee, _ in valat.payments)
    if facts.card_scores is None:
        raise ValueError(f"a {facts.contract} needs card_scores")
    won = facts.card_scores[0] >= win_score(facts.options)
    return [_game_item(facts, value, won)] + _bonus_items(facts), won


# --- renonce ---------------------------------------------------------------------------------------


def _would_win(facts: KoenigrufenFacts, value: int, seat: int) -> int:
    """What ``seat`` would have received had their party won the game and every announced bonus."""
    contract = _contract(facts)
    if contract.is_trischaken:
        return 3 * value
    if contract.negative:
        items = [_negative_item(facts, d, value, seat == d) for d in facts.declarers]
    else:
        side = facts.side_of(seat)
        announcers = dict(facts.announced)
        if "valat" in announcers:
            items = [_valat_item(facts, value, side, True, announcers["valat"])]
        else:
            items = [_game_item(facts, value, side == DECLARER)]
            items += [_bonus_item(facts, bonus, side, True, announcers[bonus])
                      for bonus in counted_bonuses(contract, facts.options) if bonus in announcers]
    return _net(items, facts.n_players)[seat]


def _renonce_items(facts: KoenigrufenFacts, value: int) -> list[_Item]:
    """``austrian_renonce``: each offender pays every other player what they would have won."""
    items = []
    for offender in dict.fromkeys(facts.offenders):
        payments = tuple((offender, s, _would_win(facts, value, s)) for s in range(facts.n_players) if s != offender)
        what = f"renonce by {facts.players[offender]}, who pays every other player what they would have won"
        items.append(_Item("penalty", what, payments, MappingProxyType({"base": value, "value": value})))
    return items


# --- lines ---------------------------------------------------------------------------------------------


def _net(items: list[_Item], n: int) -> list[int]:
    net = [0] * n
    for item in items:
        for payer, payee, amount in item.payments:
            net[payer] -= amount
            net[payee] += amount
    return net


def _how(facts: KoenigrufenFacts, seat: int, payments: tuple[tuple[int, int, int], ...]) -> str:
    """``receives 4 from each of Boris, Cilka and David`` / ``pays 2 to Ana`` for one player."""
    got = [(payer, amount) for payer, payee, amount in payments if payee == seat]
    paid = [(payee, amount) for payer, payee, amount in payments if payer == seat]
    parts = []
    for verb, word, pairs in (("receives", "from", got), ("pays", "to", paid)):
        if not pairs:
            continue
        amounts = {amount for _, amount in pairs}
        if len(amounts) == 1:
            each = "each of " if len(pairs) > 1 else ""
            parts.append(f"{verb} {pairs[0][1]} {word} {each}{_name_list(facts, [s for s, _ in pairs])}")
        else:
            parts.append(f"{verb} " + ", ".join(f"{amount} {word} {facts.players[s]}" for s, amount in pairs))
    return " and ".join(parts)


def _lines(facts: KoenigrufenFacts, items: list[_Item]) -> tuple[Line, ...]:
    """One line per player and item, in breakdown order: what the player receives minus what they pay."""
    lines = []
    for item in sorted(items, key=lambda it: COMPONENTS.index(it.component)):
        for seat in range(facts.n_players):
            own = [p for p in item.payments if seat in (p[0], p[1])]
            if not own:
                continue
            value = sum(amount if payee == seat else -amount for _, payee, amount in own)
            basis = {**item.basis, "payments": len(own), "sign": 1 if value > 0 else -1}
            lines.append(Line((facts.players[seat],), item.component,
                              f"{item.what}: {_how(facts, seat, item.payments)}: {signed(value)}", value,
                              MappingProxyType(basis)))
    return tuple(lines)


# --- entry point -----------------------------------------------------------------------------------------


def score_deal(facts: KoenigrufenFacts, radelci_before: Mapping[str, int] | None = None) -> ScoreResult:
    """Score one Königrufen deal from its facts (pure; the sheet sums to zero).

    Königrufen has no radelci: whatever ``radelci_before`` holds is carried
    through unchanged.  Raises ValueError for an unknown game or facts that
    lack what the game needs.
    """
    if facts.contract not in CONTRACTS or facts.n_players != N_PLAYERS:
        raise ValueError(f"unknown koenigrufen game {facts.contract!r} or not 4 players")
    before = {name: int((radelci_before or {}).get(name, 0)) for name in facts.players}
    value = game_value(_contract(facts), facts.options)
    items, won = _played(facts, value)
    policy = facts.options.penalty if facts.offenders else "none"
    if policy == "annul":
        scored: list[_Item] = []
    elif policy == "austrian_renonce":
        scored = _renonce_items(facts, value)  # the renonce replaces the deal's score
    else:
        scored = items
    return ScoreResult(
        lines=_lines(facts, scored),
        scores=dict(zip(facts.players, _net(scored, facts.n_players))),
        radelci_before=before,
        radelci_after=dict(before),
        won=None if policy == "annul" else won,
        unpenalised=None if scored is items else dict(zip(facts.players, _net(items, facts.n_players))),
        policy=policy,
        contract=facts.contract,
        declarer=facts.players[facts.declarer] if facts.declarer is not None else None,
        ruleset="koenigrufen",
    )
