"""The worked example of docs/architecture.md ("a house-rule toggle"): ``klop_cancels_radelc``.

The option was added in two files (``tarock/rules/slovenian/options.py``, ``tarock/rules/slovenian/scoring.py``)
and declared to the accelerator for the one value it implements (``tarock/accel/declared.py``).  These tests
show the accelerator's side of it: the default keeps every fast path, the other value makes each of them
decline, and both give the reference's scores.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tarock import accel
from tarock.accel import declared
from tarock.accel import scorer as fast_score
from tarock.check.checker import Checker
from tarock.formats.codec import deal_from_obj
from tarock.formats.items import ReadItem
from tarock.options import DEFAULT_SLOVENIAN
from tarock.sim.simulate import simulate_sessions

pytestmark = pytest.mark.skipif(accel.KERNEL is None, reason="the accelerator is not built here")


def test_only_the_declared_value_is_accelerated() -> None:
    assert declared.accepts(DEFAULT_SLOVENIAN)
    off = replace(DEFAULT_SLOVENIAN, klop_cancels_radelc=False)
    assert not declared.accepts(off)
    assert declared.undeclared(off) == ["klop_cancels_radelc=False"]


SESSIONS = simulate_sessions(4, seed=7, first=0, count=40, deals_per_session=12, mistakes=0.0)


def _check_all(value: str) -> list[object]:
    checker = Checker({"klop_cancels_radelc": value})
    return [checker.check(ReadItem("sim.jsonl", line, deal_from_obj(record), None, None))
            for line, (record, _truth) in enumerate(SESSIONS, 1)]


def test_sessions_check_the_same_on_the_fast_paths_and_the_reference() -> None:
    # Klops give radelci, and their +70s cancel them or not: the radelci of the later deals show it.
    on, off = _check_all("true"), _check_all("false")
    assert on != off  # the sessions hold a Klop +70 by a radelc holder, so the option matters here
    with accel.reference():
        assert _check_all("true") == on
        assert _check_all("false") == off


def test_the_compiled_scorer_declines_the_undeclared_value() -> None:
    if fast_score.prepared() is None:
        pytest.skip("the compiled scorer is not built here")
    assert fast_score.plan_of("klop", DEFAULT_SLOVENIAN) is not None
    assert fast_score.plan_of("klop", replace(DEFAULT_SLOVENIAN, klop_cancels_radelc=False)) is None
