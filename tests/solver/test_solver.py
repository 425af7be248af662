"""The double-dummy solver against a brute-force minimax written from the rules alone.

The brute force plays with the independent oracle's card codes and sets
(``scripts/oracle.py``: legal cards, trick winner), tries every legal card at
every turn (no alpha-beta, no ordering, no merging of equal cards) and only
remembers exact values of trick boundaries it has already solved.  Endings
are random: hands of up to four cards for 3 and 4 players, a trick in
progress or not, trula cards planted to reach the emperor trick and the
forced Pagat, point, Berač and valat goals.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import orjson
import pytest

from tarock import accel
from tarock.solver import search as solver
from tarock.solver.analyse import analyse_command, analyse_deal
from tarock.solver.position import position_before
from tarock.cards import CARD_POINTS, CODE_INDEX, CODES, mask_of
from tarock.engine import replay
from tarock.options import SlovenianOptions
from tarock.sim.randomplay import random_record
from tarock.formats.codec import deal_from_obj
from tarock.solver.search import (
    ALL_TRICKS,
    NO_TRICK,
    POINTS,
    OutOfScope,
    Position,
    cache_size,
    can_opponents_take_a_trick,
    clear_cache,
    counted,
    play,
    solve,
    value,
)
from scripts import oracle
from tests.test_engine_properties import oracle_game

POINT_CONTRACTS = ["tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena", "solo_brez"]
OPTION_SETS = [SlovenianOptions(), SlovenianOptions(emperor_trick=False, forced_pagat="negative_only"),
               SlovenianOptions(forced_pagat="off")]


def code_thirds(code: str) -> int:
    """What a card adds to a pile in thirds, from its code alone."""
    if code[0] == "T":
        pts = 5 if code in ("T1", "T21", "T22") else 1
    else:
        pts = {"K": 5, "Q": 4, "N": 3, "J": 2}.get(code[1:], 1)
    return 3 * pts - 2


def brute(pos: Position, goal: str) -> int:
    """Exact future value by full minimax: thirds still to come, or 0 / -1 for the boolean goals."""
    n = pos.n
    forced = pos.options.forced_pagat
    emperor = pos.options.emperor_trick
    side = pos.declarer_side
    king = CODES[pos.bring_home] if pos.bring_home >= 0 else None

    @cache
    def boundary(hands: tuple[frozenset[str], ...], leader: int) -> int:
        if not any(hands):
            return 0
        return inside(hands, leader, ())

    def inside(hands: tuple[frozenset[str], ...], leader: int, trick: tuple[str, ...]) -> int:
        seat = (leader + len(trick)) % n
        ok, _ = oracle.legal(set(hands[seat]), list(trick), pos.contract, forced)
        results = []
        for card in ok:
            new_hands = tuple(h - {card} if s == seat else h for s, h in enumerate(hands))
            cards = trick + (card,)
            if len(cards) < n:
                results.append(inside(new_hands, leader, cards))
                continue
            winner = (leader + oracle.winner(list(cards), pos.contract, emperor)) % n
            ours = winner in side
            if goal == POINTS:
                gain = sum(code_thirds(c) for c in cards) if ours else 0
                if king in cards and cards[oracle.winner(list(cards), pos.contract, emperor)] == king:
                    gain += pos.bring_home_thirds
                results.append(gain + boundary(new_hands, winner))
            elif (goal == NO_TRICK) == ours:
                results.append(-1)
            else:
                results.append(boundary(new_hands, winner))
        return max(results) if seat in side else min(results)

    hands = tuple(frozenset(CODES[c] for c in range(54) if h >> c & 1) for h in pos.hands)
    trick = tuple(CODES[c] for c in pos.trick)
    return inside(hands, pos.leader, trick) if trick else boundary(hands, pos.leader)


def random_ending(rng: random.Random, n: int, tricks: int, contract: str) -> Position:
    """A random position: ``tricks`` cards per hand at the start of a trick, then maybe part of the trick played."""
    deck = list(range(54))
    rng.shuffle(deck)
    if rng.random() < 0.4:  # plant the trula to reach the emperor trick and the forced Pagat
        for c in (0, 20, 21):
            deck.remove(c)
            deck.insert(rng.randrange(n * tricks), c)
    hands = tuple(mask_of(deck[s * tricks:(s + 1) * tricks]) for s in range(n))
    declarer = rng.randrange(n)
    side = {declarer}
    if n == 4 and contract in ("tri", "dva", "ena") and rng.random() < 0.7:
        side.add(rng.choice([s for s in range(n) if s != declarer]))
    pos = Position(hands, rng.randrange(n), contract, frozenset(side), options=rng.choice(OPTION_SETS),
                   banked=rng.randrange(150))
    for _ in range(rng.randrange(n)):
        legal = [c for c in range(54) if pos.legal() >> c & 1]
        pos = play(pos, rng.choice(legal))
    return pos


def expected(pos: Position, brute_value: int) -> int:
    """What ``value`` must say given the brute force's future value: counted points of the whole pile, or 0 / -1."""
    if pos.objective != POINTS:
        return -1 if pos.failed else brute_value
    return counted(pos.banked + brute_value)


