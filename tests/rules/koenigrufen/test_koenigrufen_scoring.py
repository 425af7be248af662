"""Scoring of the ``koenigrufen`` ruleset from hand-written KoenigrufenFacts.

Every expected number is worked out by hand from docs/koenigrufen.md (§3.1–3.6, the
koenigrufen decisions) in the comment next to it — never copied from the
code's output.  Card scores are in thirds (counting 1/3): 107 thirds = 35⅔,
the least a side wins with.  Seats: Ana 0 (forehand), Boris 1, Cilka 2, David 3.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tarock.facts import DECLARER, OPPONENTS, KoenigrufenFacts
from tarock.options import DEFAULT_KOENIGRUFEN, OptionError, koenigrufen_options
from tarock.rules.slovenian.scoring import ScoreResult
from tarock.rules.koenigrufen.scoring import score_deal

P4 = ("Ana", "Boris", "Cilka", "David")
ANA, BORIS, CILKA, DAVID = range(4)


def facts(contract: str, options: dict[str, Any] | None = None, **kw: Any) -> KoenigrufenFacts:
    opts = replace(DEFAULT_KOENIGRUFEN, **(options or {}))
    return KoenigrufenFacts(players=P4, contract=contract, options=opts, **kw)


def thirds(declarer_side: int) -> tuple[int, int]:
    return (declarer_side, 210 - declarer_side)


def scores(r: ScoreResult) -> list[int]:
    return [r.scores[p] for p in P4]


def comp(r: ScoreResult, component: str) -> list[int]:
    """Each player's value on the lines of one component (0 when they have none)."""
    return [sum(ln.value for ln in r.lines if ln.component == component and p in ln.players) for p in P4]


def rufer(points: int, **kw: Any) -> KoenigrufenFacts:
    """Ana declares a Rufer and calls Cilka's king: Ana and Cilka against Boris and David."""
    return facts("rufer", declarers=(ANA,), partner=CILKA, card_scores=thirds(points), **kw)


def alone(contract: str, points: int, **kw: Any) -> KoenigrufenFacts:
    return facts(contract, declarers=(ANA,), card_scores=thirds(points), **kw)


# --- the win threshold and the party payments -------------------------------------------------------


def test_rufer_won_each_partner_receives_from_one_opponent() -> None:
    # Rufer, Raiffeisen value 1; 109 thirds = 36⅓ ≥ 35⅔: won. Each partner receives 1 from one opponent.
    r = score_deal(rufer(109))
    assert scores(r) == [1, -1, 1, -1] and r.won is True


@pytest.mark.parametrize("points, won", [(107, True), (106, False)])
def test_35_points_and_2_blatt_win_35_and_1_blatt_loses(points: int, won: bool) -> None:
    # 107 thirds = 35 points and 2 Blatt (35⅔): won; 106 = 35 and 1 Blatt (35⅓): lost (docs/koenigrufen.md).
    r = score_deal(rufer(points))
    assert r.won is won
    assert scores(r) == ([1, -1, 1, -1] if won else [-1, 1, -1, 1])


def test_dreier_alone_receives_from_each_of_three() -> None:
    # Dreier: Raiffeisen 4; the lone declarer receives 4 from each opponent: +12, each opponent -4.
    assert scores(score_deal(alone("dreier", 120))) == [12, -4, -4, -4]


@pytest.mark.parametrize("table, value", [("raiffeisen", 4), ("wien", 5), ("tirol", 5), ("sauwald", 5)])
def test_cup_tables_give_the_dreier_its_value(table: str, value: int) -> None:
    # docs/koenigrufen.md: Dreier R 4, W 5, T 5, SW 5; lost: the declarer pays each opponent the value.
    r = score_deal(alone("dreier", 100, options={"values": table}))
    assert scores(r) == [-3 * value, value, value, value]


