"""A clean Slovenian deal checked and scored the compiled way (``tarock.sim.lane_score``) is the usual way's.

The simulator sends a clean deal through the kernel's lane (and, with announcements, the lane's replay, which
checks them) and the compiled scorer instead of the engine's replay and ``SessionLedger.apply``.  Whole runs with that way on and
off must write the same bytes (the score sheet line and the radelci carried through each session come from it),
most deals must have taken it, and a deal whose cards were not played as the record says must be declined (the
usual way then replays it and stops the run on the finding).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tarock import accel
from tarock.deal import Announcement
from tarock.rules.sessions import SessionLedger
from tarock.sim import simulate as simulate_module
from tarock.sim.lane_score import score_announced, score_clean
from tarock.sim.simulate import simulate, truth_path, write_simulation

needs_kernel = pytest.mark.skipif(not accel.BUILT, reason="the accelerator was not built")


@needs_kernel
@pytest.mark.parametrize(("players", "mistakes"), [(4, 0.0), (3, 0.0), (4, 0.3), (3, 0.3)])
def test_the_compiled_way_writes_what_the_usual_way_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           players: int, mistakes: float) -> None:
    taken: dict[str, list[bool]] = {"plain": [], "announced": []}

    def counted(how: str, real: Any) -> Any:
        def call(*args: Any) -> Any:
            recorded = real(*args)
            taken[how].append(recorded is not None)
            return recorded
        return call

    fast, slow = tmp_path / "fast.jsonl", tmp_path / "slow.jsonl"
    monkeypatch.setattr(simulate_module, "score_clean", counted("plain", score_clean))
    monkeypatch.setattr(simulate_module, "score_announced", counted("announced", score_announced))
    stats = write_simulation(fast, players, 15, 20, 77, mistakes)
    monkeypatch.setattr(simulate_module, "score_clean", lambda *args: None)
    monkeypatch.setattr(simulate_module, "score_announced", lambda *args: None)
    write_simulation(slow, players, 15, 20, 77, mistakes)
    assert fast.read_bytes() == slow.read_bytes()
    assert truth_path(fast).read_bytes() == truth_path(slow).read_bytes()
    # a deal with a mistake goes the usual way; every clean one is asked, and the lane takes nearly all
    asked = len(taken["plain"]) + len(taken["announced"])
    assert asked <= stats.deals - stats.mistakes
    assert sum(taken["plain"]) + sum(taken["announced"]) > 0.9 * (stats.deals - stats.mistakes)
    assert sum(taken["announced"]) > 0  # deals with announcements too (about one in seven)
    with_announcements = [r for r, _ in simulate(players, 15, 20, 77, mistakes) if "announcements" in r]
    assert any(len(r["announcements"]) > 1 for r in with_announcements)
    assert any(r["recorded"]["radelci"] != dict.fromkeys(r["players"], 0)
               for r, _ in simulate(players, 15, 20, 77, mistakes))  # radelci were carried


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


@needs_kernel
def test_a_deal_with_an_invalid_announcement_is_declined(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, ...]] = []

    def kept(*args: Any) -> Any:
        calls.append(args)
        return score_announced(*args)

    monkeypatch.setattr(simulate_module, "score_announced", kept)
    list(simulate(4, 6, 20, 5, 0.0))
    deal, seats, _ = calls[0]
    assert score_announced(deal, seats, SessionLedger()) is not None  # as announced it is clean
    # pagat ultimo said by a player without the Pagat (card 0): the engine reports it, so the lane's way declines
    holder = next(i for i, hand in enumerate(deal.hands) if 0 in hand)
    other = deal.players[(holder + 1) % 4]
    wrong = replace(deal, announcements=(Announcement(other, bonus="pagat_ultimo"),))
    ledger = SessionLedger()
    assert score_announced(wrong, seats, ledger) is None
    assert ledger == SessionLedger()  # untouched
