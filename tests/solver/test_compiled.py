"""The compiled solver core (tarock/accel/_solver.c) against the pure-Python reference and the brute force.

Three answers to one question must agree: the compiled core (``value`` when the core is built and the options
declared), the reference search (``value`` under ``accel.reference()``) and the brute-force minimax of
tests/solver/test_solver.py, which plays by the independent oracle's rules (``scripts/oracle.py``).  Endings
are random (``random_ending``: up to four cards a hand, a trick in progress or not, the trula planted often
enough to reach the emperor trick and the forced Pagat, three option sets), for 3 and 4 players and every
contract the solver covers (Klop is out of scope).  The quick test draws 120 examples, the ``slow`` one 1,200;
a ``slow`` test also compares whole deals from trick 4 on with the reference.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarock import accel
from tarock.engine import replay
from tarock.formats.codec import deal_from_obj
from tarock.sim.randomplay import random_record
from tarock.solver.analyse import analyse_deal
from tarock.solver.position import position_before
from tarock.cards import SKIS, mask_of
from tarock.solver.search import POINTS, Position, clear_cache, node_count, search_stats, solve, value
from tests.solver.test_solver import CASES, OPTION_SETS, brute, expected, random_ending

pytestmark = pytest.mark.skipif(accel.SOLVER is None, reason="the compiled solver core was not built")

ENDINGS = st.tuples(st.sampled_from(CASES), st.integers(0, 2**32), st.integers(1, 4))


def _check(case: tuple[int, str], seed: int, tricks: int) -> None:
    """One random ending: the compiled value, the reference's and the brute force's agree, for three piles in
    a row (which pin the thirds down: docs/rules.md counts a pile in thirds) and with a wrong guess."""
    n, contract = case
    rng = random.Random(seed)
    pos = random_ending(rng, n, min(tricks, 3) if n == 4 else tricks, contract)
    b = brute(pos, pos.objective)
    for extra in range(3 if pos.objective == POINTS else 1):
        shifted = replace(pos, banked=pos.banked + extra)
        want = expected(shifted, b)
        clear_cache()
        assert value(shifted) == want, (seed, extra, shifted)
        assert value(shifted, rng.randrange(-5, 120)) == want, (seed, extra, shifted)
        with accel.reference():
            clear_cache()
            assert value(shifted) == want, (seed, extra, shifted)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ENDINGS)
def test_compiled_equals_reference_and_brute_force(ending: tuple[tuple[int, str], int, int]) -> None:
    _check(*ending)


@pytest.mark.slow
@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ENDINGS)
def test_compiled_equals_reference_and_brute_force_many(ending: tuple[tuple[int, str], int, int]) -> None:
    _check(*ending)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(CASES), st.integers(0, 2**32))
def test_compiled_best_cards_and_variation_are_the_references(case: tuple[int, str], seed: int) -> None:
    """``solve`` (value, best cards, a line of best play) gives the same answer on the compiled core and the
    reference: the best cards are every card whose value is the optimum, so they must be the same set."""
    n, contract = case
    pos = random_ending(random.Random(seed), n, 3, contract)
    clear_cache()
    fast = solve(pos)
    with accel.reference():
        clear_cache()
        slow = solve(pos)
    assert (fast.points, fast.success, set(fast.best_cards)) == (slow.points, slow.success, set(slow.best_cards))


WHOLE_DEALS = [(4, "tri", 1), (4, "solo_dva", 2), (4, "dva", 3), (4, "solo_ena", 4), (4, "ena", 5),
               (3, "tri", 6), (3, "dva", 7), (3, "ena", 8)]


@pytest.mark.slow
@pytest.mark.parametrize("n,contract,seed", WHOLE_DEALS)
def test_whole_deals_from_the_last_9_tricks_agree_with_the_reference(n: int, contract: str, seed: int) -> None:
    """Random complete deals, analysed over their last nine tricks (trick 4 of 12, trick 8 of 16: the
    reference takes seconds there, minutes from trick 1): the best result and every card's point loss are the
    same on both."""
    deal = deal_from_obj(random_record(random.Random(seed), n, contract))
    start = 4 if n == 4 else 8
    position_before(replay(deal), start)  # the deal is analysable
    clear_cache()
    fast = analyse_deal(deal, start)
    with accel.reference():
        clear_cache()
        slow = analyse_deal(deal, start)
    assert fast["best"] == slow["best"]
    assert [c["point_loss"] for c in fast["cards"]] == [c["point_loss"] for c in slow["cards"]]


AGREEMENT = [(4, 6, 120), (3, 9, 100)]
"""(players, from trick, deals): 220 generated deals, each solved from the latest trick the reference finishes in
well under a second (about 0.2 s a 4-player deal from trick 6, 0.07 s a 3-player deal from trick 9, on one
core); from trick 1 it takes minutes a deal, so no whole deal is compared here."""


@pytest.mark.slow
@pytest.mark.parametrize("n,from_trick,deals", AGREEMENT)
def test_generated_deals_agree_with_the_reference_from_a_late_trick(n: int, from_trick: int, deals: int) -> None:
    """The compiled core (its sure-points bounds, orderings and growing table included) and the reference give the
    same value, from a cold table each, on many random complete deals of every point contract the generator plays
    (Tri … Solo ena with 4 players, Tri, Dva, Ena with 3)."""
    contracts = ("tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena") if n == 4 else ("tri", "dva", "ena")
    for index in range(deals):
        rng = random.Random(f"agreement-{n}-{index}")
        pos = position_before(replay(deal_from_obj(random_record(rng, n, rng.choice(contracts)))), from_trick)
        clear_cache()
        fast = value(pos)
        with accel.reference():
            clear_cache()
            assert value(pos) == fast, (n, index)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(CASES), st.integers(0, 2**32))
def test_the_table_tells_apart_the_same_cards_in_other_hands(case: tuple[int, str], seed: int) -> None:
    """The core's table keys (tarock/accel/_solver.c, ``main_key`` and ``sim_key``) hold the live cards and
    which cards the odd seats and seats 2 and 3 hold -- two bits of owner per card -- rather than each hand:
    the same cards dealt to other seats must be another entry.  Every way of handing one deal's three-card
    hands to the seats is solved on one warm table (no ``clear_cache`` between them), so an entry of one
    would answer for another if the owner bits were lost, and each value must be the brute force's."""
    n, contract = case
    rng = random.Random(seed)
    deck = list(range(54))
    rng.shuffle(deck)
    hands = tuple(mask_of(deck[3 * s:3 * s + 3]) for s in range(n))
    declarer = rng.randrange(n)
    side = {declarer, rng.randrange(n)} if n == 4 and contract in ("tri", "dva", "ena") else {declarer}
    pos = Position(hands, rng.randrange(n), contract, frozenset(side), options=rng.choice(OPTION_SETS),
                   banked=rng.randrange(150))
    clear_cache()
    for order in itertools.permutations(range(n)):
        moved = replace(pos, hands=tuple(hands[s] for s in order))
        assert value(moved) == expected(moved, brute(moved, moved.objective)), (seed, order)