@pytest.mark.parametrize("game, values", [
    ("trischaken", (1, 2, 2, 1)), ("rufer", (1, 1, 1, 1)), ("piccolo", (2, 2, 2, 2)), ("zwiccolo", (2, 2, 2, 2)),
    ("triccolo", (2, 2, 2, 2)), ("bettel", (2, 4, 4, 2)), ("solorufer", (2, 2, 2, 2)),
    ("besserrufer", (1, 1, 1, 1)), ("farbendreier", (3, 5, 5, 3)), ("sechserdreier", (4, 4, 4, 4)),
    ("dreier", (4, 5, 5, 5)), ("farbensolo", (6, 10, 10, 4)), ("piccolo_ouvert", (6, 6, 8, 6)),
    ("zwiccolo_ouvert", (6, 6, 6, 6)), ("bettel_ouvert", (7, 8, 8, 7)), ("solodreier", (8, 10, 10, 8)),
])
def test_value_table(game: str, values: tuple[int, int, int, int]) -> None:
    # docs/koenigrufen.md columns R, W, T, SW; Zwiccolo/Triccolo 2 and Zwiccolo ouvert 6 everywhere (settled
    # details); Farbendreier has no SW entry and falls back to R (3). A conceded game costs the declarer
    # the value once per opponent, which reads the value straight off the table; in Trischaken a plain
    # loser (Boris: most points, below 35⅔, not forehand) pays it to each.
    for table, value in zip(("raiffeisen", "wien", "tirol", "sauwald"), values):
        options = {"values": table, "triccolo": True}
        if game == "trischaken":
            f = facts(game, options, pile_scores=(60, 90, 40, 20), tricks=(3, 4, 3, 2))
            assert score_deal(f).scores["Boris"] == -3 * value, table
        else:
            r = score_deal(facts(game, options, declarers=(ANA,), conceded=True))
            assert r.scores["Ana"] == -3 * value, (game, table)


def test_sechserdreier_loss_counts_double_game_only() -> None:
    # Sechserdreier 4, lost: 2 × 4 = 8 to each opponent (-24); the silent Trull the declarer made still
    # counts once: +1 from each (+3). Ana -24 + 3 = -21; each opponent +8 - 1 = +7.
    r = score_deal(alone("sechserdreier", 90, trull_side=DECLARER))
    assert comp(r, "game") == [-24, 8, 8, 8]
    assert comp(r, "trull") == [3, -1, -1, -1]
    assert scores(r) == [-21, 7, 7, 7]


def test_sechserdreier_won_is_not_doubled() -> None:
    assert scores(score_deal(alone("sechserdreier", 130))) == [12, -4, -4, -4]  # 3 × 4


def test_one_one_counting_uses_min_win_score() -> None:
    # counting 1/1: raw card values (deck 106); with min_win_score 54 a side needs 54 raw points.
    opts = {"counting": "1/1", "min_win_score": 54}
    won = score_deal(facts("rufer", opts, declarers=(ANA,), partner=CILKA, card_scores=(54, 52)))
    lost = score_deal(facts("rufer", opts, declarers=(ANA,), partner=CILKA, card_scores=(53, 53)))
    assert scores(won) == [1, -1, 1, -1] and scores(lost) == [-1, 1, -1, 1]


def test_one_one_counting_requires_min_win_score() -> None:
    with pytest.raises(OptionError, match="min_win_score"):
        koenigrufen_options({"counting": "1/1"})
    with pytest.raises(OptionError, match="belongs to counting 1/1"):
        koenigrufen_options({"min_win_score": 54})


# --- bonuses ----------------------------------------------------------------------------------------


def test_silent_bonuses_are_half_and_count_for_whoever_makes_them() -> None:
    # Rufer won (+1 each partner). Silent Trull by the declarer's side: 1 per payment (Ana, Cilka +1);
    # silent Vier Könige by the opponents: 1 per payment (Boris, David +1); silent Pagat ultimo by the
    # opponents (Boris's Pagat took the last trick): 1. Ana: 1 + 1 - 1 - 1 = 0; Boris: -1 - 1 + 1 + 1 = 0.
    r = score_deal(rufer(120, trull_side=DECLARER, kings_side=OPPONENTS,
                         birds=(("pagat_ultimo", OPPONENTS, True),)))
    assert comp(r, "trull") == [1, -1, 1, -1]
    assert comp(r, "vier_koenige") == [-1, 1, -1, 1]
    assert comp(r, "pagat_ultimo") == [-1, 1, -1, 1]
    assert scores(r) == [0, 0, 0, 0]


