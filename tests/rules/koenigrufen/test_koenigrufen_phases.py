"""Königrufen phases on crafted deals: king call (R_OWN_KING), talon handling, concession, stash,
bidding, announcements and kontras, early decisions, and what ``tarock check`` reports.

Deals are dealt with fixed seeds around the cards a test needs, and played out
with the independent oracle's legal cards (``tests.oracle``), so every record
is legal except where a test breaks it on purpose.
"""

from __future__ import annotations

import random
from typing import Any

from tarock.cards import CODES
from tarock.engine import Replay, replay
from tarock.formats.codec import deal_from_obj
from tarock.rules.rulesets import score_facts
from tarock.check.summary import deal_summary
from scripts import oracle

NAMES = ["Ana", "Boris", "Cilka", "David"]
BITS = {"K": 13, "Q": 10, "N": 7, "J": 4}
"""Seed 003's card values in bits (thirds): K, Q, Kn, J and Trull pieces 13 … other cards 1."""


def bits(cards: list[str] | set[str]) -> int:
    """A pile's value in thirds, by docs/koenigrufen.md's table."""
    return sum(13 if c in ("T1", "T21", "T22") else BITS.get(c[1:], 1) if c[0] != "T" else 1 for c in cards)


def deal(seed: int, fixed: dict[int, set[str]] | None = None, talon: list[str] | None = None
         ) -> tuple[list[set[str]], list[str]]:
    """Hands holding the ``fixed`` cards (and the ``talon`` as given), the rest dealt at random."""
    rng = random.Random(seed)
    fixed = fixed or {}
    used = set().union(*fixed.values(), talon or ())
    rest = [c for c in CODES if c not in used]
    rng.shuffle(rest)
    hands = [set(fixed.get(s, ())) for s in range(4)]
    for s in range(4):
        while len(hands[s]) < 12:
            hands[s].add(rest.pop())
    return hands, list(talon) if talon else rest


def record(contract: str, hands: list[set[str]], talon: list[str], **extra: Any) -> dict[str, Any]:
    return {"ruleset": "koenigrufen", "players": NAMES, "contract": contract,
            "hands": {p: sorted(h) for p, h in zip(NAMES, hands)}, "talon": talon, **extra}


def play_out(rec: dict[str, Any], hands: list[set[str]], seed: int = 0, leader: int = 0,
             tricks: int = 12) -> dict[str, Any]:
    """Fill ``rec["tricks"]`` with legal random play from ``hands`` (after the talon exchange)."""
    rng = random.Random(seed)
    options = rec.get("options", {})
    emperor, pagat = options.get("emperor_trick", True), options.get("pagat_restriction", True)
    hands = [set(h) for h in hands]
    out = []
    for _ in range(tricks):
        trick: list[str] = []
        seats = []
        for i in range(4):
            seat = (leader + i) % 4
            card = rng.choice(sorted(oracle.kr_legal(hands[seat], trick, rec["contract"], pagat)))
            hands[seat].discard(card)
            trick.append(card)
            seats.append(seat)
        leader = seats[oracle.kr_winner(trick, rec["contract"], emperor)]
        out.append(trick)
    rec["tricks"] = out
    return rec


def run(rec: dict[str, Any]) -> Replay:
    return replay(deal_from_obj(rec))


def codes(rp: Replay) -> list[tuple[str, str | None]]:
    return [(f.code, f.player) for f in rp.findings]


def exchanged(hands: list[set[str]], seat: int, pick: list[str], stash: list[str]) -> list[set[str]]:
    out = [set(h) for h in hands]
    out[seat] = (out[seat] | set(pick)) - set(stash)
    return out


def plain_stash(hand: set[str], pick: list[str], k: int) -> list[str]:
    """``k`` suit cards other than kings from the hand after the pick (a legal stash here)."""
    return sorted(c for c in hand | set(pick) if c[0] != "T" and c[1:] != "K")[:k]


# --- the called king ----------------------------------------------------------------------------------


