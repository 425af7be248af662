"""The Replay page's analysis on demand (dashboards/analyse_now.py): the child process answers what the solver
answers in this process, reports its progress, keeps to its CPU limit (the tricks it reached), is killed when it
does not answer at all and leaves no process behind, and says why when the solver declines a deal or the child
fails."""

from __future__ import annotations

import random
import time
from pathlib import Path

import orjson
import pytest

from dashboards import analyse_now
from ingest.card_analysis import card_rows
from ingest.store import open_store
from tarock.formats.codec import dumps, loads
from tarock.sim.randomplay import random_record
from tarock.solver.analyse import analyse_deal
from tests.support.dashboard_fixture import build_store

DEAL = "example-seed-pik10-trick"


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The record and effective options of a stored 4-player point deal (the dashboard fixture's)."""
    store = build_store(tmp_path_factory.mktemp("now"))
    con = open_store(store)
    record, options = con.execute("SELECT record, options_json FROM deals WHERE deal_id = ?", [DEAL]).fetchone()
    con.close()
    return record, options


def _children() -> list[int]:
    """The analysis children running now (their command line names the child module)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if b"dashboards.analyse_child" in (proc / "cmdline").read_bytes():
                    found.append(int(proc.name))
            except OSError:
                continue
    return found


def test_the_child_answers_what_the_solver_answers_here(stored: tuple[str, str]) -> None:
    record, options = stored
    seen: list[tuple[int, int]] = []
    outcome = analyse_now.analyse(record, options, 10, progress=lambda done, total: seen.append((done, total)))
    expected = card_rows(analyse_deal(loads(record), 10, options=orjson.loads(options)))
    assert not outcome.stopped and outcome.error is None and outcome.analysed_from == 10
    # tricks 10, 11 and 12 of four cards each, in play order, each with its place in its trick
    assert [(r["trick"], r["order"]) for r in outcome.rows] == [(t, o) for t in (10, 11, 12) for o in range(4)]
    assert list(outcome.rows) == expected
    # a progress message after every card, the last one the whole
    assert seen == [(i, 12) for i in range(1, 13)]


def test_a_long_analysis_keeps_to_its_limit_and_its_process_ends() -> None:
    # a generated 4-player deal from trick 1: whole deals take seconds to minutes (docs/solver.md, "Speed");
    # this one (the solver benchmark's deal 2 of seed 1) takes about 2.5 CPU seconds for its value alone
    rng = random.Random("1-4-2")
    record = dumps(loads(orjson.dumps(random_record(rng, 4, rng.choice(("tri", "dva", "ena", "solo_tri", "solo_dva",
                                                                        "solo_ena"))))))
    started = time.perf_counter()
    outcome = analyse_now.analyse(record, None, 1, limit=0.3)
    assert not outcome.stopped and outcome.error is None
    first = outcome.analysed_from
    assert first is not None and first > 1
    # what it reached is what the solver says from that trick without a limit
    assert list(outcome.rows) == card_rows(analyse_deal(loads(record), first))
    assert time.perf_counter() - started < 5
    assert _children() == []


def test_a_child_that_does_not_answer_is_killed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a "python" that reads its request and then hangs: the page must not wait for it for ever
    hanging = tmp_path / "python"
    hanging.write_text("#!/bin/sh\ncat > /dev/null\nwhile :; do sleep 1; done\n")
    hanging.chmod(0o755)
    monkeypatch.setattr(analyse_now.sys, "executable", str(hanging))
    started = time.perf_counter()
    outcome = analyse_now.analyse("{}", None, 1, limit=0.1)
    # the shell's command line names the child module, as the real child's does; killed after 3 × 0.1 + 5 seconds of wall time
    assert outcome.stopped and not outcome.rows and outcome.error is None
    assert 5.3 <= time.perf_counter() - started < 15
    assert _children() == []


def test_a_deal_the_solver_declines_says_why(stored: tuple[str, str]) -> None:
    record, _ = stored
    klop = orjson.loads(record)
    klop["contract"] = "klop"
    outcome = analyse_now.analyse(orjson.dumps(klop), None, 10)
    assert outcome.error is not None and "Klop" in outcome.error and not outcome.rows


def test_a_child_that_fails_names_its_error() -> None:
    outcome = analyse_now.analyse('{"not": "a record"}', None, 1)
    assert outcome.error is not None and outcome.error.startswith("the solver's process ended without an answer: ")
    assert "Error" in outcome.error and not outcome.stopped
