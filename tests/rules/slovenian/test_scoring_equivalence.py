"""The optimised slovenian scorer gives exactly what the scorer before issue 11 gave.

``tarock.rules.slovenian.scoring`` was rewritten for speed (issue 11: precomputed texts and
per-contract constants, lines emitted in order, the renons machinery skipped
without offenders).  ``tests/support/scoring_reference.py`` is a verbatim copy of the
scorer as it was before; these tests score the same facts with both and
require identical results: every line's players, component, detail, value
and basis (keys in the same order), the scores and radelci dicts with the
same key order, and every other field, values and types.

The expected values are the frozen scorer's, not numbers worked out by hand:
the rules themselves are pinned by the hand-worked tests of test_scoring.py.
The corpus: ≥ 30,000 replayed random deals of 3 and 4 players under several
option sets, with radelci carried through sessions as ``Checker`` carries
them, random radelci and injected renonses; simulated sessions with mistakes
(renonses, kontras, announcements) replayed under every penalty policy; the
sample data; and hypothesis's random facts of test_scoring.py.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import fields, replace
from typing import Any, Callable, Iterable, Iterator, Mapping

import pytest
from hypothesis import given, settings

from tarock.rules.slovenian import scoring
from tarock.engine import replay
from tarock.facts import DealFacts
from tarock.options import DEFAULT_SLOVENIAN, PENALTIES, SlovenianOptions
from tarock.sim.randomplay import random_record
from tarock.formats.codec import deal_from_obj
from tarock.formats.reader import read_records
from tarock.sim.simulate import simulate_sessions
from tarock.rules.slovenian.contracts import CONTRACTS, allowed_contract
from tests.support import scoring_reference as reference
from tests.rules.slovenian.test_scoring import deal_facts
from tests.support.paths import ROOT

SAMPLES = ROOT / "data" / "sample"

OPTION_SETS: tuple[SlovenianOptions, ...] = (
    DEFAULT_SLOVENIAN,
    replace(DEFAULT_SLOVENIAN, diff_rounding="none", silent_pagat_failure=False),
    replace(DEFAULT_SLOVENIAN, radelci=False, mondfang_value=20),
    replace(DEFAULT_SLOVENIAN, radelc_scope="each_player", klop_radelc_double=False),
    replace(DEFAULT_SLOVENIAN, penalty="austrian_renonce", mondfang_value=20),
    replace(DEFAULT_SLOVENIAN, penalty="annul", radelc_scope="each_player"),
    replace(DEFAULT_SLOVENIAN, penalty="record_as_played", diff_rounding="none"),
    replace(DEFAULT_SLOVENIAN, penalty="jass_trick_forfeit", klop_radelc_double=False),
)
"""Option sets the replayed random deals are scored under (every scoring option moves somewhere)."""


# --- comparing results -------------------------------------------------------------------------


def _mapping(m: Mapping[str, Any] | None) -> Any:
    """A dict as its type, its items in order and their values' types."""
    if m is None:
        return None
    return type(m).__name__, list(m.items()), [type(v).__name__ for v in m.values()]


def _line(line: Any) -> tuple[Any, ...]:
    return (
        type(line).__name__,
        line.players,
        line.component,
        line.detail,
        line.value,
        type(line.value).__name__,
        _mapping(line.basis),
    )


def _fields(result: Any) -> dict[str, Any]:
    """Every field of a ScoreResult of either module, comparable across the two classes."""
    return {
        "class": type(result).__name__,
        "lines": (type(result.lines).__name__, [_line(line) for line in result.lines]),
        "scores": _mapping(result.scores),
        "radelci_before": _mapping(result.radelci_before),
        "radelci_after": _mapping(result.radelci_after),
        "won": (result.won, type(result.won).__name__),
        "unpenalised": _mapping(result.unpenalised),
        "policy": result.policy,
        "contract": result.contract,
        "declarer": result.declarer,
        "cancelled": (type(result.cancelled).__name__, result.cancelled),
        "award_reason": result.award_reason,
        "ruleset": result.ruleset,
        "field_names": [f.name for f in fields(result)],
    }


def _outcome(score: Callable[..., Any], facts: DealFacts, before: Mapping[str, int] | None) -> Any:
    try:
        return _fields(score(facts, before))
    except (ValueError, KeyError, IndexError) as exc:
        return ("raises", type(exc).__name__, str(exc))


class Tally:
    """Compares the two scorers deal by deal and counts what the corpus covered."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def check(self, facts: DealFacts, before: Mapping[str, int] | None) -> Any:
        """Score with both; fail on the first difference; return the reference's result."""
        want = reference.score_deal(facts, before)
        got = scoring.score_deal(facts, before)
        assert _fields(got) == _fields(want), (facts, before)
        self._count(facts, want)
        return want

    def _count(self, facts: DealFacts, result: Any) -> None:
        seen = self.seen
        seen["deals"] += 1
        seen[f"players_{len(facts.players)}"] += 1
        seen[f"contract_{facts.contract}"] += 1
        seen[f"policy_{result.policy}"] += 1
        seen["offenders"] += bool(facts.offenders)
        seen["kontra"] += bool(facts.kontra)
        seen["announced"] += bool(facts.announced)
        seen["forfeit_applied"] += facts.as_played is not None
        seen["cancelled"] += bool(result.cancelled)
        seen["award"] += result.award_reason is not None
        for line in result.lines:
            seen[f"line_{line.component}"] += 1


