"""``tarock verify``: a sound store passes, and each kind of breakage is named with its deal (issue 35)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import orjson
import pyarrow.parquet as pq
import pytest

from analysis.verify import verify
from ingest.commands import ingest
from ingest.layout import StoreLayout
from ingest.store import table_files
from tests.support.ingest_util import session_records, write_jsonl


def _tarock(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tarock.cli", *args], capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def sound(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("verify")
    records = session_records(24, seed=21)
    write_jsonl(root / "a.jsonl", records)
    write_jsonl(root / "b.jsonl", records[:3])  # copies: hidden by duplicates
    assert _tarock("ingest", str(root / "a.jsonl"), str(root / "b.jsonl"), "--store", str(root / "store"),
                   "--quiet").returncode == 0
    return root / "store"


def _broken_copy(sound: Path, tmp_path: Path) -> Path:
    store = tmp_path / "store"
    shutil.copytree(sound, store)
    return store


def test_a_sound_store_passes_and_says_its_derived_tables_are_current(sound: Path) -> None:
    found = verify(sound)
    assert found.ok and found.deals == 24  # 27 records, 3 of them copies shown once
    assert found.derived == {"ratings": "current", "player_totals": "current", "pair_totals": "current"}
    run = _tarock("verify", "--store", str(sound))
    assert run.returncode == 0 and "24 deals: every invariant holds" in run.stdout


@pytest.mark.store_left_broken
def test_a_results_row_lost_is_named_with_its_deal(sound: Path, tmp_path: Path) -> None:
    store = _broken_copy(sound, tmp_path)
    path = table_files(store, "results")[0]
    table = pq.read_table(path)
    first = table.slice(0, 1).to_pylist()[0]
    pq.write_table(table.slice(1), path)  # the first deal of the file now has one results row too few
    [(deal_id, line)] = duckdb.sql(
        f"SELECT deal_id, source_line FROM read_parquet({[str(p) for p in table_files(store, 'deals')]}) "
        f"WHERE shard = '{first['shard']}' AND source_pos = {first['source_pos']}").fetchall()
    found = verify(store)
    wrong = [v for v in found.violations if v.invariant == "a results row per player"]
    assert [(v.deal_id, v.source_line) for v in wrong] == [(deal_id, line)]
    assert wrong[0].message.startswith("3 results rows for 4 players") or \
        wrong[0].message.startswith("2 results rows for 3 players")
    # the totals say they are current, yet the sums over the stored deals now differ
    assert any(v.invariant == "player_totals as summed now" for v in found.violations)
    run = _tarock("verify", "--store", str(store))
    assert run.returncode == 1 and f"deal {deal_id} a results row per player" in run.stdout


@pytest.mark.store_left_broken
def test_a_card_analysed_twice_and_a_stale_rating_are_told_apart(sound: Path, tmp_path: Path) -> None:
    store = _broken_copy(sound, tmp_path)
    deal_id = duckdb.sql(f"SELECT min(deal_id) FROM read_parquet({[str(p) for p in table_files(store, 'deals')]})"
                         ).fetchall()[0][0]
    folder = store / "card_analysis" / "ruleset=slovenian" / "n_players=4"
    folder.mkdir(parents=True)
    row = {"deal_id": deal_id, "trick": 1, "order": 0, "player": "Ana", "card": "T1", "best_cards": ["T2"],
           "best_points": 5, "played_points": 3, "point_loss": 2, "solver_version": "x"}
    duckdb.sql(f"COPY (SELECT * FROM read_json_auto('{_json(tmp_path, [row, row])}')) TO '{folder}/part-a.parquet'")
    layout = StoreLayout.at(store)
    generation = layout.read_current()
    assert generation is not None
    layout.derived_path(generation, "ratings").unlink()  # no ratings: "missing", not a violation
    found = verify(store)
    assert [v.invariant for v in found.violations] == ["one analysis per card"]
    assert found.violations[0].deal_id == deal_id and "2 card_analysis rows for Ana" in found.violations[0].message
    assert found.derived["ratings"] == "missing"


def _json(folder: Path, rows: list[dict[str, object]]) -> Path:
    path = folder / "rows.json"
    path.write_bytes(orjson.dumps(rows))
    return path


def test_a_store_ingested_since_its_ratings_says_they_are_stale_and_passes(sound: Path, tmp_path: Path) -> None:
    store = _broken_copy(sound, tmp_path)
    write_jsonl(tmp_path / "more.jsonl", session_records(5, seed=99))
    ingest([tmp_path / "more.jsonl"], store, executor="local:1", quiet=True)  # the library: no derived step
    found = verify(store)
    assert found.ok and found.deals == 29
    assert found.derived == {"ratings": "stale", "player_totals": "stale", "pair_totals": "stale"}
    run = _tarock("verify", "--store", str(store), "-f", "json")
    assert run.returncode == 0 and orjson.loads(run.stdout)["derived"]["ratings"] == "stale"


@pytest.mark.store_left_broken
def test_game_verdicts_that_miss_cards_or_mark_a_misplay_the_answers_deny_are_named(sound: Path,
                                                                                   tmp_path: Path) -> None:
    store = _broken_copy(sound, tmp_path)
    deal_id = duckdb.sql(f"SELECT min(deal_id) FROM read_parquet({[str(p) for p in table_files(store, 'deals')]})"
                         ).fetchall()[0][0]
    folder = store / "game_analysis" / "ruleset=slovenian" / "n_players=4"
    folder.mkdir(parents=True)
    # one row for a deal that played many cards, and it says the declarer's card decided the game although the
    # declarer side could win both before and after it
    row = {"deal_id": deal_id, "trick": 1, "order": 0, "player": "Ana", "card": "T1", "declarer_side": True,
           "declarer_could_win": True, "declarer_can_win": True, "decided": True, "kept": ["T2"],
           "solver_version": "x"}
    duckdb.sql(f"COPY (SELECT * FROM read_json_auto('{_json(tmp_path, [row])}')) TO '{folder}/part-a.parquet'")
    found = verify(store)
    assert sorted(v.invariant for v in found.violations) == [
        "a misplay turns its side's answer",
        "a verdict of a stored deal, for every card it played from its first trick judged"]
    assert all(v.deal_id == deal_id for v in found.violations)
