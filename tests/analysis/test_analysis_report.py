"""``analysis.report.report``, the body of ``tarock report``: formats, the audit section, filters."""

from __future__ import annotations

import io
from pathlib import Path

import orjson
import polars as pl
import pytest

from analysis.filters import Filters
from analysis.report import report
from analysis.store import Store
from ingest.store import export_duckdb
from tests.support.analysis_store import build_store


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("report") / "store")


def render(source: Store | Path, **kwargs: object) -> str:
    out = io.StringIO()
    report(source, stream=out, **kwargs)  # type: ignore[arg-type]
    return out.getvalue()


def test_table(store_dir: Path) -> None:
    text = render(store_dir)
    assert "Win rates of declared contracts by contract" in text
    assert "Not counted (no declarer): Klop 1" in text
    assert "Disputed" not in text


def test_table_names_contracts_and_splits_mixed_pools(store_dir: Path) -> None:
    """Issue 38: the table showed raw ids (berac, solo_brez) and pooled three- and four-player deals.  Now the
    contracts carry the dashboard's labels, and rows of more than one ruleset or table size each say theirs;
    the Tri of three players (1 of 1 won) stands apart from the Tri of four (1 of 2), no pooled 2 of 3."""
    text = render(store_dir)
    assert "ruleset, players" in text
    rows = [" ".join(line.replace("│", " ").split()) for line in text.splitlines()]
    assert "Slovenian, 3 Tri 1 1 100.0 % 20.7 % – 100.0 %" in rows
    assert "Slovenian, 4 Tri 2 1 50.0 % 9.5 % – 90.5 %" in rows
    assert "Slovenian, 4 Berač 1 1 100.0 % 20.7 % – 100.0 %" in rows
    assert "Königrufen, 4 Rufer 1 1 100.0 % 20.7 % – 100.0 %" in rows
    assert "66.7 %" not in text and "berac" not in text and "solo_brez" not in text and "Solo brez" in text
    one_pool = render(store_dir, filters=Filters(ruleset="slovenian", players=4))
    assert "ruleset" not in one_pool and "Berač" in one_pool
    assert render(store_dir, fmt="csv").splitlines()[1] == "tri,3,2,0.6666666666666666,0.20765960080204773,0.9385080552796038"


def test_table_with_audit_and_two_groupings(store_dir: Path) -> None:
    text = render(store_dir, by=("contract", "seat"), audit=True)
    assert "by contract × seat" in text and "forehand" in text
    assert "Disputed scores (2)" in text and "s1-6" in text


def test_csv(store_dir: Path) -> None:
    text = render(store_dir, by="seat", fmt="csv", filters=Filters(players=4))
    frame = pl.read_csv(io.StringIO(text))
    # four players: forehand s1-1 W, s1-6 L; second s1-4, s1-5, x-1 all W; third s1-2 L; dealer k1-1 W
    assert frame.select("seat", "deals", "wins").rows() == [
        ("forehand", 2, 1), ("second", 3, 3), ("third", 1, 0), ("dealer", 1, 1)]


def test_csv_is_one_table_the_rates_or_the_disputes(store_dir: Path) -> None:
    rates = render(store_dir, fmt="csv", parts=("rates",))
    assert "\n\n" not in rates and pl.read_csv(io.StringIO(rates))["contract"][0] == "tri"
    disputes = render(store_dir, fmt="csv", parts=("disputes",))
    assert "\n\n" not in disputes
    assert pl.read_csv(io.StringIO(disputes))["deal_id"].to_list() == ["s1-4", "s1-6"]
    with pytest.raises(ValueError, match="one table"):
        render(store_dir, fmt="csv", audit=True)


def test_audit_reads_at_80_columns(store_dir: Path) -> None:
    """Each dispute: one line of figures, the explanation indented below; no line over 80 columns."""
    text = render(store_dir, parts=("disputes",))  # rich's width without a terminal: 80 columns
    assert "Disputed scores (2)" in text and "Win rates" not in text
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    head = next(i for i, line in enumerate(lines) if "s1-6" in line)
    assert "Bor" in lines[head] and "recorded -55" in lines[head] and "recomputed -110" in lines[head]
    assert lines[head + 1].startswith("    ")  # the explanation, indented, on the lines below


def test_a_shortened_dispute_list_says_how_many_more(store_dir: Path) -> None:
    """Issue 38: the demo cut the list with ``head`` after 4 of 53 disputes, without a word."""
    text = render(store_dir, parts=("disputes",), top=1)
    assert "Disputed scores (2)" in text and text.count("• ") == 1
    assert "… and 1 more disputed score (tarock report --audit lists them all" in text
    assert "more disputed" not in render(store_dir, parts=("disputes",), top=2)


def test_json_from_an_exported_file(store_dir: Path, tmp_path: Path) -> None:
    file = tmp_path / "store.duckdb"
    export_duckdb(store_dir, file)
    body = orjson.loads(render(file, by="ruleset", fmt="json", audit=True))
    assert [(r["ruleset"], r["n_players"], r["deals"]) for r in body["win_rates"]] == [
        ("koenigrufen", 4, 1), ("slovenian", 3, 2), ("slovenian", 4, 6)]
    assert [d["player"] for d in body["disputes"]] == ["Cene", "Bor"]
    assert "disputes" not in orjson.loads(render(file, fmt="json"))


def test_an_open_store_stays_open(store_dir: Path) -> None:
    with Store(store_dir) as store:
        render(store, fmt="csv")
        assert store.query("SELECT count(*) AS n FROM deals")["n"][0] == 11


def test_bad_arguments_fail_before_reading(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="format"):
        render(tmp_path / "missing", fmt="xml")
    with pytest.raises(ValueError, match="by must be"):
        render(tmp_path / "missing", by="season")
