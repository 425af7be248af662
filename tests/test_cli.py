"""The command line: tarock check and tarock score, run as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from tarock.cli import app
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"
runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def json_lines(output: str) -> list[dict]:
    return [orjson.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_check_clean_file_exits_0_with_summary() -> None:
    code, out = run("check", str(EXAMPLES / "seed_hearts_trick.json"))
    assert code == 0
    assert out.strip().endswith("1 deal: 1 ok, 0 renons, 0 error; 0 findings")


def test_check_renons_exits_1_and_prints_linter_lines() -> None:
    path = EXAMPLES / "findings" / "r_follow_suit.json"
    code, out = run("check", str(path))
    assert code == 1
    first = out.splitlines()[0]
    # FILE:LINE DEAL-ID trick N: CODE message
    assert first.startswith(f"{path}:2 example-r_follow_suit trick ")
    assert ": R_FOLLOW_SUIT Boris played " in first
    # the sentence names cards as the dashboard draws them (issue 38); --format json keeps the codes
    assert "Boris played II on a diamond lead while holding 1♦" in out
    assert "holding D1" in json.dumps(json_lines(run("check", "--format", "json", str(path))[1]))


def test_check_json_fields() -> None:
    code, out = run("check", "--format", "json", str(EXAMPLES / "seed_emperor_trick.json"))
    assert code == 0
    (obj,) = json_lines(out)
    for key in ("id", "status", "findings", "contract", "declarer", "partner", "tricks", "card_points", "scores",
                "breakdown", "radelci_before", "radelci_after"):
        assert key in obj
    assert obj["status"] == "ok" and obj["contract"] == "tri" and obj["declarer"] == "Ana"
    first = obj["tricks"][0]
    # Škis (5) + Mond (5) + Pagat (5) + T9 (1): raw 16; Cilka's Pagat wins the emperor trick
    assert first == {"leader": "Ana", "players": ["Ana", "Boris", "Cilka", "David"],
                     "cards": ["T22", "T21", "T1", "T9"], "winner": "Cilka", "points": 16}
    assert obj["card_points"]["declarer_side"] + obj["card_points"]["opponents"] == 70
    assert sum(obj["scores"].values()) == sum(
        line["value"] * len(line["players"]) for line in obj["breakdown"])


def test_check_parse_error_object_and_exit() -> None:
    code, out = run("check", "-f", "json", str(EXAMPLES / "findings" / "e_parse.jsonl"))
    assert code == 1
    objs = json_lines(out)
    assert [o["status"] for o in objs] == ["error", "error", "ok"]
    assert objs[0]["id"] is None and objs[0]["line"] == 1 and objs[0]["findings"][0]["code"] == "E_PARSE"


def test_check_usage_errors_exit_2() -> None:
    assert run("check", "no/such/file.jsonl")[0] == 2
    assert run("check", "-o", "diff_rounding=sometimes", str(EXAMPLES / "seed_pik10_trick.json"))[0] == 2
    assert run("check", "-o", "nonsense", str(EXAMPLES / "seed_pik10_trick.json"))[0] == 2


def test_check_ruleset_option_changes_the_result() -> None:
    path = str(EXAMPLES / "seed_emperor_trick.json")
    base = json_lines(run("check", "-f", "json", path)[1])[0]
    off = json_lines(run("check", "-f", "json", "-o", "emperor_trick=false", path)[1])[0]
    # with the emperor trick off, the Škis (Ana, declarer) wins trick 1 instead of Cilka's Pagat
    assert base["tricks"][0]["winner"] == "Cilka"
    assert off["tricks"][0]["winner"] == "Ana"


def test_score_reproduces_the_seed_sheet() -> None:
    code, out = run("score", "-f", "json", str(EXAMPLES / "seed_session.jsonl"))
    assert code == 0
    (sheet,) = json_lines(out)
    cells = [h["cells"] for h in sheet["hands"]]
    # Seed 004's worked example: only the playing side writes.
    assert cells[0] == {"Ana": 40, "Boris": None, "Cilka": 40, "David": None}
    assert cells[1] == {"Boris": 70, "Cilka": None, "David": None, "Ana": None}
    assert cells[2] == {"Cilka": 150, "David": None, "Ana": None, "Boris": None}
    assert cells[3] == {"David": -140, "Ana": -140, "Boris": None, "Cilka": None}
    # Radelci: everyone gets one after the Berač; Cilka's is cancelled by her won Solo tri;
    # David's stays after his lost Dva.
    assert sheet["hands"][1]["radelci_after"] == {"Ana": 1, "Boris": 1, "Cilka": 1, "David": 1}
    assert sheet["hands"][2]["radelci_after"]["Cilka"] == 0
    assert sheet["radelci"] == {"Ana": 1, "Boris": 1, "Cilka": 0, "David": 1}
    # totals: Ana 40-140, Boris 70, Cilka 40+150, David -140; session end -100 per open radelc
    assert sheet["totals"] == {"Ana": -100, "Boris": 70, "Cilka": 190, "David": -140}
    assert sheet["final"] == {"Ana": -200, "Boris": -30, "Cilka": 190, "David": -240}


def test_score_flags_a_wrong_sheet_figure(tmp_path: Path) -> None:
    lines = (EXAMPLES / "seed_session.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["recorded"]["scores"]["Ana"] = 30  # the difference forgotten: 30 instead of 30 + 10
    lines[0] = json.dumps(first)
    path = tmp_path / "sheet.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out = run("score", str(path))
    assert code == 1
    assert "(sheet +30)" in out
    code, out = run("check", "-f", "json", str(path))
    audit = [f for f in json_lines(out)[0]["findings"] if f["code"] == "A_SCORE_MISMATCH"]
    assert len(audit) == 1 and audit[0]["player"] == "Ana"
    assert "recorded +30" in audit[0]["message"] and "+40" in audit[0]["message"]


def test_score_csv_has_a_row_per_player_and_session_end() -> None:
    code, out = run("score", "-f", "csv", str(EXAMPLES / "seed_session.jsonl"))
    rows = out.strip().splitlines()
    assert rows[0].startswith("session,hand,id,contract")
    assert len(rows) == 1 + 4 * 4 + 4  # header, 4 hands x 4 players, session end per player
    assert "seed-004,end,,session_end,,,Ana,-100,,0,1" in rows


@pytest.mark.slow
def test_simulate_writes_records_and_truth_and_the_bundled_sample_matches_its_truth(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl.gz"
    code, text = run("simulate", "--players", "3", "--sessions", "2", "--deals-per-session", "5", "--seed", "9",
                     "--mistakes", "0.5", "--out", str(out))
    assert code == 0 and "wrote 10 deals in 2 sessions" in text
    assert out.exists() and (tmp_path / "s.truth.jsonl").exists()
    # the bundled sample: every injected mistake is found, nothing else
    sample = EXAMPLES.parent / "sample"
    for name, least in (("sample-4p", 10), ("sample-3p", 10), ("sample-kr", 2)):  # kr: 300 deals at 0.02
        truth_file = EXAMPLES.parent / "sample_truth" / f"{name}.truth.jsonl"
        truth = sorted((t["id"], t["code"], t["trick"], t["player"]) for t in
                       map(json.loads, truth_file.read_text().splitlines()))
        found = sorted((o["id"], f["code"], f["trick"], f["player"]) for o in
                       json_lines(run("check", "-f", "json", str(sample / f"{name}.jsonl.gz"))[1])
                       for f in o["findings"])
        assert found == truth and len(truth) > least


@pytest.mark.parametrize("args", [("--ruleset", "koenigrufen", "--players", "3"), ("--players", "5"),
                                  ("--mistakes", "1.5"), ("--ruleset", "jass")])
def test_simulate_refuses_its_arguments_before_creating_a_file(tmp_path: Path, args: tuple[str, ...]) -> None:
    """Issue 38: a refused simulation exited 2 but left 0-byte record and truth files behind."""
    code, text = run("simulate", "--sessions", "1", "--deals-per-session", "1", "--out", str(tmp_path / "s.jsonl.gz"),
                     *args)
    assert code == 2 and "Invalid value" in text
    assert list(tmp_path.iterdir()) == []


def test_analyse_json_and_klop_out_of_scope() -> None:
    code, out = run("analyse", str(EXAMPLES / "seed_session.jsonl"), "--from-trick", "10", "-f", "json")
    assert code == 0
    objs = json_lines(out)
    assert [o["id"] for o in objs] == [f"seed-session-hand-{i}" for i in range(1, 5)]
    first = objs[0]
    # tricks 10, 11, 12 with 4 players: 12 annotated cards; best play never loses points against itself
    assert first["from_trick"] == 10 and len(first["cards"]) == 12
    assert all(c["point_loss"] >= 0 for c in first["cards"])
    assert objs[1]["best"] == {"declarer_takes_trick": False}  # Boris's Berač: he can avoid every trick
    klop = json_lines(run("analyse", str(EXAMPLES / "seed_negative_must_beat.json"), "-k", "10", "-f", "json")[1])
    assert "Klop has no sides" in klop[0]["error"]


def test_analyse_a_ruleset_it_cannot_play_says_so_and_exits_1() -> None:
    """A Königrufen file (six deals): each deal says the solver plays Slovenian tarok only, no empty per-player
    table follows, and the exit is 1 with the count on stderr."""
    code, out = run("analyse", str(EXAMPLES / "koenigrufen_session.jsonl"))
    assert code == 1
    assert out.count("the solver plays Slovenian tarok only, not Königrufen") == 6
    assert "Per player" not in out
    assert "6 of 6 deals could not be analysed" in out and "nothing to summarise" in out
    code, out = run("analyse", str(EXAMPLES / "koenigrufen_session.jsonl"), "-f", "json")
    assert code == 1 and len(json_lines(out)) == 6


def test_analyse_sums_up_the_deals_it_analysed_and_exits_1_for_the_others() -> None:
    """The seed session's four deals and a Klop (no sides: not analysed): the summary counts the four, and the
    exit says one deal was not analysed."""
    code, out = run("analyse", str(EXAMPLES / "seed_session.jsonl"), str(EXAMPLES / "seed_negative_must_beat.json"),
                    "--from-trick", "11")
    assert code == 1
    assert "Per player, over 4 deals" in out
    assert "1 of 5 deals could not be analysed (each says why above)" in out and "nothing to summarise" not in out


def test_a_loss_of_one_card_point_is_singular() -> None:
    from tarock.solver.analyse import text_lines

    report = {"id": "d1", "from_trick": 11, "analysed_from": 11, "best": {"declarer_side": 40},
              "cards": [{"trick": 11, "player": "Ana", "card": "T2", "point_loss": 1, "best_cards": ["T3"]},
                        {"trick": 12, "player": "Bor", "card": "T4", "point_loss": 2, "best_cards": []}]}
    lines = list(text_lines(report))
    assert lines[1] == "  trick 11: Ana played II, losing 1 card point (better: III)"  # cards as drawn
    assert lines[2] == "  trick 12: Bor played IV, losing 2 card points"


def test_penalty_option_selects_the_policy() -> None:
    path = str(EXAMPLES / "findings" / "r_follow_suit.json")
    default = json_lines(run("check", "-f", "json", path)[1])[0]
    annulled = json_lines(run("check", "-f", "json", "--penalty", "annul", path)[1])[0]
    assert default["penalty"] == "slovenian_renons"
    # Boris, the offender, writes the penalty -(Dva 20) on top of his score by default
    assert any(line["component"] == "penalty" and line["players"] == ["Boris"] for line in default["breakdown"])
    assert annulled["penalty"] == "annul" and set(annulled["scores"].values()) == {0}
    assert run("check", "--penalty", "nonsense", path)[0] == 2


def test_analyse_ends_with_a_summary_per_player() -> None:
    code, out = run("analyse", str(EXAMPLES / "seed_session.jsonl"), "--from-trick", "11")
    assert code == 0
    assert "Per player, over 4 deals" in out
    for name in ("Ana", "Boris", "Cilka", "David"):
        assert name in out.split("Per player")[1]
    # from trick 6 the session's players lose points: each loss names the cards that would have lost none,
    # in the card lines and in the summary's biggest losses, one per line (no escaped newline)
    code, out = run("analyse", str(EXAMPLES / "seed_session.jsonl"), "--from-trick", "6")
    assert code == 0
    lines = [line for line in out.splitlines() if "losing" in line]
    assert lines and all("(better: " in line for line in lines)
    assert "better:" in out.split("Per player")[1] and "\\n" not in out


def test_the_demo_says_where_the_dashboard_is_once_and_cuts_no_list_silently() -> None:
    """Issue 38: the demo printed "dashboard on …" itself and then ``tarock dashboard`` said it again; and it
    piped the disputes through ``head``, which cut the list after 4 of 53 without a word."""
    demo = (ROOT / "scripts" / "demo.sh").read_text()
    assert not [line for line in demo.splitlines() if line.startswith("echo") and "dashboard" in line]
    assert 'exec $TAROCK dashboard --store "$STORE"' in demo  # which says where it serves, once
    assert "| head" not in demo and "--top" in demo


def test_the_house_table_of_the_readme_exists_and_is_headed_by_its_name() -> None:
    """Issue 38: the README compared a house.toml that did not exist, and a house table's column was headed by
    its path."""
    readme = (ROOT / "README.md").read_text()
    line = next(line for line in readme.splitlines() if line.startswith("tarock score --compare"))
    code, out = run(*line.split()[1:])
    assert code == 0, out
    header = next(row for row in out.splitlines() if "player" in row)
    assert "Linz club" in header and "house.toml" not in header


def test_rules_list_cuts_no_value_at_80_columns() -> None:
    """Issue 38: at 80 columns every long value ended in "…"; each table's values are printed whole."""
    from tarock.rules.tables import _toml_text, builtin_tables

    code, out = run("rules", "list")
    assert code == 0 and "…" not in out
    assert all(len(line) <= 80 for line in out.splitlines())
    for table in builtin_tables():
        for key, value in table.options.to_dict().items():
            assert any(key in line and _toml_text(value) in line for line in out.splitlines()), (table.name, key)
