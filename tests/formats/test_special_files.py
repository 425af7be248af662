"""Only regular files are read: FIFOs, devices and odd names in an input directory (issue 24, fault 1).

A FIFO named ``*.jsonl`` made ``tarock check`` wait forever for a writer, and a symbolic link to
``/dev/zero`` read an endless stream.  In a directory such files are skipped with a notice; named on the
command line they are one ``E_PARSE`` finding each.  Names the reader does not take (``X.JSONL``, no
suffix) are reported as skipped, not silently left out.  The command runs in a subprocess with a
timeout so that a regression fails the test instead of hanging the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tarock.formats.reader import iter_record_files, read_records
from tests.support.paths import ROOT

SEED = ROOT / "data" / "examples" / "seed_session.jsonl"
GUARD = 120
"""Seconds after which a command that never ends is stopped (the test then fails); not a time asserted."""


def tarock(*args: str, stdin: int | None = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run([sys.executable, "-m", "tarock.cli", *args], capture_output=True, text=True,
                              timeout=GUARD, cwd=ROOT, stdin=stdin)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tarock {' '.join(args)} did not finish")


@pytest.fixture
def odd_dir(tmp_path: Path) -> Path:
    """A directory with one good record file and the files that used to hang or loop, or go unmentioned."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.jsonl").write_bytes(SEED.read_bytes())
    os.mkfifo(folder / "pipe.jsonl")
    (folder / "zero.jsonl").symlink_to("/dev/zero")
    (folder / "LOUD.JSONL").write_bytes(SEED.read_bytes())
    (folder / "noext").write_bytes(SEED.read_bytes())
    return folder


def test_a_directory_lists_only_regular_record_files_and_says_what_it_skipped(odd_dir: Path) -> None:
    skipped: list[tuple[Path, str]] = []
    files = iter_record_files(odd_dir, on_skip=lambda path, why: skipped.append((path, why)))
    assert files == [odd_dir / "good.jsonl"]
    reasons = {path.name: why for path, why in skipped}
    assert set(reasons) == {"pipe.jsonl", "zero.jsonl", "LOUD.JSONL", "noext"}
    assert "named pipe" in reasons["pipe.jsonl"]
    assert "character device" in reasons["zero.jsonl"]
    assert "lower case" in reasons["LOUD.JSONL"]
    assert "does not end in" in reasons["noext"]


def test_a_special_file_named_explicitly_is_one_finding_not_a_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    code = ("import sys; from tarock.formats.reader import read_records; "
            "items = [list(read_records(p)) for p in sys.argv[1:]]; "
            "print(repr([[(i.line, i.deal, i.finding.code, i.finding.file, i.finding.message) for i in one] "
            "for one in items]))")
    try:  # in a child interpreter: before the fix the FIFO blocked in open(), /dev/zero never ended
        done = subprocess.run([sys.executable, "-c", code, str(fifo), str(zero)], capture_output=True, text=True,
                              timeout=GUARD, cwd=ROOT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("reading a FIFO or /dev/zero did not finish")
    assert done.returncode == 0, done.stderr
    results = eval(done.stdout)  # noqa: S307 (the repr of plain tuples printed above)
    for path, kind, items in zip((fifo, zero), ("named pipe", "character device"), results, strict=True):
        [(line, deal, code_, file, message)] = items
        assert (line, deal, code_, file) == (0, None, "E_PARSE", str(path))
        assert kind in message and "not a regular file" in message
    assert [i.deal is not None for i in read_records(SEED)] == [True] * 4


def test_check_skips_special_files_in_a_directory_with_a_notice(odd_dir: Path) -> None:
    done = tarock("check", str(odd_dir))
    assert done.returncode == 0, done.stderr
    assert "4 deals: 4 ok" in done.stdout
    for name in ("pipe.jsonl", "zero.jsonl", "LOUD.JSONL", "noext"):
        assert f"skipped {odd_dir / name}" in done.stderr
    assert "Traceback" not in done.stderr


def test_check_rejects_special_files_named_explicitly(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.jsonl"
    zero.symlink_to("/dev/zero")
    done = tarock("check", str(fifo), str(zero))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{fifo}:0 -: E_PARSE ") and "named pipe" in lines[0]
    assert lines[1].startswith(f"{zero}:0 -: E_PARSE ") and "character device" in lines[1]
    assert "2 deals: 0 ok, 0 renons, 2 error" in done.stdout


def test_imports_reject_a_fifo_instead_of_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "sheet.csv"
    os.mkfifo(fifo)
    done = tarock("import", "sheet", str(fifo), "-o", str(tmp_path / "out.jsonl"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"{fifo}:0: E_PARSE " in done.stderr and "named pipe" in done.stderr
    games = tmp_path / "games.jsonl"
    os.mkfifo(games)
    code = ("import sys; from tarock.formats.openspiel import read_games; "
            "print([(f.code, f.line, f.message) for f in read_games(sys.argv[1])])")
    try:
        read = subprocess.run([sys.executable, "-c", code, str(games)], capture_output=True, text=True,
                              timeout=GUARD, cwd=ROOT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("reading OpenSpiel games from a FIFO did not finish")
    assert read.returncode == 0, read.stderr
    assert "'E_PARSE', 0," in read.stdout and "named pipe" in read.stdout