CASES = [(n, contract) for n in (3, 4) for contract in POINT_CONTRACTS + ["berac", "odprti_berac", "valat",
                                                                           "barvni_valat"]
         if not (n == 3 and contract.startswith("solo_") and contract != "solo_brez")]


@pytest.mark.parametrize("n,contract", CASES)
def test_solver_matches_brute_force(n: int, contract: str) -> None:
    rng = random.Random(f"{n}{contract}")
    for i in range(30):
        pos = random_ending(rng, n, rng.choice([1, 2, 3, 3, 4] if n == 4 else [1, 2, 3, 4]), contract)
        b = brute(pos, pos.objective)
        # three piles in a row: the counted points of b, b + 1, b + 2 thirds pin the thirds down exactly
        for extra in range(3 if pos.objective == POINTS else 1):
            shifted = replace(pos, banked=pos.banked + extra)
            assert value(shifted) == expected(shifted, b), (i, extra, pos)
            clear_cache()
            assert value(shifted, rng.randrange(-5, 120)) == expected(shifted, b), (i, extra, pos)


@pytest.mark.parametrize("n", [3, 4])
def test_best_cards_and_variation(n: int) -> None:
    rng = random.Random(n)
    for _ in range(40):
        contract = rng.choice(["tri", "solo_brez", "berac", "valat"] if n == 4 else ["tri", "berac", "valat"])
        pos = random_ending(rng, n, rng.choice([2, 3]), contract)
        sol = solve(pos)
        goal = pos.objective
        target = expected(pos, brute(pos, goal))
        best = set()
        for card in (c for c in range(54) if pos.legal() >> c & 1):
            child = play(pos, card)
            if expected(child, brute(child, goal)) == target:
                best.add(card)
        assert set(sol.best_cards) == best
        end = pos
        for card in sol.variation:
            assert end.legal() >> card & 1
            end = play(end, card)
        assert end.finished or end.failed
        if goal == POINTS:
            assert counted(end.banked) == sol.points == target
        else:
            assert sol.success == (not end.failed)


def test_claims_match_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(80):
        n = rng.choice([3, 4])
        pos = random_ending(rng, n, rng.choice([1, 2, 3]), rng.choice(["tri", "berac", "solo_brez"]))
        claimer = rng.randrange(n)
        claim = Position(pos.hands, pos.leader, pos.contract, frozenset({claimer}), pos.trick, pos.options,
                         goal=ALL_TRICKS)
        assert can_opponents_take_a_trick(pos, {claimer}) == (brute(claim, ALL_TRICKS) < 0)


def test_claims_work_in_klop() -> None:
    hands = (mask_of([CODE_INDEX["T22"]]), mask_of([CODE_INDEX["T2"]]), mask_of([CODE_INDEX["T3"]]))
    pos = Position(hands, 1, "klop", frozenset({0}))
    assert not can_opponents_take_a_trick(pos, {0})
    assert can_opponents_take_a_trick(pos, {1})


def test_bring_home_king_adds_the_talon() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(400):
        pos = random_ending(rng, 4, rng.choice([3, 4]), "tri")
        kings = [k for k in (29, 37, 45, 53) if pos.hands[min(pos.declarer_side)] >> k & 1]
        if not kings or len(pos.declarer_side) != 1:
            continue
        pos = Position(pos.hands, pos.leader, pos.contract, pos.declarer_side, pos.trick, pos.options,
                       bring_home=kings[0], bring_home_thirds=rng.choice([4, 40, 90]))
        assert value(pos) == expected(pos, brute(pos, POINTS))
        checked += 1
    assert checked > 10