def _settled_on_endings(seed: str, counter: str) -> int:
    """How often the core's ``counter`` settled a node on the last five tricks of 24 generated deals (4 players
    from trick 8, 3 players from trick 12), each value asserted equal to the reference's."""
    settled = 0
    for n, from_trick in ((4, 8), (3, 12)):
        contracts = ("tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena") if n == 4 else ("tri", "dva", "ena")
        for index in range(12):
            rng = random.Random(f"{seed}-{n}-{index}")
            pos = position_before(replay(deal_from_obj(random_record(rng, n, rng.choice(contracts)))), from_trick)
            clear_cache()
            fast = value(pos)
            settled += search_stats()[counter]
            with accel.reference():
                clear_cache()
                assert value(pos) == fast, (n, index)
    return settled


def test_payoff_similarity_settles_positions_and_keeps_the_values() -> None:
    """The payoff-similarity table (tarock/accel/_solver.c, ``sim_bounds``) bounds a position by a searched one of
    the same coarse key, the cards of a suit in rank order, less or plus the points that differ place by place.
    On the last five tricks of generated deals (4 players, from trick 8; 3 players, from trick 12) it settles
    positions -- so the bound is exercised -- and every value is still the reference's, which has no such
    table."""
    assert _settled_on_endings("similar", "sim_cut") > 0


