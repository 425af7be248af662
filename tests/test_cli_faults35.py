"""Issue 35: what an adversarial user found, each a message and an exit code instead of damage or a traceback.

Every test runs the real command on real files in a temporary directory; the numbers are the issue's faults.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ingest.commands import ingest
from tarock.cli import app
from tests.support.paths import EXAMPLES

SEED = EXAMPLES / "seed_session.jsonl"
runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def seed_lines() -> list[str]:
    return SEED.read_text().splitlines()


@pytest.fixture
def store(tmp_path: Path) -> Path:
    store = tmp_path / "store"
    ingest([SEED], store, executor="local:1", quiet=True)
    return store


def test_10_a_rulesets_defaults_table_is_no_options(store: Path) -> None:
    """``--rules slovenian`` is the ruleset's defaults: the store ingested with no options takes it."""
    code, out = run("ingest", str(SEED), "--store", str(store), "--rules", "slovenian", "--quiet")
    assert code == 0, out
    assert "other options" not in out
    assert len(list(store.glob("gen-*"))) == 1
    code, out = run("ingest", str(SEED), "--store", str(store), "--rules", "openspiel", "--quiet")
    assert code == 2 and "other options" in out


def test_12_a_score_past_64_bits_names_the_range(tmp_path: Path) -> None:
    """``10**30`` reaches the codec as a float (orjson's reading): the message names the allowed range."""
    obj = json.loads(seed_lines()[0])
    obj["recorded"] = {"scores": {"Ana": 10**30}}
    records = tmp_path / "big.jsonl"
    records.write_text(json.dumps(obj) + "\n")
    code, out = run("check", str(records))
    assert code == 1, out
    assert "E_PARSE" in out
    assert "recorded.scores.Ana must be between -1000000000 and 1000000000, not 1e+30" in out