@pytest.mark.parametrize("bird, silent", [("pagat_ultimo", 1), ("uhu", 2), ("kakadu", 3)])
def test_bird_values(bird: str, silent: int) -> None:
    # Dreier 4 won (+12). A bird the declarer makes silently: Pagat 1, Uhu 2, Kakadu 3 per payment (×3).
    r = score_deal(alone("dreier", 120, birds=((bird, DECLARER, True),)))
    assert comp(r, bird) == [3 * silent, -silent, -silent, -silent]
    # announced (and made): double — Pagat 2, Uhu 4, Kakadu 6
    r = score_deal(alone("dreier", 120, birds=((bird, DECLARER, True),), announced=((bird, DECLARER),)))
    assert comp(r, bird) == [6 * silent, -2 * silent, -2 * silent, -2 * silent]


def test_silent_bonus_that_fails_costs_nothing() -> None:
    # The declarer's Pagat played to the last trick and beaten: no line at all (docs/koenigrufen.md).
    r = score_deal(alone("dreier", 120, birds=(("pagat_ultimo", DECLARER, False),)))
    assert comp(r, "pagat_ultimo") == [0, 0, 0, 0] and scores(r) == [12, -4, -4, -4]


def test_announced_bonus_that_fails_costs_the_announced_value() -> None:
    # Rufer won (+1 each partner). Cilka announced Uhu and it failed: 4 per payment against her party:
    # Ana 1 - 4 = -3, Cilka -3; Boris -1 + 4 = +3, David +3.
    r = score_deal(rufer(120, announced=(("uhu", DECLARER),)))
    assert comp(r, "uhu") == [-4, 4, -4, 4]
    assert scores(r) == [-3, 3, -3, 3]


def test_announced_by_one_party_made_by_the_other_scores_only_the_failure() -> None:
    # Boris (opponent) announced Trull; the Trull ends in the declarer's side's pile: the announcement
    # failed (2 to each of Ana and Cilka); no silent Trull line for the declarer's side on top.
    r = score_deal(rufer(120, trull_side=DECLARER, announced=(("trull", OPPONENTS),)))
    assert comp(r, "trull") == [2, -2, 2, -2]
    assert len([ln for ln in r.lines if ln.component == "trull"]) == 4  # one line per player, one item


def test_solo_games_double_bonuses() -> None:
    # Solodreier 8 won: +24. Silent Pagat ultimo by the declarer: 1 × 2 (solo) = 2 per opponent: +6.
    r = score_deal(alone("solodreier", 120, birds=(("pagat_ultimo", DECLARER, True),)))
    assert comp(r, "game") == [24, -8, -8, -8]
    assert comp(r, "pagat_ultimo") == [6, -2, -2, -2]
    # Solorufer 2 (the king's holder Cilka partners Ana): announced Trull made, 2 × 2 = 4 per payment
    r = score_deal(facts("solorufer", declarers=(ANA,), partner=CILKA, card_scores=thirds(120),
                         trull_side=DECLARER, announced=(("trull", DECLARER),)))
    assert comp(r, "trull") == [4, -4, 4, -4]


def test_koenig_ultimo_the_called_king_took_the_last_trick() -> None:
    # Rufer won; the called king itself took the last trick: silent König ultimo 1 per payment.
    r = score_deal(rufer(120, king_last=True))
    assert comp(r, "king_ultimo") == [1, -1, 1, -1]
    # announced by Cilka (its holder) and failed: 2 per payment against Ana and Cilka
    r = score_deal(rufer(120, king_last=False, announced=(("king_ultimo", DECLARER),)))
    assert comp(r, "king_ultimo") == [-2, 2, -2, 2]


def test_quapil_only_with_its_option() -> None:
    # Quapil (IIII in the 9th trick) made silently: nothing by default; 4 per payment with quapil on.
    made = (("quapil", DECLARER, True),)
    assert comp(score_deal(alone("dreier", 120, birds=made)), "quapil") == [0, 0, 0, 0]
    r = score_deal(alone("dreier", 120, options={"quapil": True}, birds=made))
    assert comp(r, "quapil") == [12, -4, -4, -4]


def test_colour_games_count_only_vier_koenige_and_valat() -> None:
    # Farbendreier 3 won: +9. Trull and a bird do not count in colour games; silent Vier Könige: +3.
    f = alone("farbendreier", 120, trull_side=DECLARER, kings_side=DECLARER, birds=(("uhu", DECLARER, True),))
    r = score_deal(f)
    assert scores(r) == [12, -4, -4, -4]
    assert comp(r, "trull") == [0, 0, 0, 0] and comp(r, "uhu") == [0, 0, 0, 0]
    # kings_in_color_games off: only the game, +9
    assert scores(score_deal(replace(f, options=replace(f.options, kings_in_color_games=False)))) == [9, -3, -3, -3]