def test_calling_ones_own_king_is_r_own_king() -> None:
    # Ana (forehand) plays a Rufer and calls the heart king she holds herself: a renons (R, SW, W).
    hands, talon = deal(1, {0: {"HK", "T1"}, 1: {"DK", "SK", "CK"}})
    pick = talon[:3]
    stash = plain_stash(hands[0], pick, 3)
    rec = play_out(record("rufer", hands, talon, declarer="Ana", called_king="HK", talon_pick=pick, stash=stash),
                   exchanged(hands, 0, pick, stash))
    rp = run(rec)
    assert codes(rp) == [("R_OWN_KING", "Ana")]
    assert rp.findings[0].card == "HK" and rp.partner is None and rp.status == "renons"
    # austrian_renonce: Ana plays alone, each opponent would have won 1 (Rufer): Ana pays 3
    assert score_facts(rp.facts).scores == {"Ana": -3, "Boris": 1, "Cilka": 1, "David": 1}  # type: ignore[arg-type]


def test_holding_three_kings_the_fourth_must_be_called() -> None:
    hands, talon = deal(2, {0: {"HK", "DK", "SK"}, 2: {"CK"}})
    pick = talon[:3]
    stash = plain_stash(hands[0], pick, 3)
    base = record("rufer", hands, talon, declarer="Ana", talon_pick=pick, stash=stash)
    play_hands = exchanged(hands, 0, pick, stash)
    ok = run(play_out(dict(base, called_king="CK"), play_hands))
    assert ok.findings == [] and ok.partner == 2
    bad = run(play_out(dict(base, called_king="DK"), play_hands))
    assert codes(bad) == [("R_OWN_KING", "Ana")]
    assert "had to call the fourth, CK" in bad.findings[0].message


def test_holding_four_kings_no_king_can_be_called() -> None:
    hands, talon = deal(3, {0: {"HK", "DK", "SK", "CK"}})
    pick = talon[:3]
    stash = plain_stash(hands[0], pick, 3)
    rec = play_out(record("rufer", hands, talon, declarer="Ana", called_king="HK", talon_pick=pick, stash=stash),
                   exchanged(hands, 0, pick, stash))
    assert codes(run(rec)) == [("E_KING", "Ana")]


def test_called_king_in_the_talon_the_declarer_takes_that_half_and_plays_alone() -> None:
    # The called CK lies in the second half: Ana must take it; the first half then goes to the opponents.
    talon_cards = ["H4", "D4", "S7", "CK", "C7", "C8"]
    hands, talon = deal(4, {0: {"T1"}}, talon_cards)
    stash = plain_stash(hands[0], talon[3:], 3)
    rec = play_out(record("rufer", hands, talon, declarer="Ana", called_king="CK", talon_pick=talon[3:],
                          stash=stash), exchanged(hands, 0, talon[3:], stash))
    rp = run(rec)
    assert rp.findings == [] and rp.partner is None
    # Ana alone: her tricks and her stash; the opponents: their tricks and the untaken half (H4 D4 S7)
    ana = {c for t, w in zip(rp.tricks, rp.winners) if w == 0 for c in (CODES[x] for x in t)} | set(stash)
    assert rp.facts.card_scores == (bits(ana), 210 - bits(ana))  # type: ignore[union-attr]
    wrong = dict(rec, talon_pick=talon[:3], stash=plain_stash(hands[0], talon[:3], 3))
    assert ("E_TALON", "Ana") in codes(run(wrong))


def test_concession_with_the_called_king_in_the_talon() -> None:
    talon_cards = ["H4", "D4", "S7", "CK", "C7", "C8"]
    hands, talon = deal(4, {0: {"T1"}}, talon_cards)
    rec = record("rufer", hands, talon, declarer="Ana", called_king="CK", conceded=True, tricks=[])
    rp = run(rec)
    assert rp.findings == [] and rp.tricks == []
    # scored as a lone loss: Ana pays the Rufer's 1 to each (docs/koenigrufen.md: -3 × game value)
    assert score_facts(rp.facts).scores == {"Ana": -3, "Boris": 1, "Cilka": 1, "David": 1}  # type: ignore[arg-type]