def test_the_last_trick_is_counted_at_the_root_without_the_table() -> None:
    """One card a hand in Valat: the only question is whether the declarer takes this trick, one
    null-window probe (docs/solver.md: boolean goals are one search in {-1, 0}) that ends at the root, a trick
    boundary with one card a hand, counted without a search: one node, one boundary, ended as the last trick,
    no table entry.  Seat 0 leads the Škis (T22), the highest card, and is the declarer: it takes the trick,
    so the valat holds."""
    hands = (mask_of([SKIS]), mask_of([30]), mask_of([31]), mask_of([32]))
    clear_cache()
    assert value(Position(hands, 0, "valat", frozenset({0}))) == 0
    stats = search_stats()
    counted = (node_count(), stats["boundary"], stats["last_trick"], stats["tt_probe"], stats["stores"])
    assert counted == (1, 1, 1, 0, 0)


@pytest.mark.parametrize("n,contract", [(4, "dva"), (3, "tri"), (4, "berac")])
def test_search_counters_add_up(n: int, contract: str) -> None:
    """The core's counters (``search_stats``) partition what the search did, by their definitions in
    tarock/accel/_solver.c: every trick boundary visited ends by the points still live, by sure points, as the
    last trick, or probes the table; a probe the table does not settle is settled by payoff-similarity or searched
    and stored once; the boundaries by cards in hand add up to the boundaries and to the searched ones; a node
    cut off by its first move is a cut-off node; every boundary is a node."""
    rng = random.Random(f"stats-{n}-{contract}")
    clear_cache()
    for _ in range(3):
        value(random_ending(rng, n, 4, contract))
    s = search_stats()
    assert s["boundary"] > 0
    assert s["boundary"] == s["cut_rem"] + s["cut_sure"] + s["last_trick"] + s["tt_probe"]
    assert s["tt_cut"] <= s["tt_found"] <= s["tt_probe"]
    # a probe the table does not settle asks the payoff-similarity table, which may settle it instead
    assert s["sim_cut"] <= s["sim_found"] <= s["tt_probe"] - s["tt_cut"]
    assert s["stores"] == s["tt_probe"] - s["tt_cut"] - s["sim_cut"]
    assert sum(s[f"visits_at_{k}"] for k in range(1, 19)) == s["boundary"]
    assert sum(s[f"expanded_at_{k}"] for k in range(1, 19)) == s["stores"]
    assert s["cut_first"] <= s["cut_nodes"]
    assert node_count() >= s["boundary"]
    if contract == "berac":  # no points goal: neither points bound applies, nor payoff-similarity
        assert s["cut_rem"] == s["cut_sure"] == s["sim_found"] == 0


def test_enhanced_transposition_cutoff_settles_nodes_and_keeps_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last seat's enhanced transposition cutoff (tarock/accel/_solver.c, ``etc_cut``) bounds each card's
    completed trick by the next boundary's table entry before searching any; the core tries it from 8 cards a
    hand (``_CORE_ETC_MIN_CARDS``), out of reach of the reference.  Tried from 2 cards a hand on, on the last
    five tricks of generated deals (4 players, from trick 8; 3 players, from trick 12), it settles nodes -- so the
    cutoff is exercised -- and every value is still the reference's, which has no such cutoff."""
    from tarock.solver import search

    monkeypatch.setattr(search, "_CORE_ETC_MIN_CARDS", 2)
    assert _settled_on_endings("etc", "etc_cut") > 0


