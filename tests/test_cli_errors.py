"""Messages, not tracebacks, and files with the usual permissions (issue 24, fault 5).

* ``tarock export --duckdb DIR`` onto an existing directory ended in an ``IsADirectoryError`` traceback;
* ``sql`` / ``report`` / ``export`` on a ``--store`` that does not exist answered with empty tables;
* ``ingest --rescore`` without a path was refused, although docs/store.md says a rescore runs "with or
  without new input files";
* ``convert`` and ``import`` wrote their output with mode 0600 (``mkstemp``'s), whatever the umask.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ingest.commands import ingest
from ingest.store import sql
from tarock.cli import app
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"
SEED = EXAMPLES / "seed_session.jsonl"
runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("errors") / "store"
    ingest([SEED], store, executor="local:1", quiet=True)
    return store


def test_export_onto_a_directory_is_a_message(store: Path, tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.mkdir()
    code, out = run("export", "--duckdb", str(target), "--store", str(store))
    assert code == 2
    assert "Traceback" not in out and f"{target} is a directory" in out
    assert target.is_dir() and not list(target.iterdir()) and not list(tmp_path.glob(".out.*"))


@pytest.mark.parametrize("command", [
    ["sql", "SELECT count(*) FROM deals"],
    ["report"],
    ["export", "--duckdb", "{tmp}/x.duckdb"],
])
def test_a_missing_store_is_said_so(command: list[str], tmp_path: Path) -> None:
    missing = tmp_path / "no-such-store"
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    code, out = run(*args, "--store", str(missing))
    assert code == 2, out
    assert f"no store at {missing}" in out
    assert not missing.exists() and not (tmp_path / "x.duckdb").exists()


def test_report_still_reads_an_exported_file(store: Path, tmp_path: Path) -> None:
    exported = tmp_path / "store.duckdb"
    assert run("export", "--duckdb", str(exported), "--store", str(store))[0] == 0
    code, out = run("report", "--store", str(exported))
    assert code == 0 and "Win rates" in out


def test_rescore_without_paths(tmp_path: Path) -> None:
    store = tmp_path / "store"
    ingest([SEED], store, executor="local:1", quiet=True)
    before = sql(store, "SELECT deal_id, player, score FROM results ORDER BY ALL").rows()
    code, out = run("ingest", "--rescore", "--store", str(store), "-o", "diff_rounding=none")
    assert code == 0, out
    assert "rescore:" in out and "is now current" in out
    after = sql(store, "SELECT deal_id, player, score FROM results ORDER BY ALL").rows()
    assert len(after) == len(before) and after != before  # scored again under the new option
    code, out = run("ingest", "--store", str(store))  # neither paths nor --rescore: a usage error
    assert code == 2 and "--rescore" in out
    code, out = run("ingest", "--rescore", "--store", str(tmp_path / "none"))
    assert code == 2 and f"no store at {tmp_path / 'none'}" in out


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.usefixtures("umask_022")
def test_convert_and_import_write_with_the_umask(tmp_path: Path) -> None:
    converted = tmp_path / "seed.trk"
    assert run("convert", str(SEED), str(converted))[0] == 0
    imported = tmp_path / "sheet.jsonl"
    assert run("import", "sheet", str(EXAMPLES / "sheets" / "seed_session.csv"), "-o", str(imported))[0] in (0, 1)
    for path in (converted, imported):
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, oct(path.stat().st_mode)
    os.umask(0o077)
    private = tmp_path / "private.jsonl"
    assert run("convert", str(SEED), str(private))[0] == 0
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
