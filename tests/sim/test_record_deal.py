"""The Deal the simulator checks (``tarock.sim.record_deal``) is the one the codec reads from the record it writes.

The simulator replays ``record_deal(...)`` instead of ``deal_from_obj(record)`` (a clean Slovenian deal
goes the compiled way of ``tarock.sim.lane_score`` instead, switched off here: tests/sim/test_lane_score.py);
had the two ever differed, the check would have judged another deal than the one written.  Every deal of
runs of both rulesets, with mistakes of every stage (so both the bare table and the engine's ``Game``
played, named and unnamed sessions, options stated or not) is built both ways here.
"""

from __future__ import annotations

from typing import Any

import pytest

from tarock.deal import Deal
from tarock.formats.codec import deal_from_obj
from tarock.sim import koenigrufen_sim, simulate as simulate_module
from tarock.sim.record_deal import record_deal
from tarock.sim.simulate import simulate


@pytest.mark.parametrize(("players", "ruleset", "options"), [
    (4, "slovenian", None),
    (3, "slovenian", None),
    (4, "koenigrufen", None),
    (4, "koenigrufen", {"quapil": True, "values": "wien", "color_discard_restriction": True}),
])
def test_the_checked_deal_is_the_written_records(monkeypatch: pytest.MonkeyPatch, players: int, ruleset: str,
                                                 options: dict[str, Any] | None) -> None:
    seen: list[tuple[str, bool, bool]] = []

    def compared(record: dict[str, Any], *cards: Any) -> Deal:
        built = record_deal(record, *cards)
        assert built == deal_from_obj(record), record["id"]
        seen.append((record["id"], built.trick_players[0] is not None if built.tricks else False,
                     "stash" in record))
        return built

    monkeypatch.setattr(simulate_module, "record_deal", compared)
    monkeypatch.setattr(simulate_module, "score_clean", lambda *args: None)  # every deal the usual way
    monkeypatch.setattr(simulate_module, "score_announced", lambda *args: None)
    monkeypatch.setattr(koenigrufen_sim, "record_deal", compared)
    monkeypatch.setattr(koenigrufen_sim, "score_played", lambda *args: None)  # and the Königrufen ones
    out = list(simulate(players, 30, 20, 31, 0.5, 1, ruleset, options))
    assert [record["id"] for record, _ in out] == [deal_id for deal_id, _, _ in seen]  # every deal built
    assert {named for _, named, _ in seen} == {True, False}  # named and unnamed tricks
    assert any(stash for _, _, stash in seen)
    assert sum(1 for _, truth in out if truth) > 150  # about half the deals with a mistake