def test_klop_is_out_of_scope() -> None:
    pos = Position((1, 2, 4), 0, "klop", frozenset({0}))
    with pytest.raises(OutOfScope):
        value(pos)


def test_thirds_count_like_the_engine() -> None:
    assert sum(3 * p - 2 for p in CARD_POINTS) == 210


# -- analysis of recorded deals ---------------------------------------------------------------------
def recorded(seed: int, contract: str, n: int = 4):
    return deal_from_obj(random_record(random.Random(seed), n, contract))


@pytest.mark.parametrize("contract", ["tri", "solo_dva", "solo_brez"])
def test_analysis_points_add_up(contract: str) -> None:
    """Point losses of one side add up to the gap between the best result and what it made."""
    deal = recorded(3, contract)
    report = analyse_deal(deal, 9)
    rp = replay(deal)
    made = rp.card_points["declarer_side"]
    side = {rp.player(s) for s in (rp.declarer, rp.partner) if s is not None}
    lost_by_side = sum(c["point_loss"] for c in report["cards"] if c["player"] in side)
    gained_by_opponents = sum(c["point_loss"] for c in report["cards"] if c["player"] not in side)
    assert report["best"]["declarer_side"] - lost_by_side + gained_by_opponents == made
    assert len(report["cards"]) == 16 and all(c["point_loss"] >= 0 for c in report["cards"])


SOLVED_4 = POINT_CONTRACTS + ["berac", "odprti_berac", "valat", "barvni_valat"]
SOLVED_3 = [c for c in SOLVED_4 if not c.startswith("solo_") or c == "solo_brez"]


@pytest.mark.parametrize("n", [3, 4])
def test_positions_replay_to_the_engine_result(n: int) -> None:
    """From any trick, playing the recorded cards with ``play`` ends where the engine ends.

    Card points in the point contracts (stash, unchosen talon and a talon
    brought home by the called king included), a Berač or valat lost.
    """
    rng = random.Random(n)
    for i in range(150):
        deal = deal_from_obj(random_record(rng, n, rng.choice(SOLVED_4 if n == 4 else SOLVED_3)))
        check_replay_from(rng, deal, i)


def test_a_talon_brought_home_by_the_called_king() -> None:
    """Records whose called king lies in the talon group the declarer takes (docs/rules.md: the talon comes home)."""
    rng = random.Random(5)
    seen = pending = 0
    while seen < 40:
        record = random_record(rng, 4, rng.choice(["tri", "dva", "ena"]))
        kings = [k for k in record["talon_pick"] if k.endswith("K")]
        if not kings:
            continue
        record["called_king"] = kings[0]
        deal = deal_from_obj(record)
        pending += check_replay_from(rng, deal, seen).bring_home >= 0
        seen += 1
    assert pending >= 5


def check_replay_from(rng: random.Random, deal, i: int) -> Position:
    """Play the recorded cards from a random trick with ``play``; the end must match the engine's."""
    rp = replay(deal)
    start = rng.randrange(1, len(rp.tricks) + 1)
    pos = first = position_before(rp, start)
    for cards in rp.tricks[start - 1:]:
            for card in cards:
                assert pos.legal() >> card & 1
                pos = play(pos, card)
    assert pos.finished
    if pos.objective == POINTS:
        assert counted(pos.banked) == rp.card_points["declarer_side"], i
    else:
        assert pos.failed == (rp.facts.declarer_took_trick or rp.facts.declarer_lost_trick), i
    return first


def test_analysis_of_berac_and_valat() -> None:
    for contract, key in (("berac", "declarer_takes_trick"), ("valat", "declarer_takes_all")):
        report = analyse_deal(recorded(5, contract), 10)
        assert isinstance(report["best"][key], bool)
        assert all(c["point_loss"] in (0, 1) for c in report["cards"])


def test_analysis_of_klop_says_out_of_scope() -> None:
    report = analyse_deal(recorded(6, "klop"), 10)
    assert report == {"id": report["id"], "from_trick": 10, "error": "Klop has no sides; the solver does not apply"}


def test_analysis_rejects_a_trick_out_of_range() -> None:
    assert "error" in analyse_deal(recorded(7, "tri"), 13)
    assert "error" in analyse_deal(recorded(7, "tri", 3), 0)


