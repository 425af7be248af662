"""The Königrufen session simulator (``simulate --ruleset koenigrufen``), judged by the real checker."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarock.sim import simulate as simulate_module
from tarock.sim.koenigrufen_sim import KINDS
from tarock.sim.simulate import simulate, truth_path, write_simulation
from tests.sim.test_simulate import checked, findings, truth

KR = "koenigrufen"


def test_a_clean_koenigrufen_simulation_has_no_findings(tmp_path: Path) -> None:
    out = tmp_path / "clean.jsonl"
    stats = write_simulation(out, 4, sessions=30, deals_per_session=15, seed=3, mistakes=0.0, ruleset=KR)
    checks = checked(out)
    assert stats.deals == len(checks) == 450
    assert findings(checks) == Counter()
    assert all(c.status == "ok" and c.recorded is not None and c.ruleset == KR for c in checks)
    assert truth_path(out).read_bytes() == b""


def test_injected_koenigrufen_mistakes_are_exactly_what_check_finds(tmp_path: Path) -> None:
    out = tmp_path / "mistakes.jsonl.gz"
    stats = write_simulation(out, 4, sessions=20, deals_per_session=15, seed=7, mistakes=0.3, ruleset=KR)
    lines = truth(out)
    assert findings(checked(out)) == Counter((t["id"], t["code"], t["trick"], t["player"]) for t in lines)
    assert stats.deals == 300 and stats.mistakes == len(lines)
    assert 60 <= len(lines) <= 120  # about three deals in ten
    assert len({t["id"] for t in lines}) == len(lines)
    assert {t["kind"] for t in lines} <= {k.name for k in KINDS}
    assert all(t["trick"] is None for t in lines if t["code"] in ("A_SCORE_MISMATCH", "R_STASH", "R_OWN_KING"))


def test_koenigrufen_output_is_byte_identical_whatever_the_workers(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate_module, "DEALS_PER_CHUNK", 30)
    for name, workers in (("a", 1), ("b", 2)):
        write_simulation(tmp_path / f"{name}.jsonl.gz", 4, sessions=6, deals_per_session=15, seed=9,
                         mistakes=0.3, workers=workers, ruleset=KR)
    assert (tmp_path / "a.jsonl.gz").read_bytes() == (tmp_path / "b.jsonl.gz").read_bytes()
    assert (tmp_path / "a.truth.jsonl").read_bytes() == (tmp_path / "b.truth.jsonl").read_bytes() != b""


def test_options_and_presets_are_passed_through(tmp_path: Path) -> None:
    out = tmp_path / "ooe.jsonl"
    write_simulation(out, 4, sessions=20, deals_per_session=15, seed=5, mistakes=0.0, ruleset=KR,
                     options={"preset": "oberoesterreich", "values": "wien"})
    records = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    assert all(r["options"]["values"] == "wien" and r["options"]["zwiccolo"] is False for r in records)
    assert not any(r["contract"] in ("zwiccolo", "zwiccolo_ouvert") or isinstance(r.get("declarer"), list)
                   for r in records)
    assert findings(checked(out)) == Counter()


def test_the_contract_mix_looks_like_an_evening() -> None:
    records: list[dict[str, Any]] = [r for r, _ in simulate(4, 50, 20, 2026, 0.0, ruleset=KR)]
    contracts = Counter(r["contract"] for r in records)
    total = len(records)
    assert contracts.most_common(1)[0][0] == "rufer" and contracts["rufer"] > total / 3
    assert contracts["trischaken"] > total / 20
    assert contracts["piccolo"] + contracts["bettel"] > total / 40
    assert len(contracts) >= 8  # the rare games come up too
    assert any(r.get("conceded") for r in records)
    assert any("announcements" in r for r in records)
    assert all(r["ruleset"] == KR and len(r["players"]) == 4 for r in records)


@pytest.mark.parametrize("kwargs", [{"players": 3}, {"options": {"nonsense": 1}}])
def test_bad_koenigrufen_arguments_are_refused(kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"players": 4, "options": None} | kwargs
    with pytest.raises(ValueError):
        list(simulate(args["players"], 1, 1, 1, 0.0, ruleset=KR, options=args["options"]))


def test_slovenian_takes_no_options() -> None:
    with pytest.raises(ValueError):
        list(simulate(4, 1, 1, 1, 0.0, options={"values": "wien"}))


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["slovenian", KR])
def test_at_a_rate_of_three_in_ten_the_findings_are_the_truth(tmp_path: Path, ruleset: str) -> None:
    """A few thousand deals of each ruleset played through the compiled players: ``tarock check`` finds exactly
    the injected mistakes, no more (a clean deal the fast path played wrong would show a finding)."""
    out = tmp_path / f"{ruleset}.jsonl.gz"
    stats = write_simulation(out, 4, sessions=150, deals_per_session=20, seed=19, mistakes=0.3, ruleset=ruleset)
    lines = truth(out)
    assert stats.deals == 3000 and stats.mistakes == len(lines)
    assert 750 <= len(lines) <= 1050  # about three deals in ten
    assert findings(checked(out)) == Counter((t["id"], t["code"], t["trick"], t["player"]) for t in lines)


PINNED_73DD9AA: list[tuple[dict[str, Any] | None, float, str]] = [
    (None, 0.0, "9170bcdd456a9311893ba7dd9cff2e5f1c8641304eefba7cf2c8b448d58d357a"),
    (None, 0.3, "65131642b1753002993b78b9e24d8ed490d4e6131a7180e7d6a0b748c33a0975"),
    ({"preset": "oberoesterreich"}, 0.3, "4360c7cce10d20d6a27612f58bb7d1330e13eb4a9de0c2a2a96e5d0fe7cbd71a"),
    ({"values": "wien", "counting": "1/1", "min_win_score": 54, "valat_keeps_announced": False,
      "concession_pays_announced": False, "trischaken_ties": "earliest", "trischaken_jungfrau": "double"},
     0.0, "264fac4cafe860fbe6cc5d682011f86e6ca27bc0d51ce549bfd76010b6035c1f"),
    ({"values": "tirol", "quapil": True, "triccolo": True, "kings_in_color_games": False,
      "sechserdreier_doubles_valat": True, "valat_takes_game_kontra": True, "king_ultimo_by_party": True,
      "trischaken_talon": "last_trick"},
     0.1, "fbd580164f7f7a5a3a051c734d3ea628110f7b7c31475a7c5ca9d7c85323fe14"),
]
"""Runs of 40 sessions of 25 deals, seed 73, and the SHA-256 of their records, '|' and their truth as main
wrote them at commit 73dd9aa, before the compiled Königrufen check and scorer (``git archive 73dd9aa``, run
with ``TAROCK_REFERENCE=1``): most clean deals take the compiled way now."""


@pytest.mark.parametrize(("options", "rate", "pinned"), PINNED_73DD9AA)
def test_koenigrufen_output_is_main_s_the_reference_s_and_any_workers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: dict[str, Any] | None, rate: float,
        pinned: str) -> None:
    from tarock import accel
    from tests.sim.test_compiled_play import digest

    monkeypatch.setattr(simulate_module, "DEALS_PER_CHUNK", 250)
    runs = {"compiled": (tmp_path / "c.jsonl", 1), "two workers": (tmp_path / "w.jsonl", 2)}
    for out, workers in runs.values():
        write_simulation(out, 4, 40, 25, 73, rate, workers, KR, options)
    with accel.reference():
        write_simulation(tmp_path / "r.jsonl", 4, 40, 25, 73, rate, 1, KR, options)
    assert {name: digest(out) for name, (out, _) in runs.items()} == {name: pinned for name in runs}
    assert digest(tmp_path / "r.jsonl") == pinned


@pytest.mark.parametrize("options",
                         [None, {"preset": "oberoesterreich"}, {"values": "sauwald", "quapil": True}])
def test_clean_koenigrufen_deals_take_the_compiled_check(monkeypatch: pytest.MonkeyPatch,
                                                         options: dict[str, Any] | None) -> None:
    """Almost every clean deal is checked by the kernel's lane and scored by the compiled scorer
    (``tarock.accel.kr_lane``); the few declined (a hand without a tarok, a colour game's taroks-first stash)
    take the reference's way."""
    from tarock.accel import kr_scorer
    from tarock.sim import koenigrufen_sim

    if kr_scorer.prepared() is None:
        pytest.skip("the compiled Königrufen scorer is not built")
    answers: list[bool] = []
    score_played = koenigrufen_sim.score_played

    def counted(*args: Any) -> Any:
        result = score_played(*args)
        answers.append(result is not None)
        return result

    monkeypatch.setattr(koenigrufen_sim, "score_played", counted)
    records = list(simulate(4, 20, 20, 12, 0.0, ruleset=KR, options=options))
    assert len(answers) == len(records) == 400  # every clean deal is offered
    assert sum(answers) >= 390, Counter(answers)
