"""The session simulator, judged by the real checker.

Clean runs check clean; with mistakes injected, what ``tarock check`` finds
is exactly the ground truth; the output is byte-identical whatever the
number of workers; the contracts come in the proportions of real play.
"""

from __future__ import annotations

import gc
import random
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarock.sim import simulate as simulate_module
from tarock.check.audit import audit_scores
from tarock.check.checker import check_items
from tarock.check.result import DealCheck
from tarock.deal import SLOVENIAN_CONTRACTS
from tarock.facts import DECLARER, OPPONENTS, DealFacts
from tarock.findings import Finding
from tarock.formats.reader import read_records
from tarock.rules.slovenian.scoring import score_deal
from tarock.sim.mistakes import KINDS, score_slip, transpose
from tarock.sim.simulate import NAME_POOL, SimulationError, simulate, truth_path, write_simulation

Row = tuple[str, str, int | None, str | None]


def checked(path: Path) -> list[DealCheck]:
    results = list(check_items(read_records(path)))
    checks = [c for c in results if isinstance(c, DealCheck)]
    assert len(checks) == len(results)  # every simulated line is a record
    return checks


def findings(checks: list[DealCheck]) -> Counter[Row]:
    """Every finding of the checker as (deal id, code, trick, player)."""
    return Counter((c.id, f.code, f.trick, f.player) for c in checks for f in c.findings)


def truth(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in truth_path(path).read_bytes().splitlines()]


# -- the checker agrees ------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_a_clean_simulation_has_no_findings(tmp_path: Path, players: int) -> None:
    out = tmp_path / "clean.jsonl"
    stats = write_simulation(out, players, sessions=60, deals_per_session=25, seed=11, mistakes=0.0)
    checks = checked(out)
    assert stats.deals == len(checks) == sum(stats.contracts.values()) == 1500
    assert findings(checks) == Counter()
    assert all(c.status == "ok" and c.recorded is not None for c in checks)
    assert truth_path(out).read_bytes() == b""


@pytest.mark.slow
def test_injected_mistakes_are_exactly_what_check_finds(tmp_path: Path) -> None:
    out = tmp_path / "mistakes.jsonl.gz"
    stats = write_simulation(out, 4, sessions=250, deals_per_session=20, seed=5, mistakes=0.2)
    lines = truth(out)
    assert findings(checked(out)) == Counter((t["id"], t["code"], t["trick"], t["player"]) for t in lines)
    assert stats.deals == 5000 and stats.mistakes == len(lines)
    assert 850 <= len(lines) <= 1150  # about one deal in five
    assert len({t["id"] for t in lines}) == len(lines)  # one mistake per deal at most
    kinds = Counter(t["kind"] for t in lines)
    assert set(kinds) >= {k.name for k in KINDS} - {"kontra_wrong_line"}  # that one needs a game kontra
    assert all(t["trick"] is None for t in lines if t["code"] in ("A_SCORE_MISMATCH", "R_STASH"))
    assert all(isinstance(t["trick"], int) for t in lines if t["code"] not in ("A_SCORE_MISMATCH", "R_STASH"))


def test_three_player_mistakes_are_exactly_what_check_finds(tmp_path: Path) -> None:
    out = tmp_path / "three.jsonl"
    stats = write_simulation(out, 3, sessions=40, deals_per_session=25, seed=8, mistakes=0.3)
    lines = truth(out)
    assert findings(checked(out)) == Counter((t["id"], t["code"], t["trick"], t["player"]) for t in lines)
    assert len(lines) > 200 and sum(stats.kinds.values()) == stats.mistakes == len(lines)