def test_invalid_concessions() -> None:
    hands, talon = deal(5, {2: {"CK"}})
    rec = record("rufer", hands, talon, declarer="Ana", called_king="CK", conceded=True, tricks=[])
    assert ("E_KING", "Ana") in codes(run(rec))  # the king is Cilka's, not in the talon
    hands, talon = deal(6, {0: {"T1"}}, ["H4", "D4", "S7", "CK", "C7", "C8"])
    rec = record("solorufer", hands, talon, declarer="Ana", called_king="CK", conceded=True, tricks=[])
    assert ("E_KING", "Ana") in codes(run(rec))  # a Solorufer's talon stays closed: no concession


# --- the talon --------------------------------------------------------------------------------------------


def test_half_talon_the_other_half_counts_for_the_opponents() -> None:
    hands, talon = deal(7, {0: {"T22"}, 2: {"SK"}})
    pick = talon[3:]
    stash = plain_stash(hands[0], pick, 3)
    rp = run(play_out(record("dreier", hands, talon, declarer="Ana", talon_pick=pick, stash=stash),
                      exchanged(hands, 0, pick, stash), seed=7))
    assert rp.findings == []
    ana = {CODES[c] for t, w in zip(rp.tricks, rp.winners) if w == 0 for c in t} | set(stash)
    others = {CODES[c] for t, w in zip(rp.tricks, rp.winners) if w != 0 for c in t} | set(talon[:3])
    assert rp.facts.card_scores == (bits(ana), bits(others))  # type: ignore[union-attr]
    assert bits(ana) + bits(others) == 210


def test_solo_talon_goes_to_the_opponents_only_if_they_took_a_trick() -> None:
    # Solodreier, Ana holds the twelve highest taroks: she takes every trick, so the closed talon is hers
    # (docs/koenigrufen.md): 70 points to 0; a silent valat, 4 × 8 = 32 from each.
    top = {f"T{n}" for n in range(11, 23)}
    hands, talon = deal(8, {0: top})
    rp = run(play_out(record("solodreier", hands, talon, declarer="Ana"), hands))
    assert rp.findings == [] and rp.card_points == {"declarer_side": 70, "opponents": 0}
    assert score_facts(rp.facts).scores == {"Ana": 96, "Boris": -32, "Cilka": -32, "David": -32}  # type: ignore
    # Ana gives up one trick (her last card is a low heart the others can beat): the talon is theirs
    hands, talon = deal(9, {0: (top - {"T11"}) | {"H4"}, 1: {"HK"}})
    rp = run(play_out(record("solodreier", hands, talon, declarer="Ana"), hands))
    theirs = {CODES[c] for t, w in zip(rp.tricks, rp.winners) if w != 0 for c in t}
    assert theirs and rp.facts.card_scores[1] == bits(theirs | set(talon))  # type: ignore[index,union-attr]


def test_solorufer_the_half_with_the_called_king_is_the_declarers() -> None:
    talon_cards = ["CK", "C7", "C8", "H4", "D4", "S7"]
    hands, talon = deal(10, {}, talon_cards)
    rp = run(play_out(record("solorufer", hands, talon, declarer="Ana", called_king="CK"), hands, seed=3))
    assert rp.findings == [] and rp.partner is None
    ana = {CODES[c] for t, w in zip(rp.tricks, rp.winners) if w == 0 for c in t} | {"CK", "C7", "C8"}
    opponents_took = any(w != 0 for w in rp.winners)
    expected = bits(ana) if opponents_took else 210
    assert rp.facts.card_scores[0] == expected  # type: ignore[index,union-attr]


