"""``tarock sql`` loads only what a query needs: DuckDB and rich, not the ingest pipeline, polars, pandas or
pyarrow; ``tarock check`` of records its fast path takes loads no reference engine.

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
HEAVY_ROOTS = ("polars", "pandas", "pyarrow", "numpy", "analysis")
"""Packages a query over the store never needs, any of their modules (pyarrow: the views' columns come from
``ingest/view_columns.py``, not the Arrow schema; numpy: DuckDB's ``create_function`` loads it, so
``ingest.store.sql_rows`` registers the record's function only for a query that reads a record)."""

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


def test_sql_of_records_registers_their_function_and_gives_them_whole(store: Path) -> None:
    # a query that reads ``record`` fails on the stand-in macro, registers the function and runs again: the
    # figures printed are those of the stored records as the polars path (which registers at once) reads them
    query = "SELECT length(record) AS n, md5(record) AS h FROM deals ORDER BY deal_id LIMIT 3"
    answer = _run("sql", "--store", str(store), query, roots=())
    assert answer["exit"] == 0
    from ingest.store import sql

    expected = sql(store, query).rows()
    assert len(expected) == 3 and all(n > 100 for n, _ in expected)  # whole records, not empty ones
    for n, digest in expected:
        assert f" {n} " in str(answer["output"]) and digest in str(answer["output"])


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



def _fast_taken_records(tmp_path: Path) -> Path:
    """300 records of the bundled 4-player sample that ``check``'s fast path takes, each on its own (session,
    seq and score sheet left out, so no ledger or sheet of a missing deal can send one the usual way)."""
    import gzip

    import msgspec
    import orjson

    from tarock.check.result import DealCheck
    from tarock.check.sessions import check_stream

    source = ROOT / "data" / "sample" / "sample-4p.jsonl.gz"
    text = gzip.decompress(source.read_bytes()).splitlines()
    taken = [r.line for r in check_stream([source])
             if isinstance(r, DealCheck) and isinstance(r.tricks, msgspec.Raw) and r.line is not None][:300]
    records = []
    for line in taken:
        record = orjson.loads(text[line - 1])
        for key in ("session", "seq", "recorded"):
            record.pop(key, None)
        records.append(orjson.dumps(record))
    path = tmp_path / "clean.jsonl"
    path.write_bytes(b"\n".join(records) + b"\n")
    results = list(check_stream([path]))  # precondition: every one of them is the fast path's here too
    assert len(results) == 300 and all(isinstance(r, DealCheck) and isinstance(r.tricks, msgspec.Raw)
                                       for r in results)
    return path


def test_check_of_clean_records_loads_no_reference_engine(tmp_path: Path) -> None:
    # every deal goes the fast path (tarock.check.fast): the reference's checker, engine, sheet auditor and
    # the .trk parser are never needed, so never imported (SessionScorer.checker is made at its first use)
    from tarock.check.fast import CHECKLINE

    if CHECKLINE is None:
        pytest.skip("the fast path is not built here")
    clean = _fast_taken_records(tmp_path)
    answer = _run("check", "--format", "json", str(clean), heavy=(
        "tarock.check.checker", "tarock.engine", "tarock.formats.sheet_csv", "tarock.formats.trk"), roots=())
    assert answer["exit"] == 0
    assert answer["heavy"] == []
    assert len([line for line in str(answer["output"]).splitlines() if line.startswith("{")]) == 300


def test_check_of_a_deal_in_error_loads_the_engine_and_reports_it(tmp_path: Path) -> None:
    # one record the fast path declines (a deal with a renons, data/examples/findings) among clean ones: the
    # checker is made then, and its finding printed, as without the fast path
    clean = _fast_taken_records(tmp_path)
    renons = orjson_line(  # its first record is Boris's renons in trick 1
        ROOT / "data" / "examples" / "findings" / "r_follow_suit.json")
    clean.write_bytes(clean.read_bytes() + renons + b"\n")
    answer = _run("check", "--format", "json", str(clean), heavy=("tarock.check.checker",), roots=())
    assert answer["exit"] == 1
    assert answer["heavy"] == ["tarock.check.checker"]
    assert '"code":"R_FOLLOW_SUIT"' in str(answer["output"])


def orjson_line(path: Path) -> bytes:
    """The first record of a JSON file holding a list of records, as one line."""
    import orjson

    return orjson.dumps(orjson.loads(path.read_bytes())[0])