def test_a_replay_that_disagrees_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    real_replay = simulate_module.replay

    def flagging_replay(deal: Any) -> Any:
        rp = real_replay(deal)
        rp.findings.append(Finding("R_FOLLOW_SUIT", "made up", 1, 0, deal.players[0], "HK"))
        return rp

    monkeypatch.setattr(simulate_module, "replay", flagging_replay)
    monkeypatch.setattr(simulate_module, "score_clean", lambda *args: None)  # the deal the usual way
    monkeypatch.setattr(simulate_module, "score_announced", lambda *args: None)
    with pytest.raises(SimulationError, match="s1-00000-001"):
        next(simulate(4, 1, 1, 1, 0.0))


# -- reproducible --------------------------------------------------------------------


@pytest.mark.parametrize(("players", "mistakes"), [(4, 0.3), (3, 0.0)])
def test_output_is_byte_identical_whatever_the_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       players: int, mistakes: float) -> None:
    monkeypatch.setattr(simulate_module, "DEALS_PER_CHUNK", 40)  # several chunks, so the pool is used
    runs = [("a", 1), ("b", 2), ("c", 1)]
    for name, workers in runs:
        write_simulation(tmp_path / f"{name}.jsonl.gz", players, sessions=9, deals_per_session=20, seed=99,
                         mistakes=mistakes, workers=workers)
    data = {name: (tmp_path / f"{name}.jsonl.gz").read_bytes() for name, _ in runs}
    truths = {name: (tmp_path / f"{name}.truth.jsonl").read_bytes() for name, _ in runs}
    assert data["a"] == data["b"] == data["c"]
    assert truths["a"] == truths["b"] == truths["c"]
    assert (truths["a"] != b"") == (mistakes > 0)
    assert data["a"][4:8] == b"\0\0\0\0"  # gzip mtime 0