def test_sechserdreier_takes_all_six() -> None:
    hands, talon = deal(11, {0: {"T22", "T21"}})
    stash = plain_stash(hands[0], talon, 6)
    rec = play_out(record("sechserdreier", hands, talon, declarer="Ana", talon_pick=talon, stash=stash),
                   exchanged(hands, 0, talon, stash))
    rp = run(rec)
    assert rp.findings == []
    assert sum(rp.facts.card_scores) == 210  # type: ignore[arg-type,union-attr]
    half = dict(rec, talon_pick=talon[:3], stash=stash[:3])
    assert ("E_TALON", "Ana") in codes(run(half))


def test_trischaken_talon_first_six_or_last_trick() -> None:
    hands, talon = deal(12)
    rec = play_out(record("trischaken", hands, talon), hands, seed=12)
    first = run(rec)
    assert first.findings == [] and set(first.card_points) == set(NAMES)  # type: ignore[arg-type]
    gifts = [0] * 4
    for card, winner in zip(talon, first.winners[:6]):
        gifts[winner] += bits([card])
    taken = [bits({CODES[c] for t, w in zip(first.tricks, first.winners) if w == s for c in t}) for s in range(4)]
    assert first.facts.pile_scores == tuple(t + g for t, g in zip(taken, gifts))  # type: ignore[union-attr]
    last = run(dict(rec, options={"trischaken_talon": "last_trick"}))
    expected = list(taken)
    expected[last.winners[-1]] += bits(talon)
    assert last.facts.pile_scores == tuple(expected)  # type: ignore[union-attr]


# --- the stash ------------------------------------------------------------------------------------------


def test_colour_discard_restriction_lays_taroks_away_first() -> None:
    # Farbendreier: Ana lays away three suit cards while holding T5: fine by default (kings and Trull
    # excepted, a tarock only when forced), R_STASH with color_discard_restriction.
    hands, talon = deal(13, {0: {"T5", "H4", "H3", "D4"}}, ["S7", "S8", "S9", "C7", "C8", "C9"])
    pick = talon[:3]
    base = record("farbendreier", hands, talon, declarer="Ana", talon_pick=pick, stash=["D4", "H3", "H4"])
    rec = play_out(base, exchanged(hands, 0, pick, ["D4", "H3", "H4"]))
    assert run(rec).findings == []
    rp = run(dict(rec, options={"color_discard_restriction": True}))
    assert {c for c, _ in codes(rp)} == {"R_STASH"} and len(rp.findings) == 3
    assert "taroks are laid away first" in rp.findings[0].message


# --- bidding and forehand games -----------------------------------------------------------------------------


def test_forehand_games_belong_to_forehand() -> None:
    hands, talon = deal(14)
    rec = play_out(record("trischaken", hands, talon, bidding=[["Ana", "pass"], ["Boris", "pass"],
                                                               ["Cilka", "pass"], ["David", "pass"],
                                                               ["Ana", "trischaken"]]), hands)
    assert run(rec).findings == []
    hands, talon = deal(15, {2: {"T1"}, 0: {"HK"}})
    pick = talon[:3]
    stash = plain_stash(hands[1], pick, 3)
    rec = play_out(record("rufer", hands, talon, declarer="Boris", called_king="HK", talon_pick=pick,
                          stash=stash), exchanged(hands, 1, pick, stash))
    assert ("E_BID", "Boris") in codes(run(rec))


def test_sechserdreier_only_as_forehands_first_word() -> None:
    hands, talon = deal(16)
    stash = plain_stash(hands[0], talon, 6)
    rec = play_out(record("sechserdreier", hands, talon, declarer="Ana", talon_pick=talon, stash=stash,
                          bidding=[["Ana", "sechserdreier"], ["Boris", "pass"], ["Cilka", "pass"],
                                   ["David", "pass"]]), exchanged(hands, 0, talon, stash))
    assert run(rec).findings == []
    late = dict(rec, bidding=[["Ana", "pass"], ["Boris", "pass"], ["Cilka", "pass"], ["David", "pass"],
                              ["Ana", "sechserdreier"]])
    assert ("E_BID", "Ana") in codes(run(late))


