"""A clean Slovenian deal checked and scored the compiled way (``tarock.sim.lane_score``) is the usual way's.

The simulator sends a clean deal without announcements through the kernel's lane and the compiled scorer
instead of ``record_deal``, the engine's replay and ``SessionLedger.apply``.  Whole runs with that way on and
off must write the same bytes (the score sheet line and the radelci carried through each session come from it),
most deals must have taken it, and a deal whose cards were not played as the record says must be declined (the
usual way then replays it and stops the run on the finding).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tarock import accel
from tarock.rules.sessions import SessionLedger
from tarock.sim import simulate as simulate_module
from tarock.sim.lane_score import score_clean
from tarock.sim.simulate import simulate, truth_path, write_simulation

needs_kernel = pytest.mark.skipif(not accel.BUILT, reason="the accelerator was not built")


@needs_kernel
@pytest.mark.parametrize(("players", "mistakes"), [(4, 0.0), (3, 0.0), (4, 0.3), (3, 0.3)])
def test_the_compiled_way_writes_what_the_usual_way_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           players: int, mistakes: float) -> None:
    taken: list[bool] = []

    def counted(*args: Any) -> Any:
        recorded = score_clean(*args)
        taken.append(recorded is not None)
        return recorded

    fast, slow = tmp_path / "fast.jsonl", tmp_path / "slow.jsonl"
    monkeypatch.setattr(simulate_module, "score_clean", counted)
    stats = write_simulation(fast, players, 15, 20, 77, mistakes)
    monkeypatch.setattr(simulate_module, "score_clean", lambda *args: None)
    write_simulation(slow, players, 15, 20, 77, mistakes)
    assert fast.read_bytes() == slow.read_bytes()
    assert truth_path(fast).read_bytes() == truth_path(slow).read_bytes()
    # about one deal in seven has announcements and a mistake goes the usual way: most of the rest are taken
    asked = stats.deals - stats.mistakes if mistakes else stats.deals
    assert len(taken) <= asked and sum(taken) > 0.6 * asked
    assert any(record["recorded"]["radelci"] != dict.fromkeys(record["players"], 0)
               for record, _ in simulate(players, 15, 20, 77, mistakes))  # radelci were carried


@needs_kernel
def test_a_deal_not_played_as_recorded_is_declined(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, ...]] = []

    def kept(*args: Any) -> Any:
        calls.append(args)
        return score_clean(*args)

    monkeypatch.setattr(simulate_module, "score_clean", kept)
    list(simulate(4, 2, 10, 5, 0.0))
    args = next(a for a in calls if len(a[7]) > 2)  # a deal of several tricks
    contract, players, dealt, talon, pick, stash, king, tricks, seats, declarer, bids, _ = args
    ledger = SessionLedger()
    assert score_clean(*args[:-1], ledger) is not None  # as played it is clean
    ledger = SessionLedger()
    swapped = [tricks[1], tricks[0], *tricks[2:]]  # the first two tricks' cards swapped: not played from the hands
    assert score_clean(contract, players, dealt, talon, pick, stash, king, swapped, seats, declarer, bids,
                       ledger) is None
    assert ledger == SessionLedger()  # untouched
    with accel.reference():  # the accelerator off: always the usual way
        assert score_clean(*args[:-1], SessionLedger()) is None
