"""The console script's ``tarock check`` ends its process at once when it is done (``tarock.cli._leave``): what it
prints and its exit status are still the command's, as ``CliRunner`` (in-process, no early exit) gets them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tarock.cli import app
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"


def _console(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tarock.cli", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_check_prints_and_exits_as_in_process(fmt: str) -> None:
    # the examples hold renons and errors: exit status 1 either way, and every line of the output
    done = _console("check", "-f", fmt, str(EXAMPLES))
    ran = CliRunner().invoke(app, ["check", "-f", fmt, str(EXAMPLES)])
    assert done.returncode == ran.exit_code == 1
    assert done.stdout == ran.stdout
    assert done.stdout.count("\n") > 20  # one line per deal (json) or per finding (text): all of them flushed
    assert done.stderr.splitlines()[-1] == ran.stderr.splitlines()[-1]  # the summary (on stderr after json)
    assert ("deals:" in done.stderr) == (fmt == "json")


def test_check_of_clean_records_exits_zero(tmp_path: Path) -> None:
    # one clean seed deal written twice: 1 deal ok and 1 duplicate, exit status 0, both lines printed
    record = (EXAMPLES / "seed_pik10_trick.json").read_bytes().replace(b"\n", b" ").strip()
    records = tmp_path / "two.jsonl"
    records.write_bytes(record + b"\n" + record + b"\n")
    done = _console("check", "-f", "json", str(records))
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 2
    assert "1 deal: 1 ok" in done.stderr and "1 duplicate not counted" in done.stderr
