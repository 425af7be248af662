"""The Upper-Austrian cup table (preset ``oberoesterreich``) and the options it brought.

Every expected number is worked out by hand from docs/koenigrufen.md in the comment beside it.
Seats: Ana 0 (forehand), Boris 1, Cilka 2, David 3; card scores in thirds (107 = 35⅔ wins).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tarock.cards import CODES
from tarock.facts import DECLARER, OPPONENTS, KoenigrufenFacts
from tarock.options import DEFAULT_KOENIGRUFEN, OptionError, koenigrufen_options
from tarock.rules.koenigrufen.contracts import CONTRACTS, check_bidding, several_declarers, unavailable
from tarock.rules.koenigrufen.scoring import score_deal
from tarock.rules.rulesets import score_facts
from tarock.rules.slovenian.scoring import ScoreResult

from tests.rules.koenigrufen.test_koenigrufen_phases import (
    codes,
    deal,
    exchanged,
    plain_stash,
    play_out,
    record,
    run,
)

P4 = ("Ana", "Boris", "Cilka", "David")
OOE = {"preset": "oberoesterreich"}


def facts(contract: str, options: dict[str, Any] | None = None, **kw: Any) -> KoenigrufenFacts:
    opts = replace(DEFAULT_KOENIGRUFEN, **(options or {}))
    return KoenigrufenFacts(players=P4, contract=contract, options=opts, declarers=(0,), **kw)


def scores(r: ScoreResult) -> list[int]:
    return [r.scores[p] for p in P4]


def comp(r: ScoreResult, component: str) -> list[int]:
    return [sum(ln.value for ln in r.lines if ln.component == component and p in ln.players) for p in P4]


# --- the preset -----------------------------------------------------------------------------------------


def test_preset_is_raiffeisen_but_for_its_own_decisions() -> None:
    options = koenigrufen_options({"preset": "oberoesterreich"})
    assert options.changed() == {
        "zwiccolo": False, "several_declarers": False, "quapil": True,
        "trischaken_talon": "last_trick", "emperor_trick": False, "color_discard_restriction": True,
        "sechserdreier_doubles_valat": True, "king_ultimo_by_party": True, "valat_takes_game_kontra": True,
        "kontra_in_score": False,
    }
    assert options.triccolo is False  # already Raiffeisen's default
    assert options.values == "raiffeisen" and options.penalty == "austrian_renonce"
    # a record's own option beside the preset wins over it
    assert koenigrufen_options({"preset": "oberoesterreich", "quapil": False}).quapil is False


def test_unknown_preset_and_option_are_refused() -> None:
    with pytest.raises(OptionError, match="oberösterreich"):
        koenigrufen_options({"preset": "oberösterreich"})
    with pytest.raises(OptionError, match="zwicolo"):
        koenigrufen_options({"zwicolo": False})


# --- zwiccolo, several declarers -------------------------------------------------------------------------


def test_zwiccolo_option_switches_off_zwiccolo_and_its_ouvert() -> None:
    off = koenigrufen_options({"zwiccolo": False})
    assert unavailable(CONTRACTS["zwiccolo"], off) and unavailable(CONTRACTS["zwiccolo_ouvert"], off)
    assert unavailable(CONTRACTS["piccolo"], off) is None
    assert unavailable(CONTRACTS["zwiccolo"], DEFAULT_KOENIGRUFEN) is None
    hands, talon = deal(18)
    rec = play_out(record("zwiccolo", hands, talon, declarer="Boris"), hands, leader=1)
    assert run(rec).findings == []
    assert ("E_BID", None) in codes(run(dict(rec, options={"zwiccolo": False})))
    assert ("E_BID", None) in codes(run(dict(rec, options=OOE)))


def test_several_declarers_off_a_second_piccolo_must_outbid() -> None:
    # Boris and Cilka both say Piccolo: by default Cilka joins (two declarers); without several declarers
    # her bid had to be higher, so it is an illegal bid and Boris plays alone.
    bids = [(0, "pass"), (1, "piccolo"), (2, "piccolo"), (3, "pass")]
    assert check_bidding(bids, 4, DEFAULT_KOENIGRUFEN, P4).declarers == (1, 2)
    off = koenigrufen_options({"several_declarers": False})
    assert not several_declarers(CONTRACTS["piccolo"], off)
    outcome = check_bidding(bids, 4, off, P4)
    assert outcome.declarers == (1,) and [e[1] for e in outcome.errors] == [2]


def test_several_declarers_off_a_record_naming_two_is_e_bid() -> None:
    hands, talon = deal(17)
    rec = play_out(record("piccolo", hands, talon, declarer=["Cilka", "Boris"]), hands, leader=1)
    assert run(rec).findings == []
    rp = run(dict(rec, options={"several_declarers": False}))
    assert [f.message for f in rp.findings if f.code == "E_BID"] == [
        "Piccolo is played by one declarer, but the record names several"]


# --- valat ------------------------------------------------------------------------------------------------


def test_sechserdreier_doubles_valat() -> None:
    # Sechserdreier 4; Ana announced the valat and the opponents took a trick: 8 × 4 = 32 per opponent,
    # -96 by default (the valat is not doubled); with the option the lost Sechserdreier doubles it: 64 each.
    failed = dict(card_scores=(200, 10), announced=(("valat", DECLARER),))
    assert scores(score_deal(facts("sechserdreier", **failed))) == [-96, 32, 32, 32]
    on = {"sechserdreier_doubles_valat": True}
    assert scores(score_deal(facts("sechserdreier", on, **failed))) == [-192, 64, 64, 64]
    # the opponents' silent valat against it: 4 × 4 = 16, doubled 32 per opponent
    theirs = dict(card_scores=(0, 210), valat_side=OPPONENTS)
    assert scores(score_deal(facts("sechserdreier", on, **theirs))) == [-96, 32, 32, 32]
    # Ana's own silent valat is a won Sechserdreier: 16 per opponent, not doubled
    mine = dict(card_scores=(210, 0), valat_side=DECLARER)
    assert scores(score_deal(facts("sechserdreier", on, **mine))) == [48, -16, -16, -16]
    # other games are not doubled: a Dreier (4) valat failed the same way stays 32 each
    assert scores(score_deal(facts("dreier", on, **failed))) == [-96, 32, 32, 32]


def test_valat_takes_game_kontra() -> None:
    # Dreier 4, Ana's silent valat (4 × 4 = 16 per opponent) with a kontra on the game: by default the
    # game's kontra does not touch the valat (+48); with the option it doubles it: 32 each, +96.
    silent = dict(card_scores=(210, 0), valat_side=DECLARER, kontra={"game": 2})
    assert scores(score_deal(facts("dreier", **silent))) == [48, -16, -16, -16]
    on = {"valat_takes_game_kontra": True}
    r = score_deal(facts("dreier", on, **silent))
    assert scores(r) == [96, -32, -32, -32]
    assert "the game's kontra 2" in r.lines[0].detail
    # announced valat (8 × 4 = 32) with kontra ×2 on the valat and re ×4 on the game: 32 × 2 × 4 = 256 each
    announced = dict(card_scores=(210, 0), valat_side=DECLARER, announced=(("valat", DECLARER),),
                     kontra={"game": 4, "valat": 2})
    assert scores(score_deal(facts("dreier", on, **announced))) == [768, -256, -256, -256]
    # where kontras do not count (the score sheet), neither kontra multiplies: 32 each
    sheet = {**on, "kontra_in_score": False}
    assert scores(score_deal(facts("dreier", sheet, **announced))) == [96, -32, -32, -32]


# --- König ultimo by party, and the preset on a small deal -------------------------------------------------


def _rufer_42(**extra: Any) -> dict[str, Any]:
    """Ana's Rufer calling the spade king, which Cilka holds; with seed 42's play the last trick is
    David SQ, Ana T3, Boris SJ, Cilka SK: Ana's tarock takes it, over her partner's called king."""
    hands, talon = deal(42, {0: {"T1"}, 2: {"SK"}})
    pick = talon[:3]
    stash = plain_stash(hands[0], pick, 3)
    return play_out(record("rufer", hands, talon, declarer="Ana", called_king="SK", talon_pick=pick, stash=stash,
                           **extra), exchanged(hands, 0, pick, stash), seed=42)


def test_king_ultimo_by_party() -> None:
    rec = _rufer_42()
    rp = run(rec)
    assert rp.findings == [] and rp.partner == 2
    assert [CODES[c] for c in rp.tricks[-1]] == ["SQ", "T3", "SJ", "SK"] and rp.winners[-1] == 0
    # 121 thirds = 40⅓: the Rufer is won, 1 per payment; the king did not take the last trick itself
    assert rp.facts.card_scores == (121, 89) and rp.facts.king_last is False  # type: ignore[union-attr]
    assert score_facts(rp.facts).scores == {"Ana": 1, "Boris": -1, "Cilka": 1, "David": -1}  # type: ignore[arg-type]
    # by party: Ana (Cilka's party) took the last trick holding the called king: silent König ultimo,
    # 1 more per payment
    by_party = run(dict(rec, options={"king_ultimo_by_party": True}))
    assert by_party.facts.king_last is True  # type: ignore[union-attr]
    assert score_facts(by_party.facts).scores == {  # type: ignore[arg-type]
        "Ana": 2, "Boris": -2, "Cilka": 2, "David": -2}


def test_preset_on_a_small_deal() -> None:
    # The same Rufer with Boris's kontra on the game. Raiffeisen: the game is 1 × kontra 2 = 2 per payment
    # and no König ultimo. oberoesterreich: the sheet ignores the kontra (game 1 per payment) and the
    # king's party took the last trick holding it (silent König ultimo, 1 per payment). No Kaiserstich
    # occurs, so the play is the same and legal under both.
    rec = _rufer_42(announcements=[{"player": "Boris", "kontra": "game", "level": 2}])
    r = score_facts(run(rec).facts)  # type: ignore[arg-type]
    assert comp(r, "game") == [2, -2, 2, -2] and comp(r, "king_ultimo") == [0, 0, 0, 0]
    rp = run(dict(rec, options=OOE))
    assert rp.findings == []
    r = score_facts(rp.facts)  # type: ignore[arg-type]
    assert comp(r, "game") == [1, -1, 1, -1] and comp(r, "king_ultimo") == [1, -1, 1, -1]
    assert scores(r) == [2, -2, 2, -2]
