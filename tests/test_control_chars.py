"""Control characters from records never reach the terminal raw (issue 24, fault 3).

A player named ``"Ana\\x1b[2J"`` cleared the screen of whoever ran ``tarock check`` on the file, and
``"\\x1b]0;…\\x07"`` set their window title.  Every human-readable output — ``check``, ``score``,
``report``, ``sql`` tables, ``convert``/``import`` notes, ingest's summary and skip notices — shows
such characters escaped (``\\x1b``); text meant for rich is never read as its markup either (a name
``[red]…[/red]`` is shown as typed, not as a style, nor ``[link=…]`` as a hyperlink escape).
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from ingest.commands import ingest, print_frame
from tarock.cli import app
from tarock.safe_text import escape_controls
from tests.support.hostile import CONTROL_NAMES, write_hostile
from tests.support.paths import ROOT

NAMES = {**CONTROL_NAMES, "Boris": "[red]Bo\x1b[31mris[/red]"}
"""Boris's R_FOLLOW_SUIT message starts with his name: rich markup and an escape sequence in one line."""
SESSION = "se\x1b[5mss\u202eion"
ID_PREFIX = "\x1b[1m"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""What must not appear in the output: C0 but tab and newline, DEL, C1, bidi overrides."""
runner = CliRunner()


def assert_clean(text: str) -> None:
    found = RAW.search(text)
    assert found is None, f"raw {found.group()!r} in {text[max(found.start() - 40, 0):found.end() + 40]!r}"


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_hostile(tmp_path_factory.mktemp("controls") / "deals.jsonl", NAMES, SESSION, ID_PREFIX)


@pytest.fixture(scope="module")
def store(records: Path) -> Path:
    store = records.parent / "store"
    assert ingest([records], store, executor="local:1", quiet=True).stored == 7
    return store


@pytest.mark.parametrize(("text", "shown"), [
    ("Ana\x1b[2J", "Ana\\x1b[2J"), ("\x07", "\\x07"), ("a\x00b", "a\\x00b"), ("\x9b31m", "\\x9b31m"),
    ("\x7f", "\\x7f"), ("a\nb\tc", "a\\nb\\tc"), ("r\u202eevil", "r\\u202eevil"), ("Čeh Žan", "Čeh Žan"),
])
def test_escape_controls(text: str, shown: str) -> None:
    assert escape_controls(text) == shown


def test_escape_controls_keeps_the_layout_it_is_told_to() -> None:
    assert escape_controls("a\nb\tc\x1b", keep="\n\t") == "a\nb\tc\\x1b"


def test_check(records: Path) -> None:
    result = runner.invoke(app, ["check", str(records)])
    assert_clean(result.output)
    assert "[red]Bo\\x1b[31mris[/red] played II" in result.output  # the card as drawn (issue 38)
    assert "\\x1b[1mexample-r_follow_suit" in result.output


def test_score_text(records: Path) -> None:
    result = runner.invoke(app, ["score", str(records)])
    assert_clean(result.output)
    assert "[red]Bo\\x1b[31mris[/red] played II" in result.output  # as typed, not a style; the card as drawn
    assert "\\u202e" in result.output  # the session title's bidi override, escaped


def test_report_table(store: Path) -> None:
    result = runner.invoke(app, ["report", "--store", str(store), "--by", "declarer", "--audit"])
    assert result.exit_code == 0, result.output
    assert_clean(result.output)
    assert "\\x1b" in result.output


def test_sql_table(store: Path) -> None:
    result = runner.invoke(app, ["sql", "--store", str(store), "SELECT DISTINCT player FROM results ORDER BY 1"])
    assert result.exit_code == 0, result.output
    assert_clean(result.output)
    assert "[red]" in result.output
    out = io.StringIO()
    print_frame(pl.DataFrame({"name": ["[link=http://evil.example]x[/link]"]}), "table", out)
    assert "[link=http://evil.example]x[/link]" in out.getvalue()


@pytest.mark.slow
def test_file_names_in_notices_and_summaries(tmp_path: Path, records: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "evil\x1b[2J.txt").write_bytes(b"x")  # skipped: the notice names it
    (folder / "bad\x07.jsonl").write_bytes(b"not json\n")  # read: an E_PARSE finding names it
    result = subprocess.run([sys.executable, "-m", "tarock.cli", "check", str(folder)], capture_output=True,
                            text=True, cwd=ROOT, timeout=300)
    assert_clean(result.stdout + result.stderr)
    assert "evil\\x1b[2J.txt" in result.stderr and "bad\\x07.jsonl" in result.stdout
    ingested = subprocess.run([sys.executable, "-m", "tarock.cli", "ingest", str(folder), "--store",
                               str(tmp_path / "store"), "--quiet"], capture_output=True, text=True, cwd=ROOT,
                              timeout=300)
    assert_clean(ingested.stdout + ingested.stderr)
    assert "evil\\x1b[2J.txt" in ingested.stderr
    converted = runner.invoke(app, ["convert", str(folder / "bad\x07.jsonl"), str(tmp_path / "out.jsonl")])
    assert_clean(converted.output)