def test_analysis_of_a_renons() -> None:
    """An illegal card is analysed like any other; the deal is not refused."""
    rng = random.Random(12)
    record, expected = oracle_game(rng, 4, "solo_tri", illegal_at=4 * 9 + 1)
    assert expected is not None
    report = analyse_deal(deal_from_obj(record), 10)
    assert "error" not in report
    assert [c["card"] for c in report["cards"] if c["trick"] == expected["trick"]][expected["position"]] == \
        expected["card"]


def test_analyse_command_json_and_text(tmp_path) -> None:
    lines = [orjson.dumps(random_record(random.Random(s), 4, "tri")).decode() for s in (1, 2)] + ["{not json"]
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join(lines) + "\n")
    reports = list(analyse_command([path], 11, "json"))
    assert [("best" in r, "error" in r) for r in reports] == [(True, False), (True, False), (False, True)]
    assert reports[2]["id"] is None and reports[2]["line"] == 3
    text = list(analyse_command([path], 11, "text"))
    assert sum("with best play the declarer side makes" in line for line in text) == 2
    assert text[-1].endswith(reports[2]["error"])


def test_solution_of_a_valat_has_points_too() -> None:
    pos = random_ending(random.Random(3), 4, 3, "valat")
    sol = solve(pos)
    assert sol.success is not None
    assert sol.points == value(replace(pos, goal=POINTS))


def test_tables_are_kept_across_calls_and_can_be_cleared() -> None:
    clear_cache()
    value(random_ending(random.Random(4), 4, 4, "tri"))
    assert cache_size() > 0
    clear_cache()
    assert cache_size() == 0


def test_analysis_of_records_that_stop_early() -> None:
    """A claim or a Berač decided early: the cards played are analysed, a trick after the end is refused."""
    record = random_record(random.Random(8), 4, "tri")
    record["tricks"] = record["tricks"][:9]
    record["claim"] = {"player": record["declarer"], "after_trick": 9}
    claimed = deal_from_obj(record)
    assert len(analyse_deal(claimed, 8)["cards"]) == 8
    after = analyse_deal(claimed, 10)
    assert after["cards"] == [] and "declarer_side" in after["best"]
    assert "error" in analyse_deal(claimed, 11)

    rng = random.Random(9)
    while True:
        record = random_record(rng, 4, "berac")
        rp = replay(deal_from_obj(record))
        taken = [t for t, w in enumerate(rp.winners) if w == rp.declarer]
        if taken and taken[0] < 10:
            break
    record["tricks"] = record["tricks"][:taken[0] + 1]
    report = analyse_deal(deal_from_obj(record), taken[0] + 1)
    assert len(report["cards"]) == 4
    declarer_slipped = any(c["point_loss"] == 1 and c["player"] == record["declarer"] for c in report["cards"])
    assert report["best"]["declarer_takes_trick"] != declarer_slipped


def test_full_tables_shrink_without_changing_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference's table, limited to 40 entries, drops positions and still finds the brute force's values."""
    monkeypatch.setattr(solver, "_TT_LIMIT", 40)
    monkeypatch.setattr(solver, "_MOVES_LIMIT", 20)
    rng = random.Random(13)
    with accel.reference():
        for _ in range(20):
            clear_cache()
            pos = random_ending(rng, 4, 4, "solo_tri")
            assert value(pos) == expected(pos, brute(pos, POINTS))
            assert cache_size() <= 40


@pytest.mark.skipif(accel.SOLVER is None, reason="the compiled solver core was not built")
def test_a_tiny_compiled_table_replaces_entries_without_changing_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled core's table of 16 entries (4 buckets of 4) is full at once: replaced entries must not change
    a value, and the table never holds more than it has room for."""
    monkeypatch.setattr(solver, "_CORE_TT_BITS", 4)
    rng = random.Random(14)
    for _ in range(20):
        clear_cache()
        pos = random_ending(rng, 4, 4, rng.choice(["solo_tri", "tri", "valat"]))
        assert value(pos) == expected(pos, brute(pos, pos.objective))
        assert cache_size() <= 16