def test_parallel_piccolo_two_declarers_the_one_nearer_forehand_leads() -> None:
    hands, talon = deal(17)
    rec = play_out(record("piccolo", hands, talon, declarer=["Cilka", "Boris"],
                          bidding=[["Ana", "pass"], ["Boris", "piccolo"], ["Cilka", "piccolo"],
                                   ["David", "pass"]]), hands, leader=1)
    rp = run(rec)
    assert rp.findings == [] and rp.declarers == (1, 2) and rp.trick_leaders()[0] == 1
    summary = deal_summary(rp)
    assert summary.declarer == "Boris" and summary.declarers == ["Boris", "Cilka"]
    # a Bettel is one player's game
    bettel = play_out(record("bettel", hands, talon, declarer=["Boris", "Cilka"]), hands, leader=1)
    assert ("E_BID", None) in codes(run(bettel))


def test_triccolo_only_with_its_option() -> None:
    hands, talon = deal(18)
    rec = play_out(record("triccolo", hands, talon, declarer="Boris"), hands, leader=1)
    assert ("E_BID", None) in codes(run(rec))
    assert run(dict(rec, options={"triccolo": True})).findings == []


def test_a_hand_without_tarock_is_no_misdeal() -> None:
    suits = {c for c in CODES if c[0] == "H"} | {"DK", "DQ", "DN", "DJ"}
    hands, talon = deal(19, {3: suits})
    rp = run(play_out(record("trischaken", hands, talon), hands))
    assert rp.findings == []


# --- announcements and kontras -----------------------------------------------------------------------------


def test_besserrufer_needs_a_bird_from_the_dealt_hand() -> None:
    hands, talon = deal(20, {0: {"T2"}, 3: {"SK"}})
    pick = talon[:3]
    stash = plain_stash(hands[0], pick, 3)
    base = play_out(record("besserrufer", hands, talon, declarer="Ana", called_king="SK", talon_pick=pick,
                           stash=stash), exchanged(hands, 0, pick, stash))
    assert codes(run(base)) == [("E_ANNOUNCE", "Ana")]
    ok = dict(base, announcements=[{"player": "Ana", "bonus": "uhu"}])
    assert run(ok).findings == []


def test_announcement_rules() -> None:
    hands, talon = deal(21, {0: {"T1"}, 1: {"T2"}, 3: {"SK"}})
    pick = talon[:3]
    stash = plain_stash(hands[0], pick, 3)
    base = play_out(record("dreier", hands, talon, declarer="Ana", talon_pick=pick, stash=stash),
                    exchanged(hands, 0, pick, stash))

    def problems(*announcements: dict[str, Any], **options: Any) -> list[tuple[str, str | None]]:
        return codes(run(dict(base, announcements=list(announcements), options=options)))

    assert problems({"player": "Ana", "bonus": "pagat_ultimo"}, {"player": "Boris", "bonus": "uhu"},
                    {"player": "Cilka", "bonus": "trull"}) == []
    assert problems({"player": "Boris", "bonus": "pagat_ultimo"}) == [("E_ANNOUNCE", "Boris")]  # not his bird
    assert problems({"player": "Ana", "bonus": "king_ultimo"}) == [("E_ANNOUNCE", "Ana")]  # no king called
    assert problems({"player": "Ana", "bonus": "trull"}, {"player": "Boris", "bonus": "trull"}) == \
        [("E_ANNOUNCE", "Boris")]  # once only
    holder = next(p for p, h in zip(NAMES, exchanged(hands, 0, pick, stash)) if "T4" in h)
    assert problems({"player": holder, "bonus": "quapil"}) == [("E_ANNOUNCE", holder)]
    assert problems({"player": holder, "bonus": "quapil"}, quapil=True) == []
    # kontra: by the other party, then re by the announcer's, sub by the other; nothing above ×8
    assert problems({"player": "Boris", "kontra": "game", "level": 2}, {"player": "Ana", "kontra": "game", "level": 4},
                    {"player": "David", "kontra": "game", "level": 8}) == []
    assert problems({"player": "Ana", "kontra": "game", "level": 2}) == [("E_ANNOUNCE", "Ana")]
    assert problems({"player": "Boris", "kontra": "game", "level": 2}, {"player": "Ana", "kontra": "game", "level": 4},
                    {"player": "David", "kontra": "game", "level": 8},
                    {"player": "Ana", "kontra": "game", "level": 16}) == [("E_ANNOUNCE", "Ana")]
    assert problems({"player": "Boris", "kontra": "trull", "level": 2}) == [("E_ANNOUNCE", "Boris")]  # not announced


