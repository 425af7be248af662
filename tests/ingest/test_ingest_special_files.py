"""Ingest reads only regular files (issue 24, fault 1).

A FIFO named ``*.jsonl`` hung the fingerprinting (``open`` waits for a writer) and a symbolic link to
``/dev/zero`` read it whole (a MemoryError).  In a directory they are skipped and the summary lists
them; named explicitly, each is one reject naming the file.  Commands run in a subprocess with a
timeout so that a regression fails instead of hanging the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.discover import discover, fingerprint
from ingest.store import sql
from tests.support.paths import ROOT

SEED = ROOT / "data" / "examples" / "seed_session.jsonl"
GUARD = 180
"""Seconds after which a command that never ends is stopped (the test then fails); not a time asserted."""


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run([sys.executable, "-m", "tarock.cli", *args], capture_output=True, text=True,
                              timeout=GUARD, cwd=ROOT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tarock {' '.join(args)} did not finish")


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a child interpreter, stopped after ``GUARD`` seconds (a hang fails the test)."""
    try:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=GUARD,
                              cwd=ROOT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{code!r} did not finish")


def test_fingerprint_never_opens_a_fifo_nor_reads_a_device_whole(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.jsonl"
    zero.symlink_to("/dev/zero")
    # before the fix: the FIFO blocked in open() waiting for a writer, /dev/zero was read whole (MemoryError)
    done = run_python(f"from ingest.discover import fingerprint; print(fingerprint({str(fifo)!r}), "
                      f"fingerprint({str(zero)!r}))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(0, None) (0, None)"
    assert fingerprint(SEED)[1] is not None


def test_discover_skips_special_and_oddly_named_files_with_a_reason(tmp_path: Path) -> None:
    (tmp_path / "good.jsonl").write_bytes(SEED.read_bytes())
    os.mkfifo(tmp_path / "pipe.jsonl")
    (tmp_path / "zero.jsonl").symlink_to("/dev/zero")
    (tmp_path / "LOUD.JSONL").write_bytes(SEED.read_bytes())
    skipped: list[tuple[Path, str]] = []
    found = discover([tmp_path], on_skip=lambda path, why: skipped.append((path, why)))
    assert [Path(f.path).name for f in found] == ["good.jsonl"]
    assert sorted(p.name for p, _ in skipped) == ["LOUD.JSONL", "pipe.jsonl", "zero.jsonl"]


@pytest.mark.slow
def test_ingest_of_a_directory_with_special_files(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.jsonl").write_bytes(SEED.read_bytes())
    os.mkfifo(folder / "pipe.jsonl")
    (folder / "zero.jsonl").symlink_to("/dev/zero")
    (folder / "noext").write_bytes(b"{}")
    store = tmp_path / "store"
    done = run_cli("ingest", str(folder), "--store", str(store), "--executor", "local:2", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    for name in ("pipe.jsonl", "zero.jsonl", "noext"):
        assert f"skipped {folder / name}" in done.stderr
    assert sql(store, "SELECT count(*) AS n FROM deals")["n"][0] == 4


@pytest.mark.slow
def test_ingest_rejects_special_files_named_explicitly(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.jsonl"
    zero.symlink_to("/dev/zero")
    done = run_cli("ingest", str(fifo), str(zero), str(SEED), "--store", str(tmp_path / "store"), "--quiet")
    assert done.returncode == 0, done.stderr
    assert "read 6 = stored 4 + rejected 2" in done.stderr
    rejects = sql(tmp_path / "store", "SELECT file, line, reason FROM rejects ORDER BY file").to_dicts()
    assert [(r["file"], r["line"]) for r in rejects] == [(str(fifo), 0), (str(zero), 0)]
    assert "named pipe" in rejects[0]["reason"] and "character device" in rejects[1]["reason"]
