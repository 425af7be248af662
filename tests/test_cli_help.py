"""The command line as a user reads it (issue 23): help, --version, contract names, report parts, the
score sheet's legend and CSV blanks, singular counts and the OpenSpiel extra's install hint."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from tarock import __version__
from tarock.cli import app
from tests.support.analysis_store import build_store
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"
runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), terminal_width=100)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("cli") / "store")


@pytest.mark.parametrize("command", [(), ("report",), ("check",), ("ingest",), ("dashboard",), ("score",)])
def test_help_shows_flags_without_values_and_click_metavars(command: tuple[str, ...]) -> None:
    code, out = run(*command, "--help")
    assert code == 0
    for python_type in ("<bool>", "<list[", "<str>", "<int>", "<path>", "{files}"):
        assert python_type not in out


def test_report_help_names_its_values() -> None:
    _, out = run("report", "--help")
    assert "--audit  " in out.replace("│", " ") or "--audit " in out
    assert "[table|csv|json]" in out and "DATE" in out and "CONTRACT" in out and "[rates|disputes|misplays]" in out


def test_version() -> None:
    code, out = run("--version")
    assert code == 0 and out.strip() == f"tarock {__version__}"


@pytest.mark.parametrize("given", ["Berač", "berac", "BERAC", "berač"])
def test_report_contract_takes_the_dashboards_label(store: Path, given: str) -> None:
    code, out = run("report", "--store", str(store), "--contract", given, "-f", "csv")
    assert code == 0
    assert pl.read_csv(io.StringIO(out))["contract"].to_list() == ["berac"]  # s1-4, won


def test_report_unknown_contract_lists_the_valid_ones(store: Path) -> None:
    result = runner.invoke(app, ["report", "--store", str(store), "--contract", "foo"])
    assert result.exit_code == 2
    assert "unknown contract 'foo'" in result.output and "Berač" in result.output and "Solo tri" in result.output


def test_report_audit_csv_is_one_table(store: Path) -> None:
    code, out = run("report", "--store", str(store), "--audit", "-f", "csv")
    assert code == 0 and "\n\n" not in out
    assert pl.read_csv(io.StringIO(out))["deal_id"].to_list() == ["s1-4", "s1-6"]
    code, out = run("report", "--store", str(store), "--what", "rates", "-f", "csv")
    assert code == 0 and pl.read_csv(io.StringIO(out))["contract"][0] == "tri"
    code, out = run("report", "--store", str(store), "--what", "disputes")
    assert code == 0 and "Disputed scores (2)" in out and "Win rates" not in out


def test_score_sheet_has_a_legend() -> None:
    code, out = run("score", str(EXAMPLES / "seed_session.jsonl"))
    legend = out[out.index("Legend:"):]
    for mark in ("○", "—", "Session end", "Final"):
        assert mark in legend


def test_score_csv_leaves_not_recorded_blank(tmp_path: Path) -> None:
    """The seed session's first hand records Ana's and Cilka's +40 only: Boris's and David's ``recorded``
    cells are blank (not recorded), not 0."""
    first = (EXAMPLES / "seed_session.jsonl").read_text().splitlines()[0]
    path = tmp_path / "one.jsonl"
    path.write_text(first + "\n")
    _, out = run("score", "-f", "csv", str(path))
    frame = pl.read_csv(io.StringIO(out), schema_overrides={"recorded": pl.String}).filter(pl.col("hand") == "1")
    recorded = dict(zip(frame["player"], frame["recorded"]))
    assert recorded == {"Ana": "40", "Boris": None, "Cilka": "40", "David": None}


def test_convert_says_1_record(tmp_path: Path) -> None:
    code, out = run("convert", str(EXAMPLES / "seed_hearts_trick.json"), str(tmp_path / "out.jsonl"))
    assert code == 0 and "wrote 1 record to" in out


def test_openspiel_without_the_extra_names_the_checkout_install(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel raises ImportError
    games = tmp_path / "games.jsonl"
    games.write_text('{"players": 4, "rng_seed": 1, "actions": [0]}\n')
    result = runner.invoke(app, ["import", "openspiel", str(games), "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2
    assert "bash scripts/setup.sh openspiel" in result.output
    assert ".venv/bin/pip install -e '.[openspiel]'" in result.output
    assert "tarock[openspiel]'" not in result.output.replace("-e '.[openspiel]'", "")


@pytest.fixture(scope="module")
def review_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.support.dashboard_fixture import build_store as build_review_store

    return build_review_store(tmp_path_factory.mktemp("show"))


def test_show_prints_one_stored_deal(review_store: Path) -> None:
    code, out = run("show", "example-r_follow_suit", "--store", str(review_store))
    assert code == 0
    for part in ("Dva — declarer Cilka", "⚠ renons", "Hands", "Tricks", "Findings (1)", "Scores", "Breakdown"):
        assert part in out
    assert "Boris played II on a diamond lead while holding 1♦" in out  # cards named as the dashboard draws them


def test_show_a_klop_prints_its_tricks_in_the_table_alone(tmp_path: Path) -> None:
    """A Klop has no stash step, so the steps before its first trick are three: ``show`` printed the first
    trick's step ("Trick 1", "… leads") as a fourth before the tricks table (issue 38)."""
    from ingest.commands import ingest

    store = tmp_path / "store"
    ingest([EXAMPLES / "seed_negative_must_beat.json"], store, "local:1", quiet=True)
    code, out = run("show", "example-seed-negative-must-beat", "--store", str(store))
    assert code == 0
    before_table = out.split("Tricks")[0]
    assert "Bidding" in before_table and "Talon" in before_table and "Announcements" in before_table
    assert "Trick 1" not in before_table and " leads" not in before_table


def test_show_a_disputed_deal_says_so_and_an_unknown_id_exits_2(review_store: Path) -> None:
    code, out = run("show", "disputed-1", "--store", str(review_store))
    assert code == 0 and "disputed" in out and "None" not in out
    code, _ = run("show", "no-such-deal", "--store", str(review_store))
    assert code == 2


def test_report_names_the_option_of_a_date_that_is_none(review_store: Path) -> None:
    code, out = run("report", "--store", str(review_store), "--from", "2026-02-30")
    assert code == 2 and "--from: 2026-02-30 is not a date" in out
    code, out = run("report", "--store", str(review_store), "--to", "yesterday")
    assert code == 2 and "--to: yesterday is not a date" in out


def test_report_calendar_of_an_unknown_player_says_so(review_store: Path) -> None:
    """The review store's players are Ana, Boris, Cilka and David: "Nobody" is none of them (exit 2, as an
    unknown contract), "Borsi" is near Boris; a known player without dated deals in the dates is no error."""
    code, out = run("report", "--store", str(review_store), "--calendar", "Nobody")
    assert code == 2 and "no player named Nobody in the store" in out
    code, out = run("report", "--store", str(review_store), "--calendar", "Borsi")
    assert code == 2 and "near names: Boris" in out
    code, out = run("report", "--store", str(review_store), "--calendar", "Boris", "--from", "2030-01-01")
    assert code == 0 and "No dated, scored deals of Boris" in out


def test_check_counts_one_finding_in_the_singular() -> None:
    code, out = run("check", str(EXAMPLES / "findings" / "r_follow_suit.json"))
    assert code == 1
    assert out.strip().endswith("2 deals: 1 ok, 1 renons, 0 error; 1 finding")