# --- valat ------------------------------------------------------------------------------------------


def test_silent_valat_is_four_game_values_and_replaces_everything() -> None:
    # Dreier 4, the declarer took every trick silently: 4 × 4 = 16 from each opponent (+48); the game
    # line, Trull and kings (all surely hers) are not scored; a game kontra does not multiply it.
    r = score_deal(alone("dreier", 210, valat_side=DECLARER, trull_side=DECLARER, kings_side=DECLARER,
                         kontra={"game": 2}))
    assert [ln.component for ln in r.lines] == ["valat"] * 4
    assert scores(r) == [48, -16, -16, -16]


def test_announced_valat_is_eight_game_values_times_its_kontra() -> None:
    # Dreier 4, valat announced by Ana and made: 8 × 4 = 32; kontra ×2 on the valat: 64 per opponent.
    r = score_deal(alone("dreier", 210, valat_side=DECLARER, announced=(("valat", DECLARER),),
                         kontra={"valat": 2}))
    assert scores(r) == [192, -64, -64, -64]


def test_announced_valat_that_fails() -> None:
    # Dreier 4, valat announced by Ana, the opponents took one trick: Ana pays 32 to each (-96),
    # whatever the game itself gave.
    r = score_deal(alone("dreier", 200, announced=(("valat", DECLARER),)))
    assert scores(r) == [-96, 32, 32, 32] and r.won is False


@pytest.mark.parametrize("table", ["wien", "tirol"])
def test_wien_and_tirol_valat_is_fixed(table: str) -> None:
    # W and T: valat 10 silent / 20 announced, whatever the game (Dreier W/T 5).
    r = score_deal(alone("dreier", 210, options={"values": table}, valat_side=DECLARER))
    assert scores(r) == [30, -10, -10, -10]
    r = score_deal(alone("dreier", 210, options={"values": table}, valat_side=DECLARER,
                         announced=(("valat", DECLARER),)))
    assert scores(r) == [60, -20, -20, -20]


def test_valat_is_not_doubled_in_solo_games_nor_in_a_sechserdreier() -> None:
    # Solodreier 8: silent valat 4 × 8 = 32 per opponent, no solo doubling: +96.
    assert scores(score_deal(alone("solodreier", 210, valat_side=DECLARER))) == [96, -32, -32, -32]
    # Sechserdreier 4: announced valat failed, 8 × 4 = 32, not the lost Sechserdreier's double: -96.
    r = score_deal(alone("sechserdreier", 200, announced=(("valat", DECLARER),)))
    assert scores(r) == [-96, 32, 32, 32]


def test_announced_bonuses_still_score_beside_a_valat() -> None:
    # Dreier 4, silent valat made by Ana (4 × 4 = 16 per opponent), and she had announced the Pagat ultimo,
    # which her Pagat took (made: announced value 2 per opponent); the silent Trull she also holds is
    # replaced by the valat. Ana +3 × (16 + 2) = +54, each opponent -18.
    r = score_deal(alone("dreier", 210, valat_side=DECLARER, trull_side=DECLARER,
                         announced=(("pagat_ultimo", DECLARER),), birds=(("pagat_ultimo", DECLARER, True),)))
    assert scores(r) == [54, -18, -18, -18]
    assert comp(r, "pagat_ultimo") == [6, -2, -2, -2] and comp(r, "trull") == [0, 0, 0, 0]
    # The same announcement failing (the Pagat lost its trick) still costs 2 per opponent: 3 × (16 - 2).
    r = score_deal(alone("dreier", 210, valat_side=DECLARER, announced=(("pagat_ultimo", DECLARER),),
                         birds=(("pagat_ultimo", DECLARER, False),)))
    assert scores(r) == [42, -14, -14, -14]


def test_valat_replaces_the_announced_bonuses_too_under_the_earlier_reading() -> None:
    # valat_keeps_announced=false: only the valat, 16 per opponent.
    r = score_deal(alone("dreier", 210, options={"valat_keeps_announced": False}, valat_side=DECLARER,
                         announced=(("pagat_ultimo", DECLARER),), birds=(("pagat_ultimo", DECLARER, True),)))
    assert scores(r) == [48, -16, -16, -16] and [ln.component for ln in r.lines] == ["valat"] * 4


