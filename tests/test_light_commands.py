"""``tarock sql`` loads only what a query needs: DuckDB and rich, not the ingest pipeline, polars, pandas or
pyarrow.

A query is the command users run most often at a prompt; loading the whole pipeline made it take a second
and more (issue 22).  The check runs the real command in a fresh interpreter (a test process has everything
loaded already) over a real store, and reads which modules that interpreter loaded.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.commands import ingest
from tests.support.paths import ROOT

HEAVY = ("ingest.pipeline", "ingest.coordinator", "ingest.rows", "ingest.schema", "tarock.check.checker",
         "tarock.rules.rulesets")
"""Modules a query over the store never needs."""
HEAVY_ROOTS = ("polars", "pandas", "pyarrow", "analysis")
"""Packages a query over the store never needs, any of their modules (pyarrow: the views' columns come from
``ingest/view_columns.py``, not the Arrow schema).  numpy is not among them: DuckDB's ``create_function``
loads it when ``ingest.store`` registers ``tarock_record``, the deals view's record (about 45 ms)."""

_RUN = """
import contextlib, io, json, sys
from typer.testing import CliRunner
from tarock.cli import app
result = CliRunner().invoke(app, sys.argv[1:])
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {roots} or m in {heavy})
print(json.dumps({{"exit": result.exit_code, "output": result.output, "heavy": heavy}}))
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("light") / "store"
    assert ingest([ROOT / "data" / "examples"], path, "local:1", quiet=True).exit_code == 0
    return path


def _run(*args: str, heavy: tuple[str, ...] = HEAVY, roots: tuple[str, ...] = HEAVY_ROOTS) -> dict[str, object]:
    code = _RUN.format(heavy=repr(set(heavy)), roots=repr(set(roots)))
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True,
                          cwd=ROOT)
    return json.loads(done.stdout.splitlines()[-1])


def test_sql_table_loads_no_pipeline_polars_or_pandas(store: Path) -> None:
    answer = _run("sql", "--store", str(store), "SELECT count(*) AS n FROM deals WHERE status = 'ok'")
    assert answer["exit"] == 0
    assert answer["heavy"] == []
    # the count printed is the store's own (read here through the usual polars path)
    from ingest.store import sql

    expected = sql(store, "SELECT count(*) AS n FROM deals WHERE status = 'ok'")["n"][0]
    assert f" {expected} " in str(answer["output"])


def test_sql_csv_still_goes_through_polars(store: Path) -> None:
    # the CSV writer neutralises formula cells with polars (ingest/csv_out.py): loading it there is expected
    answer = _run("sql", "--store", str(store), "-f", "csv", "SELECT '=1+1' AS x")
    assert answer["exit"] == 0 and str(answer["output"]).splitlines() == ["x", "'=1+1"]
    assert "polars" in answer["heavy"]


def test_report_of_win_rates_loads_no_player_report_or_pipeline(store: Path) -> None:
    # the default report is the win rates (and polars, which DuckDB hands them over in); the players' report,
    # the ratings it reads and the ingest pipeline load only for --by player / --calendar
    answer = _run("report", "--store", str(store), heavy=(
        "analysis.player_report", "analysis.ratings", "analysis.calendar", "ingest.pipeline", "ingest.rows",
        "tarock.check.checker"), roots=("pandas",))
    assert answer["exit"] == 0
    assert answer["heavy"] == []
    assert "Win rates of declared contracts" in str(answer["output"])

