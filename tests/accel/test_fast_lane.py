"""The accelerated engine against the pure-Python reference, deal by deal.

With the compiled kernel (``tarock.accel``) a clean Slovenian deal takes the fast lane
(``tarock.accel.lane``) and the reference engine plays any other deal with the kernel's
whole-deal play; ``accel.reference()`` switches both off.  Over more than 100,000
generated deals -- random legal deals of every contract, simulated sessions with every kind
of mistake the simulator makes (each renons kind, play out of turn, illegal stash, score
slips), OpenSpiel games with named plays and early ends, and single mutations of legal
deals -- both must give the same ``Replay`` (every finding, trick, seat, winner, card point
and fact) and the same check object (scores, breakdown, radelci, audit findings).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any, Callable, Iterator

import orjson
import pytest

from tarock import accel
from tarock.sim import random_koenigrufen
from tarock.cards import CODES, KINGS
from tarock.check.checker import Checker
from tarock.deal import Deal
from tarock.engine import replay
from tarock.accel.lane import replay_slovenian
from tarock.options import options_for
from tarock.rules.slovenian.contracts import CONTRACTS
from tarock.sim.randomplay import random_record
from tarock.formats.codec import deal_from_obj
from tarock.formats.items import ReadItem
from tarock.sim.simulate import simulate_sessions

pytestmark = [pytest.mark.skipif(accel.KERNEL is None, reason="the accelerator is not built here"),
              pytest.mark.slow]  # the differential suite: ~112,000 deals both ways

RENONS = {"R_FOLLOW_SUIT", "R_MUST_TAROK", "R_MUST_OVERTRUMP", "R_PAGAT", "R_OUT_OF_TURN", "R_STASH"}


def both(deal: Deal, overrides: dict[str, Any] | None = None) -> tuple[Any, Any]:
    fast = replay(deal, overrides)
    with accel.reference():
        ref = replay(deal, overrides)
    return fast, ref


def assert_same(deal: Deal, overrides: dict[str, Any] | None = None) -> Any:
    """Equal replays (findings, tricks, seats, winners, card points, facts) and equal check objects
    (the same plus scores, breakdown, radelci and audit findings) with and without the accelerator."""
    fast, ref = both(deal, overrides)
    assert fast == ref, f"{deal.contract} {deal.id}: accelerated and reference replays differ"
    item = ReadItem("corpus.jsonl", 1, deal, None, None)
    got = Checker(overrides).check(item)
    with accel.reference():
        want = Checker(overrides).check(item)
    assert got == want, f"{deal.contract} {deal.id}: accelerated and reference check objects differ"
    return ref


def sessions_check_the_same(sessions: list[tuple[dict[str, Any], Any]],
                            overrides: dict[str, Any] | None = None) -> Counter[str]:
    """Simulated sessions checked deal by deal with and without the accelerator, each way with its own
    ledgers: the same check objects; the finding codes seen."""
    fast, ref = Checker(overrides), Checker(overrides)
    codes: Counter[str] = Counter()
    for line, (record, _truth) in enumerate(sessions, 1):
        item = ReadItem("sim.jsonl", line, deal_from_obj(record), None, None)
        got = fast.check(item)
        with accel.reference():
            want = ref.check(item)
        assert got == want, f"deal {record.get('id')} checks differently"
        codes.update(f.code for f in want.findings)
    return codes


def lane_taken(deal: Deal) -> bool:
    kernel = accel.KERNEL
    assert kernel is not None
    return replay_slovenian(deal, options_for("slovenian", deal.options), kernel) is not None  # type: ignore[arg-type]


# -- mutations: one change to a legal record ----------------------------------------------
def _swap_cards(rng: random.Random, rec: dict[str, Any]) -> None:
    tricks = rec["tricks"]
    a, b = rng.randrange(len(tricks)), rng.randrange(len(tricks))
    i, j = rng.randrange(len(tricks[a])), rng.randrange(len(tricks[b]))
    tricks[a][i], tricks[b][j] = tricks[b][j], tricks[a][i]


def _swap_tricks(rng: random.Random, rec: dict[str, Any]) -> None:
    tricks = rec["tricks"]
    a, b = rng.randrange(len(tricks)), rng.randrange(len(tricks))
    tricks[a], tricks[b] = tricks[b], tricks[a]


def _rotate_trick(rng: random.Random, rec: dict[str, Any]) -> None:
    trick = rec["tricks"][rng.randrange(len(rec["tricks"]))]
    trick.append(trick.pop(0))


def _cut_tricks(rng: random.Random, rec: dict[str, Any]) -> None:
    del rec["tricks"][rng.randrange(1, len(rec["tricks"])):]


def _short_trick(rng: random.Random, rec: dict[str, Any]) -> None:
    rec["tricks"][rng.randrange(len(rec["tricks"]))].pop()


def _hand_to_talon(rng: random.Random, rec: dict[str, Any]) -> None:
    hand = rec["hands"][rng.choice(rec["players"])]
    k = rng.randrange(len(hand))
    t = rng.randrange(len(rec["talon"]))
    if rng.random() < 0.5:
        hand[k], rec["talon"][t] = rec["talon"][t], hand[k]
    else:  # the card is dealt twice
        hand[k] = rec["talon"][t]


def _king(rng: random.Random, rec: dict[str, Any]) -> None:
    rec["called_king"] = CODES[rng.choice(KINGS)] if rng.random() < 0.8 else "T5"


def _declarer(rng: random.Random, rec: dict[str, Any]) -> None:
    rec["declarer"] = rng.choice(rec["players"])


def _contract(rng: random.Random, rec: dict[str, Any]) -> None:
    rec["contract"] = rng.choice(["klop", "tri", "dva", "ena", "solo_tri", "berac", "solo_brez", "valat",
                                  "barvni_valat", "odprti_berac"])


def _stash(rng: random.Random, rec: dict[str, Any]) -> None:
    if rec.get("stash"):
        rec["stash"][rng.randrange(len(rec["stash"]))] = CODES[rng.randrange(54)]
    else:
        rec["stash"] = [CODES[rng.randrange(54)]]


def _pick(rng: random.Random, rec: dict[str, Any]) -> None:
    rec["talon_pick"] = rng.sample(rec["talon"], rng.randrange(1, 4))


def _drop_exchange(rng: random.Random, rec: dict[str, Any]) -> None:
    rec.pop(rng.choice(["talon_pick", "stash", "talon", "hands"]), None)


def _options(rng: random.Random, rec: dict[str, Any]) -> None:
    rec["options"] = rng.choice([{"forced_pagat": "all"}, {"emperor_trick": False}, {"mondfang_any_side": True},
                                 {"forced_pagat": "never"}, {"preset": "openspiel"}])


def _announce(rng: random.Random, rec: dict[str, Any]) -> None:
    player = rng.choice(rec["players"])
    if rng.random() < 0.6:
        item: dict[str, Any] = {"player": player, "bonus": rng.choice(["trula", "kings", "pagat_ultimo",
                                                                       "king_ultimo", "valat", "mondfang"])}
    else:
        item = {"player": player, "kontra": rng.choice(["game", "trula", "pagat_ultimo"]),
                "level": rng.choice([2, 4])}
    rec.setdefault("announcements", []).append(item)


def _bidding(rng: random.Random, rec: dict[str, Any]) -> None:
    players = rec["players"]
    rec["bidding"] = [[p, rng.choice(["pass", "pass", "tri", "dva", "ena", rec["contract"]])]
                      for p in players[1:] + players[:1]]


def _name_plays(rng: random.Random, rec: dict[str, Any]) -> None:
    """Name the player of each card by turn order, sometimes naming the wrong one."""
    deal = deal_from_obj(rec)
    with accel.reference():
        ref = replay(deal)
    for t, seats in enumerate(ref.trick_seats):
        rec["tricks"][t] = [f"{rec['players'][s]}:{c}" for s, c in zip(seats, rec["tricks"][t])]
    if rng.random() < 0.5 and rec["tricks"]:
        trick = rec["tricks"][rng.randrange(len(rec["tricks"]))]
        i, j = rng.randrange(len(trick)), rng.randrange(len(trick))
        names = [x.split(":")[0] for x in trick]
        names[i], names[j] = names[j], names[i]
        trick[:] = [f"{n}:{x.split(':')[1]}" for n, x in zip(names, trick)]


MUTATIONS: tuple[Callable[[random.Random, dict[str, Any]], None], ...] = (
    _swap_cards, _swap_cards, _swap_cards, _swap_tricks, _rotate_trick, _cut_tricks, _short_trick,
    _hand_to_talon, _king, _declarer, _contract, _stash, _pick, _drop_exchange, _options, _announce, _announce,
    _bidding, _name_plays,
)


def mutated(rng: random.Random, count: int) -> Iterator[Deal]:
    """Legal random deals with one mutation each (those that still parse)."""
    made = 0
    while made < count:
        rec = random_record(rng, rng.choice((3, 4)))
        mutation = rng.choice(MUTATIONS)
        if mutation is _name_plays and any(":" in c for t in rec["tricks"] for c in t):
            continue
        mutation(rng, rec)
        try:
            deal = deal_from_obj(orjson.loads(orjson.dumps(rec)))
        except ValueError:
            continue
        made += 1
        yield deal


# -- the corpus ------------------------------------------------------------------------------
def test_random_legal_deals_of_every_contract_agree_and_take_the_lane() -> None:
    """30,000 random legal deals, 3 and 4 players, every contract (some with named plays): identical
    replays, and every one of them replayed in the fast lane."""
    rng = random.Random(20261129)
    contracts: Counter[str] = Counter()
    for i in range(30_000):
        deal = deal_from_obj(random_record(rng, rng.choice((3, 4)), named=i % 7 == 0))
        ref = assert_same(deal)
        assert not ref.findings
        assert lane_taken(deal)
        contracts[deal.contract] += 1
    assert len(contracts) == 12


def test_mutated_deals_agree() -> None:
    """30,000 legal deals with one change each (cards swapped, tricks cut, the deck, king, declarer,
    contract, talon, stash, options, announcements, bidding or named players changed): identical
    replays; the lane takes no deal the reference finds fault with."""
    rng = random.Random(7)
    codes: Counter[str] = Counter()
    lane = 0
    for deal in mutated(rng, 30_000):
        ref = assert_same(deal)
        taken = lane_taken(deal)
        assert not (taken and ref.findings), f"the lane took {deal.id}, which has findings"
        lane += taken
        codes.update(f.code for f in ref.findings)
    assert {"R_FOLLOW_SUIT", "R_MUST_TAROK", "R_MUST_OVERTRUMP", "R_PAGAT", "R_OUT_OF_TURN", "R_STASH",
            "E_NOT_IN_HAND", "E_DECK", "E_SEQUENCE", "E_KING", "E_TALON", "E_BID", "E_ANNOUNCE"} <= set(codes)
    assert 0 < lane < 30_000


@pytest.mark.parametrize("players", [4, 3])
def test_simulated_sessions_with_every_mistake_check_the_same(players: int) -> None:
    """Simulated sessions (heuristic bidding, announcements, kontras; mistakes at rate 0.3): the check
    objects -- findings, scores, breakdown, radelci, audit -- are identical with and without the
    accelerator, and the mistakes cover every renons kind."""
    sessions = simulate_sessions(players, seed=11 + players, first=0, count=750, deals_per_session=20,
                                 mistakes=0.3)
    codes = sessions_check_the_same(sessions)
    assert len(sessions) == 15_000
    assert RENONS <= set(codes)
    assert codes["A_SCORE_MISMATCH"] > 0


def test_koenigrufen_deals_agree() -> None:
    """Königrufen takes no fast lane, but its reference replay plays on the kernel: 10,000 random
    Königrufen deals, every other one with two cards swapped, replay and check the same."""
    rng = random.Random(8)
    codes: Counter[str] = Counter()
    for i in range(10_000):
        rec = random_koenigrufen.random_record(rng)
        tricks = rec["tricks"]
        if i % 2 and len(tricks) > 1:
            a, b = rng.sample(range(len(tricks)), 2)
            if tricks[a] and tricks[b]:
                x, y = rng.randrange(len(tricks[a])), rng.randrange(len(tricks[b]))
                tricks[a][x], tricks[b][y] = tricks[b][y], tricks[a][x]
        codes.update(f.code for f in assert_same(deal_from_obj(rec)).findings)
    assert {"R_FOLLOW_SUIT", "R_MUST_TAROK", "R_MUST_OVERTRUMP", "R_PAGAT", "R_LEAD_TAROK"} <= set(codes)


def test_openspiel_games_agree() -> None:
    """OpenSpiel's games (named plays, records ending when a Berač or valat is decided)."""
    openspiel = pytest.importorskip("tarock.formats.openspiel")
    pytest.importorskip("pyspiel")
    early = 0
    for game in openspiel.random_games({4: 10, 3: 8}):
        deal = openspiel.game_to_deal(game)
        ref = assert_same(deal)
        assert not ref.findings and lane_taken(deal)
        early += len(deal.tricks) < (12 if len(deal.players) == 4 else 16)
    assert early > 0