def test_valat_by_the_opponents() -> None:
    # Rufer 1: Boris and David took every trick (silent): 4 × 1 = 4 per payment, pairwise.
    r = score_deal(rufer(0, valat_side=OPPONENTS))
    assert scores(r) == [-4, 4, -4, 4]


# --- kontra -------------------------------------------------------------------------------------------


def test_game_kontra_binds_the_whole_party() -> None:
    # Rufer lost, opponents said kontra (×2): 2 per payment; re (×4): 4.
    assert scores(score_deal(rufer(90, kontra={"game": 2}))) == [-2, 2, -2, 2]
    assert scores(score_deal(rufer(90, kontra={"game": 4}))) == [-4, 4, -4, 4]
    assert scores(score_deal(rufer(90, kontra={"game": 8}))) == [-8, 8, -8, 8]


def test_bonus_kontra_is_its_own_chain() -> None:
    # Dreier 4 won (+12). Ana announced Pagat ultimo (2) and made it; kontra ×2 on it: 4 per opponent (+12).
    r = score_deal(alone("dreier", 120, birds=(("pagat_ultimo", DECLARER, True),),
                         announced=(("pagat_ultimo", DECLARER),), kontra={"pagat_ultimo": 2}))
    assert comp(r, "game") == [12, -4, -4, -4] and comp(r, "pagat_ultimo") == [12, -4, -4, -4]


def test_kontra_in_score_off_gives_the_tournament_score() -> None:
    # The cups count kontras only in money: with kontra_in_score false the ×4 disappears.
    r = score_deal(rufer(90, options={"kontra_in_score": False}, kontra={"game": 4}))
    assert scores(r) == [-1, 1, -1, 1]


# --- negative games ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game, tricks, won", [
    ("bettel", 0, True), ("bettel", 1, False), ("piccolo", 1, True), ("piccolo", 0, False),
    ("piccolo", 2, False), ("zwiccolo", 2, True), ("zwiccolo", 3, False), ("triccolo", 3, True),
    ("bettel_ouvert", 0, True), ("piccolo_ouvert", 1, True), ("zwiccolo_ouvert", 1, False),
])
def test_negative_games_need_exactly_their_tricks(game: str, tricks: int, won: bool) -> None:
    # Bettel no trick, Piccolo exactly 1, Zwiccolo 2, Triccolo 3 (docs/koenigrufen.md): V from each opponent.
    f = facts(game, {"triccolo": True}, declarers=(BORIS,), tricks=(4, tricks, 8 - tricks, 0))
    value = {"bettel": 2, "piccolo": 2, "zwiccolo": 2, "triccolo": 2, "bettel_ouvert": 7, "piccolo_ouvert": 6,
             "zwiccolo_ouvert": 6}[game]
    r = score_deal(f)
    sign = 1 if won else -1
    assert r.won is won
    assert scores(r) == [-sign * value, 3 * sign * value, -sign * value, -sign * value]


def test_negative_kontra_binds_only_the_player_who_said_it() -> None:
    # Bettel 2 won by Ana; Boris said kontra against her (×2), Cilka kontra and Ana re (×4):
    # Boris pays 4, Cilka 8, David 2: Ana +14.
    f = facts("bettel", declarers=(ANA,), tricks=(0, 4, 4, 4), pair_kontra={(BORIS, ANA): 2, (CILKA, ANA): 4})
    assert scores(score_deal(f)) == [14, -4, -8, -2]
    # tournament score: no kontras, 2 each
    assert scores(score_deal(replace(f, options=replace(f.options, kontra_in_score=False)))) == [6, -2, -2, -2]


def test_several_declarers_are_settled_separately() -> None:
    # Piccolo 2 by Ana (1 trick: won) and Boris (2 tricks: lost). Ana's game: +6 for Ana, -2 each other;
    # Boris's game: -6 for Boris, +2 each other. Ana 6 + 2 = 8, Boris -2 - 6 = -8, Cilka -2 + 2 = 0, David 0.
    f = facts("piccolo", declarers=(ANA, BORIS), tricks=(1, 2, 5, 4))
    r = score_deal(f)
    assert scores(r) == [8, -8, 0, 0]
    assert r.won is None
    # one Piccolo line per declarer and player
    assert len(r.lines) == 8


