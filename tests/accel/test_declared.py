"""The accelerator takes only the options it declares (``tarock.accel.declared``); others go to the reference.

A clean deal normally takes the fast lane (the kernel's ``lane``) and a deal with a fault the kernel's
``play`` and ``seats``.  Under options whose class has a field the accelerator does not declare, or a value
it does not declare, none of those may run -- the kernel is replaced by a spy that counts its calls -- and
the replay and the check object must be the reference's.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import field, make_dataclass, replace
from typing import Any

import pytest

from tarock import accel, engine
from tarock.accel import declared, lane
from tarock.check.checker import Checker
from tarock.deal import Deal
from tarock.engine import replay
from tarock.formats.codec import deal_from_obj
from tarock.formats.items import ReadItem
from tarock.options import DEFAULT_KOENIGRUFEN, DEFAULT_SLOVENIAN, options_for
from tarock.sim import random_koenigrufen
from tarock.sim.randomplay import random_record

pytestmark = pytest.mark.skipif(accel.KERNEL is None, reason="the accelerator is not built here")

OPTION_CALLS = ("lane", "play", "seats")
"""The kernel's functions that play by options."""


class Spy:
    """The kernel, counting the calls of the functions that play by options."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.kernel, name)
        if name not in OPTION_CALLS:
            return attr

        def counted(*args: Any) -> Any:
            self.calls[name] += 1
            return attr(*args)
        return counted


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    """The kernel behind a spy, and fresh verdicts and plans (a test may change ``DECLARED``)."""
    watched = Spy(accel.KERNEL)
    monkeypatch.setattr(accel, "KERNEL", watched)
    monkeypatch.setattr(declared, "_VERDICTS", {})
    monkeypatch.setattr(lane, "_PLANS", {})
    return watched


def _clean_deals(count: int, seed: int = 1) -> list[Deal]:
    rng = random.Random(seed)
    return [deal_from_obj(random_record(rng, rng.choice((3, 4)))) for _ in range(count)]


def _faulty_koenigrufen(count: int) -> list[Deal]:
    """Königrufen deals, every other one with two cards swapped: its replay plays on the kernel's play."""
    rng = random.Random(8)
    out = []
    for i in range(count):
        rec = random_koenigrufen.random_record(rng)
        tricks = rec["tricks"]
        if i % 2 and len(tricks) > 1:
            a, b = rng.sample(range(len(tricks)), 2)
            if tricks[a] and tricks[b]:
                x, y = rng.randrange(len(tricks[a])), rng.randrange(len(tricks[b]))
                tricks[a][x], tricks[b][y] = tricks[b][y], tricks[a][x]
        out.append(deal_from_obj(rec))
    return out


def _same_as_reference(deal: Deal, overrides: dict[str, Any] | None = None) -> None:
    """The replay and the check object are the reference's."""
    fast = replay(deal, overrides)
    item = ReadItem("corpus.jsonl", 1, deal, None, None)
    got = Checker(overrides).check(item)
    with accel.reference():
        assert fast == replay(deal, overrides)
        assert got == Checker(overrides).check(item)


def test_the_default_options_and_every_declared_value_are_accepted() -> None:
    assert accel.accepts(DEFAULT_SLOVENIAN) and accel.accepts(DEFAULT_KOENIGRUFEN)
    assert declared.undeclared(DEFAULT_SLOVENIAN) == [] and declared.undeclared(DEFAULT_KOENIGRUFEN) == []
    for default in (DEFAULT_SLOVENIAN, DEFAULT_KOENIGRUFEN):
        for name, values in declared.DECLARED[default.ruleset].items():
            for value in values:
                if isinstance(value, type) or value == getattr(default, name):
                    continue
                raw = {name: value}
                if (name, value) == ("counting", "1/1"):
                    raw["min_win_score"] = 61  # counting 1/1 needs it
                assert accel.accepts(options_for(default.ruleset, raw)), (name, value)
    assert accel.accepts(options_for("slovenian", {"preset": "openspiel"}))


def test_undeclared_values_fields_and_classes_are_not_accepted() -> None:
    assert not accel.accepts(replace(DEFAULT_SLOVENIAN, forced_pagat="sometimes"))
    # 1 is not True: a value is compared with its type
    assert not accel.accepts(replace(DEFAULT_SLOVENIAN, radelci=1))  # type: ignore[arg-type]
    assert not accel.accepts(replace(DEFAULT_SLOVENIAN, mondfang_value=21.0))  # type: ignore[arg-type]
    assert accel.accepts(replace(DEFAULT_SLOVENIAN, mondfang_value=25))  # any int: declared by its type
    extended = make_dataclass("Extended", [("new_rule", bool, field(default=False))],
                              bases=(type(DEFAULT_SLOVENIAN),), frozen=True)()
    assert not accel.accepts(extended)
    assert declared.undeclared(extended) == ["new_rule"]
    assert not accel.accepts(object()) and not accel.accepts({"radelci": True})


def test_a_new_option_field_sends_clean_deals_to_the_reference(spy: Spy,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Clean deals take the lane under the default options; under an options class with one more field,
    undeclared, the kernel plays none of them, and the replays and check objects are the reference's."""
    deals = _clean_deals(60)
    for deal in deals:
        _same_as_reference(deal)
    assert spy.calls["lane"] >= len(deals)  # the replay and the checker's
    spy.calls.clear()
    extended = make_dataclass("Extended", [("new_rule", bool, field(default=False))],
                              bases=(type(DEFAULT_SLOVENIAN),), frozen=True)()
    monkeypatch.setattr(engine, "options_for", lambda ruleset, raw=None, overrides=None: extended)
    for deal in deals:
        assert replay(deal).options is extended
        _same_as_reference(deal)
    assert not spy.calls, spy.calls


def test_a_field_dropped_from_the_declarations_sends_deals_to_the_reference(
        spy: Spy, monkeypatch: pytest.MonkeyPatch) -> None:
    deals = _clean_deals(40, seed=2)
    table = dict(declared.DECLARED["slovenian"])
    del table["radelci"]
    monkeypatch.setitem(declared.DECLARED, "slovenian", table)
    assert not accel.accepts(DEFAULT_SLOVENIAN)
    for deal in deals:
        _same_as_reference(deal)
    assert not spy.calls, spy.calls


def test_an_undeclared_value_sends_deals_to_the_reference(spy: Spy, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``emperor_trick=False`` no longer declared, deals under it (a command line's override, or the
    record's own options) take no kernel call; deals under the default options still take the lane."""
    table = dict(declared.DECLARED["slovenian"], emperor_trick=(True,))
    monkeypatch.setitem(declared.DECLARED, "slovenian", table)
    deals = _clean_deals(40, seed=3)
    for deal in deals:
        _same_as_reference(deal, {"emperor_trick": False})
        _same_as_reference(replace(deal, options={"emperor_trick": False}))
    assert not spy.calls, spy.calls
    for deal in deals:
        _same_as_reference(deal)
    assert spy.calls["lane"] >= len(deals)


def test_koenigrufen_plays_on_the_kernel_only_under_declared_options(spy: Spy,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    deals = _faulty_koenigrufen(60)
    for deal in deals:
        _same_as_reference(deal)
    assert spy.calls["play"] > 0 and spy.calls["seats"] > 0 and not spy.calls["lane"]
    spy.calls.clear()
    table = dict(declared.DECLARED["koenigrufen"])
    del table["triccolo"]
    monkeypatch.setitem(declared.DECLARED, "koenigrufen", table)
    declared.forget()  # the verdicts given under the table as it was
    for deal in deals:
        _same_as_reference(deal)
    assert not spy.calls, spy.calls