def test_overrides_reach_the_lane() -> None:
    """Options from the command line change the replay the same way in both engines."""
    rng = random.Random(3)
    for _ in range(2_000):
        deal = deal_from_obj(random_record(rng, 4))
        for overrides in ({"emperor_trick": False}, {"forced_pagat": "all"}, {"preset": "openspiel"}):
            assert_same(deal, overrides)
            assert_same(replace(deal, options={"mondfang_any_side": True}), overrides)


PALCKA = {"preset": "palcka"}
CONTRACTS_LED_BY_DECLARER = {name: c.declarer_leads for name, c in CONTRACTS.items()}


def test_palcka_replays_on_the_lane_and_agrees() -> None:
    """Palčka's table (tarock/rules/slovenian/options.py): its scoring options are the reference scorer's, but
    its replay -- no Barvni valat for 3, the declarer leading after a valat announcement, no Mondfang in solo
    brez, the Mond's holder, kontras on Klop and on the valat through the game -- is the lane's
    (``tarock.accel.declared.REPLAY``).  Random deals of every contract and players (some with the declarer's
    valat announced), and simulated sessions with announcements, kontras and mistakes, replay and check the
    same with and without the accelerator; every clean one takes the lane."""
    rng = random.Random(40)
    taken = valat_led = 0
    for i in range(6_000):
        rec = random_record(rng, rng.choice((3, 4)))
        if i % 3 == 0 and rec.get("declarer") is not None and rec["contract"] not in ("berac", "odprti_berac"):
            rec["announcements"] = [{"player": rec["declarer"], "bonus": "valat"}]
        rec["options"] = PALCKA
        deal = deal_from_obj(rec)
        ref = assert_same(deal)
        if not ref.findings:
            assert lane_taken(deal), f"{deal.contract} {deal.id}: clean under palcka, but the lane declined"
            taken += 1
            valat_led += bool(deal.announcements) and not CONTRACTS_LED_BY_DECLARER.get(deal.contract, False)
    assert taken > 3_000 and valat_led > 50
    sessions_check_the_same(simulate_sessions(4, seed=41, first=0, count=150, deals_per_session=20, mistakes=0.3),
                            PALCKA)
