"""The bundled Königrufen session: ``tarock score`` reproduces its hand-computed sheet.

The story and each figure are worked out by hand in
``scripts/make_koenigrufen_examples.py``; they are repeated here next to the
assertions.
"""

from __future__ import annotations

from pathlib import Path

import orjson
from typer.testing import CliRunner

from tarock.cli import app
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"
SESSION = EXAMPLES / "koenigrufen_session.jsonl"
P4 = ["Ana", "Boris", "Cilka", "David"]
runner = CliRunner()

HANDS = [
    # 1. Rufer, Ana and Cilka win with a silent Trull: game 1 + Trull 1 per payment
    {"Ana": 2, "Boris": -2, "Cilka": 2, "David": -2},
    # 2. Dreier 4 lost by David, Ana's kontra: 4 × 2 = 8 to each opponent
    {"Ana": 8, "Boris": 8, "Cilka": 8, "David": -24},
    # 3. Piccolo 2 won by Ana (exactly one trick): 2 from each
    {"Ana": 6, "Boris": -2, "Cilka": -2, "David": -2},
    # 4. Trischaken: Boris has most points (under 35⅔, not forehand): 1 to each
    {"Ana": 1, "Boris": -3, "Cilka": 1, "David": 1},
    # 5. Besserrufer 1 by Boris with Ana; game won (+1), announced Uhu failed (-4): -3 each partner
    {"Ana": -3, "Boris": -3, "Cilka": 3, "David": 3},
    # 6. Bettel 2 by Cilka; Boris revokes: he pays Cilka 3 × 2 = 6, Ana 2, David 2
    {"Ana": 2, "Boris": -10, "Cilka": 6, "David": 2},
]
TOTALS = {"Ana": 16, "Boris": -12, "Cilka": 18, "David": -22}  # 2+8+6+1-3+2, -2+8-2-3-3-10, 2+8-2+1+3+6, -2-24-2+1+3+2


def test_tarock_score_reproduces_the_sheet() -> None:
    result = runner.invoke(app, ["score", "-f", "json", str(SESSION)])
    assert result.exit_code == 0, result.output
    (sheet,) = [orjson.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert sheet["session"] == "kr-club-1" and sheet["players"] == P4
    assert [row["cells"] for row in sheet["hands"]] == HANDS
    assert all(not row["mismatches"] for row in sheet["hands"])
    assert sheet["totals"] == TOTALS and sheet["final"] == TOTALS
    assert sum(TOTALS.values()) == 0
    assert [row["status"] for row in sheet["hands"]] == ["ok"] * 5 + ["renons"]


def test_check_objects_of_the_session() -> None:
    result = runner.invoke(app, ["check", "-f", "json", str(SESSION)])
    assert result.exit_code == 1  # hand 6 has a renonce
    objs = [orjson.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    for obj in objs:
        assert obj["ruleset"] == "koenigrufen" and sum(obj["scores"].values()) == 0
        if obj["contract"] == "trischaken":
            assert set(obj["card_points"]) == set(P4) and obj["declarers"] == []
        else:
            assert set(obj["card_points"]) == {"declarer_side", "opponents"}
            assert obj["declarers"] == [obj["declarer"]]
    rufer, dreier = objs[0], objs[1]
    assert rufer["partner"] == "Cilka" and rufer["card_points"]["declarer_side"] >= 36
    assert rufer["card_points"]["declarer_side"] + rufer["card_points"]["opponents"] == 70
    assert dreier["won"] is False and dreier["card_points"]["declarer_side"] <= 35
    assert objs[5]["penalty"] == "austrian_renonce"
    assert objs[5]["unpenalised"] is not None


def test_a_wrong_figure_is_explained(tmp_path: Path) -> None:
    # The sheet forgot Ana's kontra in hand 2: David -12 instead of -24.
    lines = SESSION.read_text().splitlines()
    hand = orjson.loads(lines[1])
    hand["recorded"]["scores"]["David"] = -12
    lines[1] = orjson.dumps(hand).decode()
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["check", str(path)])
    assert "A_SCORE_MISMATCH recorded -12 for David, recomputed -24: the kontra (×2) on the game is not applied" \
        in result.output