# --- Trischaken ------------------------------------------------------------------------------------


def trischaken(piles: tuple[int, int, int, int], tricks: tuple[int, int, int, int], **options: Any
               ) -> KoenigrufenFacts:
    assert sum(piles) == 210
    return facts("trischaken", options, pile_scores=piles, tricks=tricks)


def test_trischaken_most_points_pays_each() -> None:
    # Boris 90 thirds (30 points) is the most; below 35⅔, not forehand: pays 1 (R) to each: -3.
    assert scores(score_deal(trischaken((60, 90, 40, 20), (3, 4, 3, 2)))) == [1, -3, 1, 1]


def test_trischaken_buergermeister_doubles() -> None:
    # Boris 110 thirds = 36⅔ ≥ 35⅔: Bürgermeister, 2 to each: -6.
    assert scores(score_deal(trischaken((40, 110, 40, 20), (3, 4, 3, 2)))) == [2, -6, 2, 2]


def test_trischaken_forehand_loser_doubles_and_both_quadruple() -> None:
    # Ana (forehand) has the most, 95 thirds: 2 to each. With 120 (Bürgermeister too): 4 to each.
    assert scores(score_deal(trischaken((95, 60, 40, 15), (4, 3, 3, 2)))) == [-6, 2, 2, 2]
    assert scores(score_deal(trischaken((120, 50, 25, 15), (5, 3, 2, 2)))) == [-12, 4, 4, 4]


def test_trischaken_jungfrau_collects_the_whole_pot() -> None:
    # Boris loses (90 thirds, not a Bürgermeister, not forehand): he pays 1 to each of the three others, a
    # pot of 3; David took no trick (a Jungfrau) and collects all of it (the cups' texts): Ana and Cilka 0.
    assert scores(score_deal(trischaken((60, 90, 60, 0), (4, 4, 4, 0)))) == [0, -3, 0, 3]


def test_two_jungfrauen_split_the_pot_rounded_up_at_the_losers_cost() -> None:
    # Boris loses with 106 thirds (35⅓, short of a Bürgermeister's 35⅔): a pot of 1 × 3 = 3; Cilka and
    # David took no trick: 3 / 2 rounds up to 2 each, so Boris pays 4.
    assert scores(score_deal(trischaken((104, 106, 0, 0), (6, 6, 0, 0)))) == [0, -4, 2, 2]


def test_trischaken_jungfrau_double_is_the_earlier_reading() -> None:
    # trischaken_jungfrau=double: Boris loses (90); David (no trick) receives 2, the others 1: Boris -4.
    r = score_deal(trischaken((60, 90, 60, 0), (4, 4, 4, 0), trischaken_jungfrau="double"))
    assert scores(r) == [1, -4, 1, 2]


def test_trischaken_tie_is_shared_unless_forehand_is_tied() -> None:
    # Boris and David both 80 thirds, forehand not among them: both lose, each paying 1 to Ana and to
    # Cilka (the players who did not lose): Ana +2, Cilka +2, Boris -2, David -2.
    r = score_deal(trischaken((30, 80, 20, 80), (2, 4, 2, 4)))
    assert scores(r) == [2, -2, 2, -2]
    assert len([ln for ln in r.lines if ln.component == "game"]) == 6  # one item per loser: 3 lines each
    # Ana and Cilka tie at 80: forehand (Ana) is among them and loses alone, doubled: 2 to each.
    assert scores(score_deal(trischaken((80, 30, 80, 20), (4, 2, 4, 2)))) == [-6, 2, 2, 2]


def test_trischaken_tie_earliest_is_the_earlier_reading() -> None:
    # trischaken_ties=earliest: of Boris and David (80 each) Boris, earlier in playing order, loses: 1 each.
    r = score_deal(trischaken((30, 80, 20, 80), (2, 4, 2, 4), trischaken_ties="earliest"))
    assert scores(r) == [1, -3, 1, 1]


def test_trischaken_value_per_cup_table() -> None:
    # Wien: Trischaken 2.
    assert scores(score_deal(trischaken((60, 90, 40, 20), (3, 4, 3, 2), values="wien"))) == [2, -6, 2, 2]


# --- concession and renonce ---------------------------------------------------------------------------