@pytest.mark.skipif(accel.SOLVER is None, reason="the compiled solver core was not built")
def test_a_growing_compiled_table_keeps_its_entries_and_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled core's table starts at 16 entries and doubles (every entry moved to its new bucket) when three
    quarters full, up to 256: values stay the brute force's, the table holds more than it started with once a
    search needed it, and never more than its largest size."""
    monkeypatch.setattr(solver, "_CORE_TT_START_BITS", 4)
    monkeypatch.setattr(solver, "_CORE_TT_BITS", 8)
    rng = random.Random(15)
    grown = 0
    for _ in range(20):
        clear_cache()
        pos = random_ending(rng, 4, 4, rng.choice(["solo_tri", "tri", "valat"]))
        assert value(pos) == expected(pos, brute(pos, pos.objective))
        assert cache_size() <= 256
        grown += cache_size() > 16
    assert grown  # four-trick endings fill 16 entries: the table grew


def test_summarise_counts_each_players_losses_by_hand() -> None:
    # Two reports whose losses are set by hand: a Tri (point contract) where Ana loses 3 and 0 and Boris 5;
    # a Berač where Boris gives the game away once (loss 1) and Ana loses nothing; an unreadable record.
    from tarock.solver.analyse import summarise

    tri = {"id": "d1", "best": {"declarer_side": 40}, "cards": [
        {"trick": 11, "player": "Ana", "card": "HK", "point_loss": 3, "best_cards": ["HQ", "H1"]},
        {"trick": 11, "player": "Boris", "card": "T2", "point_loss": 5},
        {"trick": 12, "player": "Ana", "card": "S7", "point_loss": 0},
        {"trick": 12, "player": "Boris", "card": "T3", "point_loss": -1},  # an illegal card's gain: no loss
    ]}
    berac = {"id": "d2", "best": {"declarer_takes_trick": False}, "cards": [
        {"trick": 10, "player": "Boris", "card": "D4", "point_loss": 1},
        {"trick": 10, "player": "Ana", "card": "D3", "point_loss": 0},
    ]}
    out = summarise([tri, berac, {"id": None, "error": "unreadable"}])
    assert list(out) == ["Ana", "Boris"]
    ana, boris = out["Ana"], out["Boris"]
    # Ana: 3 cards, 2 in the Tri losing 3 in all (1.5 per card), no game given away.
    assert (ana.cards, ana.point_cards, ana.points_lost, ana.games_given_away) == (3, 2, 3, 0)
    assert ana.mean_loss == 1.5 and ana.biggest == [(3, "d1", 11, "HK", ("HQ", "H1"))]
    # Boris: 3 cards, 2 in the Tri losing 5 (the negative loss counts 0), the Berač given away once.
    assert (boris.cards, boris.point_cards, boris.points_lost, boris.games_given_away) == (3, 2, 5, 1)
    assert boris.biggest == [(5, "d1", 11, "T2", ())]  # a report without best cards names none


@pytest.mark.parametrize("n,contract", [(4, "tri"), (4, "solo_ena"), (3, "dva"), (4, "berac"), (3, "valat")])
def test_analysis_names_the_best_cards_and_points_like_the_brute_force(n: int, contract: str) -> None:
    """Every card of a deal's last three tricks: the points its side could make before it and after it, and
    the cards that keep the best, recomputed with the brute force from the same positions.  A side's points:
    the declarer side's counted points, the others' the rest of the deck's 70 (docs/rules.md: 106 raw points
    less 2/3 a card for 54 cards); in Berač and the valats 1 when the side reaches its aim, else 0."""
    deal = deal_from_obj(random_record(random.Random(f"best{n}{contract}"), n, contract))
    rp = replay(deal)
    last = len(rp.tricks) - 2
    report = analyse_deal(deal, last)
    pos = position_before(rp, last)
    goal = pos.objective

    def side(p: Position, ours: bool) -> int:
        v = expected(p, brute(p, goal))
        if goal == POINTS:
            return v if ours else 70 - v
        return int((v == 0) == ours)

    cards = [(card, seat) for t in range(last - 1, len(rp.tricks))
             for card, seat in zip(rp.tricks[t], rp.trick_seats[t])]
    assert len(report["cards"]) == len(cards)
    for row, (card, seat) in zip(report["cards"], cards):
        ours = seat in pos.declarer_side
        best = side(pos, ours)
        legal = [c for c in range(54) if pos.legal() >> c & 1]
        assert row["best_points"] == best
        assert set(row["best_cards"]) == {CODES[c] for c in legal if side(play(pos, c), ours) == best}
        pos = play(pos, card)
        assert row["played_points"] == side(pos, ours)
        assert row["point_loss"] == row["best_points"] - row["played_points"]
        assert (CODES[card] in row["best_cards"]) == (row["point_loss"] == 0)
