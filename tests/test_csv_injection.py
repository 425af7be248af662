"""CSV formula injection (issue 24, fault 2): no CSV the project writes starts a text cell with a formula.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and, per OWASP, tab or
carriage return) as a formula.  Player names, sessions, ids and messages come from record files
anyone can write, so every CSV writer — ``tarock score -f csv``, ``tarock report -f csv``,
``tarock sql -f csv`` and the dashboard's "Download CSV" — prefixes such a text cell with ``'``;
numbers, negative ones included, are written as numbers.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from typer.testing import CliRunner

from ingest.commands import ingest
from tarock.cli import app
from tarock.safe_text import csv_cell
from tests.support.hostile import FORMULA_NAMES, write_hostile

SESSION = "=SESSION()"
ID_PREFIX = "@"
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
runner = CliRunner()


def cells(text: str) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(text)) if row]


def assert_no_formula(text: str) -> None:
    """No cell starts with a formula character unless it is a plain number."""
    for row in cells(text):
        for cell in row:
            assert not (cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not NUMBER.fullmatch(cell)), (cell, row)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_hostile(tmp_path_factory.mktemp("formulas") / "deals.jsonl", FORMULA_NAMES, SESSION, ID_PREFIX)


@pytest.fixture(scope="module")
def store(records: Path) -> Path:
    store = records.parent / "store"
    summary = ingest([records], store, executor="local:1", quiet=True)
    assert (summary.stored, summary.rejected) == (7, 0)
    return store


@pytest.mark.parametrize(("value", "written"), [
    ("=1+2", "'=1+2"), ("+x", "'+x"), ("-x", "'-x"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "'\rx"),
    ("Ana", "Ana"), ("", ""), ("a=b", "a=b"), ("-40", "-40"), ("+3", "+3"), ("-1.5", "-1.5"),
    (-40, -40), (2.5, 2.5), (None, None), (True, True),
])
def test_csv_cell(value: Any, written: Any) -> None:
    assert csv_cell(value) == written


def test_score_csv(records: Path) -> None:
    result = runner.invoke(app, ["score", "-f", "csv", str(records)])
    assert_no_formula(result.output)
    rows = cells(result.output)
    assert rows[1][:7] == ["'" + SESSION, "1", "'@seed-session-hand-1", "ena", "'+Cilka", "ok",
                           "'" + FORMULA_NAMES["Ana"]]
    assert "-140" in {row[7] for row in rows}  # David's lost Dva (docs/rules.md): a number, not text


def test_sql_csv(store: Path) -> None:
    result = runner.invoke(app, ["sql", "--store", str(store), "-f", "csv",
                                 'SELECT player, score, session, deal_id, 1 AS "=header" FROM results '
                                 "JOIN deals USING (deal_id) ORDER BY deal_id, player"])
    assert result.exit_code == 0, result.output
    assert_no_formula(result.output)
    rows = cells(result.output)
    assert rows[0] == ["player", "score", "session", "deal_id", "'=header"]
    assert {row[0] for row in rows[1:]} == {"'" + name for name in FORMULA_NAMES.values()}
    assert "-140" in {row[1] for row in rows}


def test_report_csv(store: Path) -> None:
    # a CSV is one table: the rates, or with --audit the disputes (--what says which)
    rates = runner.invoke(app, ["report", "--store", str(store), "--by", "declarer", "-f", "csv"])
    assert rates.exit_code == 0, rates.output
    assert_no_formula(rates.output)
    assert {row[0] for row in cells(rates.output)[1:]} <= {"'" + name for name in FORMULA_NAMES.values()}
    disputes = runner.invoke(app, ["report", "--store", str(store), "--by", "declarer", "-f", "csv", "--audit"])
    assert disputes.exit_code == 0, disputes.output
    assert_no_formula(disputes.output)
    header, *disputed = cells(disputes.output)
    assert disputed and all(row[header.index("player")] == "'" + FORMULA_NAMES["Ana"] for row in disputed)


def test_the_dashboard_download(monkeypatch: pytest.MonkeyPatch) -> None:
    from dashboards import widgets

    offered: dict[str, Any] = {}
    monkeypatch.setattr(widgets.st, "dataframe", lambda *args, **kwargs: None)
    monkeypatch.setattr(widgets.st, "download_button", lambda label, data, **kwargs: offered.update(data=data))
    frame = pl.DataFrame({"player": list(FORMULA_NAMES.values()), "score": [40, -140, 0, 70],
                          "message": ["@SUM(1+1) played T2", "ok", "-", "\tx"], "rate": [0.5, -0.25, 1.0, None]})
    widgets.table(frame, "players")
    text = offered["data"].decode() if isinstance(offered["data"], bytes) else offered["data"]
    assert_no_formula(text)
    rows = cells(text)
    assert [row[0] for row in rows[1:]] == ["'" + name for name in FORMULA_NAMES.values()]
    assert [row[1] for row in rows[1:]] == ["40", "-140", "0", "70"]
    assert [row[3] for row in rows[1:]] == ["0.5", "-0.25", "1.0", ""]
