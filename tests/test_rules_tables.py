"""Rules tables: presets and house tables (TOML), --rules on check/score/ingest, `tarock rules`, and
`tarock score --compare`."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from tarock.cli import app
from tarock.options import OptionError, options_for
from tarock.rules.tables import TableError, builtin_tables, load_table
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"
SESSION = EXAMPLES / "koenigrufen_session.jsonl"
SAMPLE = ROOT / "data" / "sample" / "sample-4p.jsonl.gz"
runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def toml(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return path


# --- loading ------------------------------------------------------------------------------------------------


def test_scoped_overrides_touch_only_their_ruleset() -> None:
    # emperor_trick exists in both rulesets: a Königrufen table leaves Slovenian records alone
    scoped = {"ruleset": "koenigrufen", "emperor_trick": False}
    assert options_for("koenigrufen", None, scoped).emperor_trick is False
    assert options_for("slovenian", None, scoped).emperor_trick is True
    with pytest.raises(OptionError):  # strict for its own ruleset
        options_for("koenigrufen", None, {"ruleset": "koenigrufen", "radelci": False})


def test_house_table_on_a_preset(tmp_path: Path) -> None:
    path = toml(tmp_path, 'ruleset = "koenigrufen"\npreset = "oberoesterreich"\nname = "Linz"\n'
                          '[options]\nquapil = false\nvalues = "wien"\n')
    table = load_table(str(path))
    assert table.ruleset == "koenigrufen" and table.title == "Linz"
    assert table.options.quapil is False and table.options.values == "wien"
    assert table.options.king_ultimo_by_party is True  # from the preset
    assert table.overrides == {"ruleset": "koenigrufen", "preset": "oberoesterreich", "quapil": False,
                               "values": "wien"}


@pytest.mark.parametrize("text, words", [
    ('ruleset = "koenigrufen"\n[options]\nquapil = "false"\n', ["options.quapil", "'false'", "allowed: false, true"]),
    ('ruleset = "koenigrufen"\n[options]\nquapill = true\n', ["options.quapill", "not a koenigrufen option"]),
    ('ruleset = "koenigrufen"\n[options]\nmin_win_score = 200\n', ["options.min_win_score", "1 to 106"]),
    ('ruleset = "koenigrufen"\n[options]\ncounting = "1/1"\n', ["min_win_score"]),
    ('ruleset = "koenigrufen"\npreset = "wien"\n', ["preset", "'oberoesterreich'"]),
    ('ruleset = "tarok"\n', ["ruleset", "'slovenian', 'koenigrufen'"]),
    ('preset = "oberoesterreich"\n', ["'ruleset' is missing"]),
    ('ruleset = "koenigrufen"\n[values]\ndreier = 5\n', ["'values'", "game and bonus values"]),
    ('ruleset = "koenigrufen"\nquapil = true\n', ["'quapil'", "allowed: ruleset, preset, name, options"]),
    ('ruleset = koenigrufen\n', ["not valid TOML"]),
])
def test_bad_house_tables_name_the_file_and_the_key(tmp_path: Path, text: str, words: list[str]) -> None:
    path = toml(tmp_path, text)
    with pytest.raises(TableError) as err:
        load_table(str(path))
    message = str(err.value)
    assert message.startswith(str(path))
    for word in words:
        assert word in message


def test_unknown_table_name() -> None:
    with pytest.raises(TableError, match="unknown rules table 'oberösterreich'.*oberoesterreich"):
        load_table("oberösterreich")


# --- the command line ---------------------------------------------------------------------------------------


def test_rules_list_and_show() -> None:
    code, out = run("rules", "list", "-f", "json")
    assert code == 0
    tables = {t["name"]: t for t in orjson.loads(out)}
    assert {t.name for t in builtin_tables()} == set(tables)
    assert tables["oberoesterreich"]["options"]["trischaken_talon"] == "last_trick"
    assert tables["koenigrufen"]["changed"] == {}
    code, out = run("rules", "show", "oberoesterreich")
    assert code == 0 and "king_ultimo_by_party" in out and "last_trick" in out
    code, out = run("rules", "show", "nonesuch")
    assert code == 2 and "unknown rules table 'nonesuch'" in out


@pytest.mark.parametrize("command", ["check", "score"])
def test_bad_rules_exit_2_and_name_the_key(tmp_path: Path, command: str) -> None:
    path = toml(tmp_path, 'ruleset = "koenigrufen"\n[options]\nemperor_trick = 1\n')
    code, out = run(command, str(SESSION), "--rules", str(path))
    assert code == 2
    assert f"{path}: options.emperor_trick = 1 is not allowed; allowed: true, false" in out
    code, out = run(command, str(SESSION), "--rules", "nonesuch")
    assert code == 2 and "unknown rules table" in out
    # -o on top of a table is checked against the table's ruleset: nothing half-applied
    code, out = run(command, str(SESSION), "--rules", "oberoesterreich", "-o", "radelci=false")
    assert code == 2 and "radelci" in out


def test_score_under_a_table_equals_the_preset_override(tmp_path: Path) -> None:
    path = toml(tmp_path, 'ruleset = "koenigrufen"\npreset = "oberoesterreich"\n')
    by_file = run("score", str(SESSION), "--rules", str(path), "-f", "json")
    by_name = run("score", str(SESSION), "--rules", "oberoesterreich", "-f", "json")
    by_o = run("score", str(SESSION), "-o", "preset=oberoesterreich", "-f", "json")
    assert by_file[1] == by_name[1] == by_o[1]
    # the example session's figures under the Upper-Austrian table (see the compare test below)
    assert orjson.loads(by_name[1].splitlines()[0])["totals"] == {"Ana": 13, "Boris": -19, "Cilka": 15, "David": -9}


def test_check_under_a_table() -> None:
    code, out = run("check", str(SESSION), "--rules", "oberoesterreich", "-f", "json")
    assert code in (0, 1)
    assert len([line for line in out.splitlines() if line.startswith("{")]) == 6


def test_compare_the_example_session() -> None:
    # Raiffeisen (the ruleset's defaults) against oberoesterreich: hand 2, David's Dreier (4) lost with
    # Ana's kontra, is 4 × 2 = 8 to each under Raiffeisen and 4 on the Upper-Austrian sheet (no kontra):
    # David -24 → -12, the others +8 → +4. Hand 4, the Trischaken: Boris has 29 points with the talon
    # spread over tricks 1-6, but the whole talon goes to the last trick, which Boris took: 39⅓ points,
    # a Bürgermeister paying 2 to each instead of 1: Boris -3 → -6, the others +1 → +2.
    # The other four hands (a Rufer, a Besserrufer, a Piccolo, a Bettel renonce) have no kontra, valat,
    # Kaiserstich, König ultimo or Quapil and score the same. Totals: Ana 16 - 4 + 1 = 13,
    # Boris -12 - 4 - 3 = -19, Cilka 18 - 4 + 1 = 15, David -22 + 12 + 1 = -9.
    code, out = run("score", str(SESSION), "--compare", "koenigrufen,oberoesterreich", "-f", "json")
    assert code == 0
    (session,) = [orjson.loads(line) for line in out.splitlines()]
    assert session["totals"]["koenigrufen"] == {"Ana": 16, "Boris": -12, "Cilka": 18, "David": -22}
    assert session["totals"]["oberoesterreich"] == {"Ana": 13, "Boris": -19, "Cilka": 15, "David": -9}
    diffs = session["differences"]
    assert [(d["hand"], d["contract"]) for d in diffs] == [(2, "dreier"), (4, "trischaken")]
    assert diffs[0]["scores"]["oberoesterreich"]["David"] == -12
    assert any("Bürgermeister" in line for line in diffs[1]["lines"]["oberoesterreich"])
    assert not any("Bürgermeister" in line for line in diffs[1]["lines"]["koenigrufen"])
    code, text = run("score", str(SESSION), "--compare", "koenigrufen,oberoesterreich")
    assert code == 0 and "2 deals score differently" in text


@pytest.mark.slow
def test_compare_the_slovenian_sample_csv() -> None:
    code, out = run("score", str(SAMPLE), "--compare", "slovenian,openspiel", "-f", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    totals = [r for r in rows if r["hand"] == "total"]
    assert totals and {"slovenian", "openspiel"} <= set(rows[0])
    # every hand row is a deal that differs; summing each table's hand rows plus the equal deals gives
    # the totals, which must match `score -f json` under each table
    code, sheet = run("score", str(SAMPLE), "-f", "json")
    first = orjson.loads(sheet.splitlines()[0])
    mine = {r["player"]: int(r["slovenian"]) for r in totals if r["session"] == first["session"]}
    assert mine == first["totals"]
    code, sheet = run("score", str(SAMPLE), "--rules", "openspiel", "-f", "json")
    first = orjson.loads(sheet.splitlines()[0])
    theirs = {r["player"]: int(r["openspiel"]) for r in totals if r["session"] == first["session"]}
    assert theirs == first["totals"]


def test_compare_needs_two_good_tables(tmp_path: Path) -> None:
    assert run("score", str(SESSION), "--compare", "koenigrufen")[0] == 2
    path = toml(tmp_path, 'ruleset = "koenigrufen"\n[options]\nquapil = "yes"\n')
    code, out = run("score", str(SESSION), "--compare", f"koenigrufen,{path}")
    assert code == 2 and "options.quapil" in out


def test_compare_charges_the_radelci_still_open_at_the_end_as_the_sheet_does() -> None:
    # data/examples/seed_session.jsonl: `tarock score` writes Ana's total -100 and, with her radelc still open
    # after hand 4, her final -200 (-100 per open radelc); Boris +70 and David -140 have one open too, Cilka
    # none.  Under palcka (radelc_session_value 40) an open radelc costs 40: Ana -102 - 40 = -142, Boris
    # +70 - 40 = +30, David -142 - 40 = -182, Cilka +188.  openspiel keeps no radelci: its finals are its totals.
    code, out = run("score", str(EXAMPLES / "seed_session.jsonl"), "--compare", "slovenian,palcka,openspiel",
                    "-f", "json")
    assert code == 0
    (session,) = [orjson.loads(line) for line in out.splitlines()]
    assert session["finals"]["slovenian"] == {"Ana": -200, "Boris": -30, "Cilka": 190, "David": -240}
    assert session["finals"]["palcka"] == {"Ana": -142, "Boris": 30, "Cilka": 188, "David": -182}
    assert session["finals"]["openspiel"] == session["totals"]["openspiel"]
    code, text = run("score", str(EXAMPLES / "seed_session.jsonl"), "--compare", "slovenian,palcka")
    assert code == 0
    ana_final = next(line for line in text.splitlines() if "Ana final" in line)
    assert "-200" in ana_final and "-142" in ana_final
    assert "each radelc still open at the end costs" in " ".join(text.split())
    code, sheet = run("score", str(EXAMPLES / "seed_session.jsonl"))
    assert code == 0 and "-200" in next(line for line in sheet.splitlines() if "Final" in line)


def test_a_sheet_kept_under_another_table_is_named_with_it() -> None:
    # koenigrufen_session.jsonl records the figures of the koenigrufen defaults.  Scored under oberoesterreich,
    # hands 2 (a Dreier with a kontra) and 4 (a Trischaken with a Bürgermeister) differ (the comparison above);
    # every recorded figure of both is what the koenigrufen table gives, so the sheet is named as kept under it.
    code, out = run("score", str(SESSION), "--rules", "oberoesterreich")
    assert code == 1 and "no single line explains it" in out
    said = [line for line in out.splitlines() if "the recorded figures are what" in line]
    assert said == [
        "session kr-club-1, hand 2 (kr-session-2): the recorded figures are what the koenigrufen table gives",
        "session kr-club-1, hand 4 (kr-session-4): the recorded figures are what the koenigrufen table gives"]
    assert "the sheet looks kept under it (tarock score --rules koenigrufen)" in out
    # under its own table nothing disagrees but the renons hand's score, and no other table is named
    code, out = run("score", str(SESSION))
    assert "the recorded figures are what" not in out and "looks kept under" not in out
