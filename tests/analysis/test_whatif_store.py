"""A what-if over a store directory is read from generations rescored beside the current one
(``ingest.rescore_beside``); over an exported DuckDB file it is scored in process.  Both must say the same.

The in-process way is ``tarock score --compare``'s code path, which tests/dashboards/test_dashboard_whatif.py
checks against the command line; here the store's way is held to it on generated sessions (radelci, Klop,
Berač, every contract), through the cases a cache can go wrong in: a second what-if, deals added by a later
ingest, a file edited and re-ingested, and a store another ingest holds.
"""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

import pytest

from analysis.filters import Filters
from analysis.store import Store
from analysis.whatif import WhatIf, whatif
from ingest.commands import ingest
from ingest.layout import StoreLayout
from ingest.store import export_duckdb
from tests.support.ingest_util import session_records, write_jsonl

TABLES = ["slovenian", "openspiel", "palcka"]


def slovenian_sessions(n: int, seed: int) -> list[dict[str, object]]:
    records = session_records(n, seed=seed, session_size=(3, 9))
    for r in records:
        r["date"] = f"2026-0{1 + random.Random(str(r.get('session'))).randrange(9)}-15"
    return records


def exported(store: Path, tmp: Path) -> WhatIf:
    """The in-process answer: the same store exported to a DuckDB file."""
    file = tmp / f"export-{len(list(tmp.glob('export-*')))}.duckdb"
    export_duckdb(store, file)
    return whatif(Store(file), TABLES)


def assert_same(a: WhatIf, b: WhatIf) -> None:
    assert (a.tables, a.deals, a.scored) == (b.tables, b.deals, b.scored)
    for name in ("totals", "win_rates", "differences"):
        left, right = getattr(a, name), getattr(b, name)
        assert left.equals(right), f"{name} differ:\n{left}\n{right}"


def files_of(store: Path) -> dict[str, float]:
    return {str(p): p.stat().st_mtime_ns for p in store.rglob("*") if p.is_file() and ".lock" not in p.name}


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    path = tmp_path / "store"
    first = write_jsonl(tmp_path / "in" / "a.jsonl", slovenian_sessions(160, seed=11))
    assert ingest([first], path, "local:1", quiet=True, shard_size=40).exit_code == 0
    return path


def test_store_and_export_agree_and_current_is_left_alone(store: Path, tmp_path: Path) -> None:
    layout = StoreLayout.at(store)
    current = layout.read_current()
    before = Store(store).query("SELECT count(*) AS n, sum(score) AS total FROM results")
    answer = whatif(Store(store), TABLES)
    assert answer.deals == 160 and answer.differences.height > 0  # openspiel rounds no difference: scores move
    assert_same(answer, exported(store, tmp_path))
    assert layout.read_current() == current
    assert Store(store).query("SELECT count(*) AS n, sum(score) AS total FROM results").equals(before)
    # the defaults table is the current generation itself: two more generations, not three
    assert len(layout.generations()) == 3


def test_a_second_whatif_scores_nothing_again(store: Path) -> None:
    first = whatif(Store(store), TABLES)
    files = files_of(store)
    again = whatif(Store(store), TABLES)
    assert files_of(store) == files  # no shard written, no duplicates list rewritten
    assert_same(first, again)


def test_deals_added_later_and_a_file_edited_are_followed(store: Path, tmp_path: Path) -> None:
    whatif(Store(store), TABLES)
    later = write_jsonl(tmp_path / "in" / "b.jsonl", slovenian_sessions(50, seed=12))
    assert ingest([later], store, "local:1", quiet=True, shard_size=40).exit_code == 0
    grown = whatif(Store(store), TABLES)
    assert grown.deals == 210
    assert_same(grown, exported(store, tmp_path))
    # a.jsonl edited: its last 30 deals dropped; its shards are re-cut and the old ones retired
    a = tmp_path / "in" / "a.jsonl"
    a.write_bytes(b"".join(a.read_bytes().splitlines(keepends=True)[:130]))
    assert ingest([a], store, "local:1", quiet=True, shard_size=40).exit_code == 0
    shrunk = whatif(Store(store), TABLES)
    assert shrunk.deals == 180
    assert_same(shrunk, exported(store, tmp_path))
    # each what-if generation mirrors the current one shard for shard: the retired shards' copies are dropped
    layout = StoreLayout.at(store)
    current = layout.read_current()
    assert current is not None
    for generation in layout.generations():
        assert len(layout.completed_shards(generation)) == len(layout.completed_shards(current))


def test_filters_and_one_session_select_the_same_deals(store: Path, tmp_path: Path) -> None:
    file = tmp_path / "export.duckdb"
    export_duckdb(store, file)
    session = Store(store).query("SELECT session FROM deals WHERE session IS NOT NULL "
                                 "GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1")["session"][0]
    player = Store(store).query("SELECT player FROM results GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1")[
        "player"][0]
    for filters, picked in ((Filters(player=player), None), (Filters(), session),
                            (Filters(date_from=date(2026, 5, 1)), None)):
        assert_same(whatif(Store(store), TABLES, filters, picked), whatif(Store(file), TABLES, filters, picked))


def test_a_busy_store_is_scored_in_process(store: Path, tmp_path: Path) -> None:
    layout = StoreLayout.at(store)
    with layout.lock():  # another ingest is running
        busy = whatif(Store(store), TABLES)
    assert len(layout.generations()) == 1  # nothing was written beside the current generation
    assert_same(busy, exported(store, tmp_path))


def test_a_session_across_two_ingests_is_scored_whole(tmp_path: Path) -> None:
    """Tonight's file continues last week's session (ingest groups the two shards, docs/store.md): the
    what-if generation groups them too, so the radelci carried into tonight's deals are the same as
    scoring the session in process."""
    records = slovenian_sessions(60, seed=13)
    session = next(r["session"] for r in records if r.get("session") is not None)
    own = [r for r in records if r.get("session") == session]
    assert len(own) >= 3
    first = write_jsonl(tmp_path / "in" / "week.jsonl", [r for r in records if r not in own[len(own) // 2:]])
    later = write_jsonl(tmp_path / "in" / "tonight.jsonl", own[len(own) // 2:])
    store = tmp_path / "store"
    assert ingest([first], store, "local:1", quiet=True).exit_code == 0
    assert ingest([later], store, "local:1", quiet=True).exit_code == 0
    answer = whatif(Store(store), TABLES)
    assert answer.deals == 60
    assert_same(answer, exported(store, tmp_path))
    layout = StoreLayout.at(store)
    assert any(m.get("members") for g in layout.generations() if g != layout.read_current()
               for m in layout.completed_shards(g).values())


def test_win_rates_are_kept_apart_by_the_number_of_players(store: Path) -> None:
    """A 3-player Tri and a 4-player Tri are different games: each table size is a row of its own, and Solo tri,
    Solo dva and Solo ena (4 players only, tarock/rules/slovenian/contracts.py) have no 3-player row."""
    rates = whatif(Store(store), TABLES).win_rates
    assert set(rates["n_players"]) == {3, 4}
    three = set(rates.filter(n_players=3)["contract"])
    assert "tri" in three and not three & {"solo_tri", "solo_dva", "solo_ena"}
    # the rows of a table add up to every declared deal once, whichever size it is played at
    declared = Store(store).query("SELECT count(*) AS n FROM deals WHERE declarer IS NOT NULL AND status <> 'error' "
                                  "AND won IS NOT NULL AND contract <> 'klop'")["n"].item()
    assert rates.filter(table="slovenian")["deals"].sum() == declared > 0  # the table the deals were played under