def test_colour_games_announce_only_vier_koenige_and_valat() -> None:
    hands, talon = deal(22, {0: {"T1"}})
    pick = talon[:3]
    stash = plain_stash(hands[0], pick, 3)
    base = play_out(record("farbendreier", hands, talon, declarer="Ana", talon_pick=pick, stash=stash),
                    exchanged(hands, 0, pick, stash))
    assert codes(run(dict(base, announcements=[{"player": "Ana", "bonus": "pagat_ultimo"}]))) == \
        [("E_ANNOUNCE", "Ana")]
    assert run(dict(base, announcements=[{"player": "Ana", "bonus": "vier_koenige"},
                                         {"player": "Boris", "bonus": "valat"}])).findings == []


def test_negative_kontra_names_its_declarer() -> None:
    hands, talon = deal(23)
    base = play_out(record("piccolo", hands, talon, declarer=["Boris", "Cilka"]), hands, leader=1)

    def problems(*announcements: dict[str, Any]) -> list[tuple[str, str | None]]:
        return codes(run(dict(base, announcements=list(announcements))))

    assert problems({"player": "Ana", "kontra": "game", "level": 2}) == [("E_ANNOUNCE", "Ana")]  # which one?
    assert problems({"player": "Ana", "kontra": "game", "level": 2, "against": "Cilka"},
                    {"player": "Cilka", "kontra": "game", "level": 4, "against": "Ana"},
                    {"player": "Ana", "kontra": "game", "level": 8, "against": "Cilka"}) == []
    assert problems({"player": "Ana", "kontra": "game", "level": 2, "against": "David"}) == [("E_ANNOUNCE", "Ana")]
    rp = run(dict(base, announcements=[{"player": "Ana", "kontra": "game", "level": 2, "against": "Cilka"},
                                       {"player": "Cilka", "kontra": "game", "level": 4}]))
    assert rp.facts.pair_kontra == {(0, 2): 4}  # type: ignore[union-attr]


def test_no_kontra_in_trischaken() -> None:
    hands, talon = deal(24)
    rec = play_out(record("trischaken", hands, talon,
                          announcements=[{"player": "Boris", "kontra": "game", "level": 2}]), hands)
    assert codes(run(rec)) == [("E_ANNOUNCE", "Boris")]


# --- decided early ----------------------------------------------------------------------------------------


def test_bettel_may_stop_when_the_declarer_takes_a_trick() -> None:
    # Boris holds the Sküs and leads it: he takes trick 1 and the Bettel is lost; the record may stop there.
    hands, talon = deal(25, {1: {"T22"}})
    rec = record("bettel", hands, talon, declarer="Boris")
    rec["tricks"] = [["T22"] + [min(oracle.kr_legal(hands[s], ["T22"], "bettel")) for s in (2, 3, 0)]]
    rp = run(rec)
    assert rp.findings == [] and rp.facts.decided_early == 1  # type: ignore[union-attr]
    assert score_facts(rp.facts).scores["Boris"] == -6  # type: ignore[arg-type]
    # a Piccolo is not decided by the declarer's first trick
    assert ("E_SEQUENCE", None) in codes(run(dict(rec, contract="piccolo")))
