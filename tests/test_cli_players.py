"""The players' commands as a user runs them: ingest rebuilds the ratings, ``tarock ratings rebuild``,
``tarock report --by player`` and ``tarock report --calendar PLAYER``, on the bundled seed session."""

from __future__ import annotations

import io
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from tarock.cli import app
from tests.support.paths import ROOT

SEED = ROOT / "data" / "examples" / "seed_session.jsonl"
runner = CliRunner()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("cli-players") / "store"
    result = runner.invoke(app, ["ingest", str(SEED), "--store", str(target), "--quiet"])
    assert result.exit_code == 0, result.output
    return target


def test_ingest_builds_the_ratings_and_rebuild_redoes_them(store: Path) -> None:
    files = list(store.glob("gen-*/ratings/ratings.parquet"))
    assert len(files) == 1
    # the seed session: four deals of Ana, Boris, Cilka and David, all scored: 16 rows
    assert pl.read_parquet(files[0]).height == 16
    result = runner.invoke(app, ["ratings", "rebuild", "--store", str(store)])
    assert result.exit_code == 0
    assert "ratings: 4 deals rated, 16 rows" in result.output
    missing = runner.invoke(app, ["ratings", "rebuild", "--store", str(store.parent / "nowhere")])
    assert missing.exit_code == 2 and "no store" in missing.output


def test_report_by_player_and_calendar(store: Path) -> None:
    result = runner.invoke(app, ["report", "--store", str(store), "--by", "player", "-f", "csv"])
    assert result.exit_code == 0, result.output
    frame = pl.read_csv(io.StringIO(result.output))
    assert sorted(frame["player"].to_list()) == ["Ana", "Boris", "Cilka", "David"]
    assert frame["games"].to_list() == [4, 4, 4, 4]  # every player sat in all four rated deals
    table = runner.invoke(app, ["report", "--store", str(store), "--by", "player"])
    assert "Slovenian, 4 players" in table.output and "±" in table.output
    days = runner.invoke(app, ["report", "--store", str(store), "--calendar", "Cilka"])
    assert days.exit_code == 0
    # the seed deals are dated 2026-01-01 .. 2026-01-04, one a day
    assert "2026" in days.output and "4 days, 4 deals" in days.output
    nobody = runner.invoke(app, ["report", "--store", str(store), "--calendar", "Zoran"])
    assert nobody.exit_code == 2 and "no player named Zoran in the store" in nobody.output  # issue 38: no silent 0