def test_concession_pays_the_announced_bonuses_too() -> None:
    # Besserrufer (value 1, R) with an announced Uhu (4), conceded: Ana pays each opponent 1 + 4 = 5, no
    # kontra (the cups' example: -15, +5 each).
    r = score_deal(facts("besserrufer", declarers=(ANA,), conceded=True, announced=(("uhu", DECLARER),),
                         kontra={"game": 2, "uhu": 2}))
    assert scores(r) == [-15, 5, 5, 5] and r.won is False
    # concession_pays_announced=false: the game value only, 1 to each.
    r = score_deal(facts("besserrufer", {"concession_pays_announced": False}, declarers=(ANA,), conceded=True,
                         announced=(("uhu", DECLARER),)))
    assert scores(r) == [-3, 1, 1, 1]


def test_concession_is_a_lone_loss() -> None:
    # Rufer conceded (called king in the talon): -3 × 1 for Ana, +1 each other.
    r = score_deal(facts("rufer", declarers=(ANA,), conceded=True))
    assert scores(r) == [-3, 1, 1, 1] and r.won is False


def test_austrian_renonce_rufer() -> None:
    # Rufer 1: Boris (opponent) revokes. Every other player receives what their party's win would
    # have given them: Ana 1, Cilka (her partner) 1, David (Boris's partner) 1. Boris -3; nothing else.
    r = score_deal(rufer(120, trull_side=DECLARER, offenders=(BORIS,)))
    assert scores(r) == [1, -3, 1, 1]
    assert [ln.component for ln in r.lines] == ["penalty"] * 4
    assert r.unpenalised == {"Ana": 2, "Boris": -2, "Cilka": 2, "David": -2}  # game 1 + silent Trull 1


def test_austrian_renonce_against_a_dreier_costs_five_games() -> None:
    # Dreier 4: a defender revokes: the declarer would have won 3 × 4 = 12, each other defender 4.
    # docs/koenigrufen.md (W): "5× in total against a Dreier": Boris -20.
    r = score_deal(alone("dreier", 120, offenders=(BORIS,)))
    assert scores(r) == [12, -20, 4, 4]


def test_austrian_renonce_includes_every_announced_bonus_and_kontra() -> None:
    # Dreier 4 with game kontra ×2; Ana announced Trull (2). Boris revokes. Ana would have won the game
    # 8 × 3 = 24 and the Trull 2 × 3 = 6: 30. Cilka's party winning = game 8 + Ana's Trull failed 2: 10;
    # David 10. Boris pays 50.
    r = score_deal(alone("dreier", 120, announced=(("trull", DECLARER),), kontra={"game": 2},
                         offenders=(BORIS,)))
    assert scores(r) == [30, -50, 10, 10]


def test_austrian_renonce_by_the_declarer() -> None:
    # Bettel 2: Ana (declarer) revokes: each opponent would have received 2: Ana -6.
    r = score_deal(facts("bettel", declarers=(ANA,), tricks=(0, 4, 4, 4), offenders=(ANA,)))
    assert scores(r) == [-6, 2, 2, 2]


def test_austrian_renonce_in_trischaken() -> None:
    # Trischaken: the offender pays each other player 3 × V = 3 (Raiffeisen): -9.
    r = score_deal(replace(trischaken((60, 90, 40, 20), (3, 4, 3, 2)), offenders=(CILKA,)))
    assert scores(r) == [3, 3, -9, 3]


def test_other_penalty_policies() -> None:
    f = rufer(120, offenders=(BORIS,))
    played = score_deal(replace(f, options=replace(f.options, penalty="record_as_played")))
    assert scores(played) == [1, -1, 1, -1] and played.policy == "record_as_played"
    annulled = score_deal(replace(f, options=replace(f.options, penalty="annul")))
    assert scores(annulled) == [0, 0, 0, 0] and annulled.lines == ()


def test_every_sheet_is_zero_sum_and_lines_add_up() -> None:
    for f in (rufer(120, trull_side=DECLARER, king_last=True), alone("solodreier", 100, kings_side=OPPONENTS),
              facts("piccolo", declarers=(ANA, CILKA), tricks=(1, 5, 0, 6), pair_kontra={(BORIS, CILKA): 2})):
        r = score_deal(f)
        assert sum(r.scores.values()) == 0
        for p in P4:
            assert r.scores[p] == sum(ln.value for ln in r.lines_of(p))