def test_a_settled_trick_searches_one_card_a_chain_and_keeps_the_values() -> None:
    """Where a trick's winning side is settled whatever the seat to play gives, the core searches one card of each
    chain of its cards lying next to one another among the live cards of a suit (tarock/accel/_solver.c,
    ``settled_cards``): the dearest for its own side's trick, else the cheapest.  On the last five tricks of
    generated deals it leaves cards out -- so the rule is exercised -- and every value is still the reference's,
    which searches every such card."""
    assert _settled_on_endings("settled", "settled") > 0


def test_the_settled_trick_rule_keeps_values_and_best_cards_on_the_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    """The settled-trick rule on played deals near the threshold (the bundled sample's first judgeable deals of
    each size, where the rule pays: bench/bench_solver.py ``--sample``): every value and set of best cards from
    trick 8 (4 players) and 12 (3 players) is the same with the rule and without it (``_CORE_SETTLED``), each from
    a cold table."""
    from pathlib import Path

    from tarock.formats.reader import read_records
    from tarock.solver import search
    from tarock.solver.position import AnalysisError

    sample = Path(__file__).resolve().parents[2] / "data" / "sample"
    checked = 0
    for name, from_trick in (("sample-4p.jsonl.gz", 8), ("sample-3p.jsonl.gz", 12)):
        positions: list[Position] = []
        for item in read_records(sample / name):
            if item.deal is None or item.deal.ruleset != "slovenian":
                continue
            try:
                positions.append(position_before(replay(item.deal), from_trick))
            except AnalysisError:
                continue
            if len(positions) == 12:
                break
        for pos in positions:
            answers = []
            for settled in (True, False):
                monkeypatch.setattr(search, "_CORE_SETTLED", settled)
                clear_cache()
                answers.append((search.value(pos), search.best_cards(pos)))
            assert answers[0] == answers[1], (name, pos)
            checked += 1
    assert checked == 24


@pytest.mark.parametrize("hands,target", [
    # seat 0: XX, XIX, H4; the opponents' only tarok the Škis: 2 taroks, 1 beatable -> 1 trick, 4 thirds,
    # so at least round(4/3) = 1 counted point
    ((mask_of([19, 18, 22]), mask_of([SKIS, 38, 39]), mask_of([40, 41, 46]), mask_of([47, 48, 49])), 1),
    # seat 0: XX, XIX, XVIII, H4: 3 taroks, 1 beatable -> 2 tricks of four cards, at least 8 thirds = 3 points
    ((mask_of([19, 18, 17, 22]), mask_of([SKIS, 38, 39, 43]), mask_of([40, 41, 46, 44]), mask_of([47, 48, 49, 50])),
     3),
])
def test_a_hand_with_more_high_taroks_than_the_other_side_can_beat_surely_takes_tricks(hands: tuple[int, ...],
                                                                                       target: int) -> None:
    """The high taroks' sure tricks (tarock/accel/_solver.c, ``tarok_tricks``): seat 0 (declarer, partner seat 2)
    holds i of the XX, XIX, XVIII, the opponents only the Škis above them and no Pagat (no emperor trick).  Seat 0
    plays its taroks in tricks of their own and the Škis falls in one trick only, so i - 1 of them take a trick of
    four cards, each card at least a third (docs/solver.md): at least 4 (i - 1) thirds, the side's counted points
    round(thirds / 3) at least ``target``.  The opponents hold the highest tarok, so the top taroks' sure tricks
    are theirs, and seat 0 cannot cash the H4 (seat 1 holds a tarok and no heart): without these sure tricks
    nothing settles the question "at least ``target`` points?" at the root.  With them the root's trick boundary
    ends by sure points: one node, no table probe -- and the brute force agrees."""
    from tarock.solver.search import at_least

    pos = Position(hands, 0, "dva", frozenset({0, 2}))
    clear_cache()
    assert at_least(pos, target)
    stats = search_stats()
    assert (node_count(), stats["boundary"], stats["cut_sure"], stats["tt_probe"]) == (1, 1, 1, 0)
    assert expected(pos, brute(pos, POINTS)) >= target