def test_simulate_yields_what_write_simulation_writes(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    write_simulation(out, 3, sessions=3, deals_per_session=10, seed=4, mistakes=0.5)
    pairs = list(simulate(3, 3, 10, 4, 0.5))
    assert [orjson.loads(line) for line in out.read_bytes().splitlines()] == [r for r, _ in pairs]
    assert truth(out) == [t for _, lines in pairs for t in lines]


# -- what the records look like ------------------------------------------------------


def test_records_look_like_a_club_evening() -> None:
    records = [r for r, _ in simulate(4, 40, 12, 3, 0.0)]
    sessions: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        sessions.setdefault(r["session"], []).append(r)
    assert len({r["id"] for r in records}) == len(records)
    named = 0
    for deals in sessions.values():
        assert [d["seq"] for d in deals] == list(range(1, 13))
        assert [d["date"] for d in deals] == sorted(d["date"] for d in deals)
        table = set(deals[0]["players"])
        assert len(table) == 4 and table <= set(NAME_POOL)
        for prev, nxt in pairwise(deals):  # the dealer moves on: the list rotates by one
            assert nxt["players"] == prev["players"][1:] + prev["players"][:1]
        named += all(":" in card for d in deals for trick in d["tricks"] for card in trick)
        for d in deals:
            assert d["format"] == "tarock-record/1" and d["ruleset"] == "slovenian"
            assert len(d["talon"]) == 6 and any(bid != "pass" for _, bid in d["bidding"])
            assert set(d["recorded"]["radelci"]) == table
    assert 10 <= named <= 30  # about half the sessions name the players of each card


def test_three_players_call_no_king_and_play_no_solo() -> None:
    records = [r for r, _ in simulate(3, 30, 20, 6, 0.0)]
    assert all("called_king" not in r for r in records)
    assert not any(r["contract"].startswith("solo_") and r["contract"] != "solo_brez" for r in records)
    assert all(len(r["players"]) == 3 for r in records)


@pytest.mark.slow
def test_contract_mix_looks_like_real_play() -> None:
    contracts = Counter(r["contract"] for r, _ in simulate(4, 1000, 20, 2026, 0.0, workers=2))
    total = sum(contracts.values())
    assert total == 20000
    assert set(contracts) == set(SLOVENIAN_CONTRACTS)
    assert sum(contracts[c] for c in ("klop", "tri", "dva", "ena")) > total / 2
    for rare in ("solo_brez", "odprti_berac", "barvni_valat", "valat"):
        assert contracts[rare] < total / 100
    assert contracts["klop"] > contracts["berac"] > contracts["valat"]


# -- score-sheet slips -----------------------------------------------------------------

P4 = ("Ana", "Boris", "Cilka", "David")


def kontra_deal() -> DealFacts:
    """Dva with Ana's partner Cilka, kontra on the game, trula made, 43 points: difference 8 -> 10."""
    return DealFacts(P4, "dva", declarer=0, partner=2, card_points=(43, 27), trula_side=DECLARER,
                     kontra={"game": 2})


@pytest.mark.parametrize("kind", [k for k in KINDS if k.stage == "score"], ids=lambda k: k.name)
def test_each_score_slip_changes_exactly_one_figure(kind: Any) -> None:
    radelci = {"Ana": 1, "Boris": 0, "Cilka": 0, "David": 0}
    result = score_deal(kontra_deal(), radelci)
    slip = score_slip(kind, result, random.Random(1))
    assert slip is not None
    player, wrong = slip
    assert wrong != result.scores[player]
    recorded = {"scores": {**result.scores, player: wrong}, "radelci": result.radelci_after}
    assert [(f.code, f.player) for f in audit_scores(recorded, result, P4)] == [("A_SCORE_MISMATCH", player)]


def test_slips_need_room_in_the_deal() -> None:
    klop = DealFacts(P4, "klop", klop_points=(20, 30, 10, 10), klop_tricks=(3, 5, 2, 2))
    result = score_deal(klop, None)
    for name in ("forgot_radelc", "diff_unrounded", "diff_wrong_rounding", "kontra_wrong_line"):
        assert score_slip(next(k for k in KINDS if k.name == name), result, random.Random(0)) is None
    even = DealFacts(P4, "tri", declarer=1, card_points=(35, 35), mondfang=(3,), kings_side=OPPONENTS)
    unrounded = next(k for k in KINDS if k.name == "diff_unrounded")
    assert score_slip(unrounded, score_deal(even), random.Random(0)) is None  # difference 0: nothing to round


def test_transposed_digits() -> None:
    rng = random.Random(0)
    assert transpose(45, rng) == 54
    assert transpose(-45, rng) == -54
    assert transpose(40, rng) is None  # 04 is not how anyone writes 4
    assert transpose(7, rng) is None
    assert transpose(55, rng) is None
    assert transpose(140, rng) in (410, 104)


# -- arguments ------------------------------------------------------------------------------


def test_truth_path_sits_beside_the_output() -> None:
    assert truth_path(Path("d/sample.jsonl.gz")) == Path("d/sample.truth.jsonl")
    assert truth_path(Path("sample.jsonl")) == Path("sample.truth.jsonl")


@pytest.mark.parametrize("args", [(5, 1, 1, 0.0, 1), (4, 1, 0, 0.0, 1), (4, 1, 1, 1.5, 1), (4, 1, 1, 0.1, 0)])
def test_bad_arguments_are_refused(args: tuple[int, int, int, float, int]) -> None:
    players, sessions, deals, mistakes, workers = args
    with pytest.raises(ValueError):
        list(simulate(players, sessions, deals, 1, mistakes, workers))


def test_the_collector_threshold_is_raised_only_while_simulating() -> None:
    seen: list[tuple[int, int, int]] = []
    real = simulate_module._Session.deals

    def watched(self: Any, count: int) -> Any:
        seen.append(gc.get_threshold())
        return real(self, count)

    before = gc.get_threshold()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(simulate_module._Session, "deals", watched)
        simulate_module.simulate_sessions(4, 3, 0, 2, 5, 0.0)
    assert gc.get_threshold() == before  # restored
    assert seen == [(simulate_module.YOUNG_COLLECTION, *before[1:])] * 2  # raised for each session's deals