def _scored_in_sessions(
    tally: Tally, deals: Iterable[tuple[str | None, DealFacts]]
) -> None:
    """Score ``(session, facts)`` in order with radelci carried per session, as ``Checker`` does."""
    ledgers: dict[str | None, dict[str, int]] = {}
    for i, (session, facts) in enumerate(deals):
        ledger = {} if session is None else ledgers.setdefault(session, {})
        before = {name: ledger.get(name, 0) for name in facts.players}
        ledger.update(tally.check(facts, before).radelci_after)
        if i % 7 == 0:  # no ledger given (seats rotate: the result still lists them in playing order)
            tally.check(facts, None if i % 2 else {})


def _replayed_random(rng: random.Random, n_players: int, count: int) -> Iterator[DealFacts]:
    while count:
        facts = replay(deal_from_obj(random_record(rng, n_players))).facts
        if facts is not None:
            count -= 1
            yield facts


# --- the corpus ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n_players, count, seed", [(3, 12_000, 3), (4, 18_000, 4)])
def test_replayed_random_deals(n_players: int, count: int, seed: int) -> None:
    """Random legal deals, each scored three ways: in a session, with random radelci, with a renons."""
    rng = random.Random(seed)
    tally = Tally()
    ledgers: list[dict[str, int]] = [{} for _ in OPTION_SETS]
    for i, facts in enumerate(_replayed_random(rng, n_players, count)):
        which = i % len(OPTION_SETS)
        facts = replace(facts, options=OPTION_SETS[which])
        # 1. Radelci carried through a session of 20 deals per option set.
        if i % (20 * len(OPTION_SETS)) < len(OPTION_SETS):
            ledgers[which] = {}
        ledger = ledgers[which]
        before = {name: ledger.get(name, 0) for name in facts.players}
        ledger.update(tally.check(facts, before).radelci_after)
        # 2. Random radelci (sometimes none given at all).
        radelci = {name: rng.choice((0, 0, 1, 2)) for name in facts.players}
        tally.check(facts, None if i % 11 == 0 else radelci)
        # 3. A renons by one or two players, under the option set's policy.
        if i % 3 == 0:
            offenders = tuple(rng.randrange(n_players) for _ in range(rng.choice((1, 1, 2))))
            radelci = {name: rng.choice((0, 1)) for name in facts.players}
            tally.check(replace(facts, offenders=offenders), radelci)
    seen = tally.seen
    assert seen[f"players_{n_players}"] >= count
    for contract in scoring.CONTRACT_VALUES:
        if allowed_contract(CONTRACTS[contract], n_players):
            assert seen[f"contract_{contract}"] > 0, contract
    for component in scoring.COMPONENTS:
        if component not in ("pagat_ultimo", "king_ultimo"):  # random play rarely ends on them
            assert seen[f"line_{component}"] > 0, component
    for policy in ("none", "slovenian_renons", "austrian_renonce", "annul", "record_as_played"):
        assert seen[f"policy_{policy}"] > 0, policy
    assert seen["cancelled"] and seen["award"]


@pytest.mark.parametrize("n_players, sessions, seed", [(3, 40, 31), (4, 60, 41)])
def test_simulated_sessions_under_every_policy(n_players: int, sessions: int, seed: int) -> None:
    """Simulated tables (bidding, announcements, kontras, renonses) replayed under each penalty policy."""
    simulated = simulate_sessions(n_players, seed, 0, sessions, 20, mistakes=0.3)
    tally = Tally()
    for policy in PENALTIES:
        deals = []
        for obj, _truth in simulated:
            facts = replay(deal_from_obj(obj), {"penalty": policy}).facts
            if facts is not None:
                deals.append((f"{policy}/{obj.get('session')}", facts))
        _scored_in_sessions(tally, deals)
    seen = tally.seen
    assert seen["deals"] >= 5 * 0.9 * sessions * 20
    assert seen["offenders"] and seen["kontra"] and seen["announced"] and seen["forfeit_applied"]
    assert seen["line_penalty"] and seen["line_radelc"] and seen["line_mondfang"]
    assert seen["policy_jass_trick_forfeit"] and seen["policy_slovenian_renons"]


@pytest.mark.parametrize("name", ["sample-3p.jsonl.gz", "sample-4p.jsonl.gz"])
def test_sample_data_in_sessions(name: str) -> None:
    tally = Tally()
    deals = []
    for item in read_records(SAMPLES / name):
        if item.deal is None:
            continue
        rp = replay(item.deal)
        if rp.facts is not None and not rp.sheet_only:
            deals.append((item.deal.session, rp.facts))
    _scored_in_sessions(tally, deals)
    assert tally.seen["deals"] >= 1000 and tally.seen["line_radelc"] > 0


def test_facts_the_scorer_rejects_raise_the_same() -> None:
    players = ("Ana", "Boris", "Cilka")
    for facts in (
        DealFacts(players, "no_such_contract", declarer=0),
        DealFacts(players, "dva", declarer=0),  # no card points
        DealFacts(players, "dva", declarer=5),  # … checked before the seat is looked up
        DealFacts(players, "dva", declarer=5, card_points=(40, 30)),
        DealFacts(players, "solo_brez", declarer=0),
        DealFacts(players, "klop"),  # no piles
        DealFacts(players, "klop", klop_points=(10, 20), klop_tricks=(1, 2)),  # a pile short
    ):
        want = _outcome(reference.score_deal, facts, None)
        assert want[0] == "raises"
        assert _outcome(scoring.score_deal, facts, None) == want


@settings(max_examples=1500, deadline=None)
@given(deal_facts())
def test_property_same_as_the_reference(case: tuple[DealFacts, dict[str, int]]) -> None:
    facts, radelci = case
    assert _outcome(scoring.score_deal, facts, radelci) == _outcome(reference.score_deal, facts, radelci)
    assert _outcome(scoring.score_deal, facts, None) == _outcome(reference.score_deal, facts, None)
