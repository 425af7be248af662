"""The players' questions read the same answers from a store whose session was split over two files and two
ingests (a group shard, docs/store.md "Sessions across shards") as from one ordered file.

A group shard holds the rows of several files, whose line numbers repeat (both files start at line 1): a
question that joins ``results`` to ``deals`` by shard and line alone counts a deal once per file that has
that line.  Nothing here is counted by hand: the one-file store is the reference.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analysis import calendar, partnerships, ratings
from analysis.store import Store
from ingest.commands import ingest
from ingest.layout import StoreLayout
from tests.analysis.test_whatif_store import slovenian_sessions
from tests.support.ingest_util import write_jsonl


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, Store]:
    tmp = tmp_path_factory.mktemp("groups")
    records = slovenian_sessions(120, seed=17)
    session = next(r["session"] for r in records if r.get("session") is not None)
    own = [r for r in records if r.get("session") == session]
    tonight = own[len(own) // 2:]
    whole = tmp / "whole"
    assert ingest([write_jsonl(tmp / "one" / "all.jsonl", records)], whole, "local:1", quiet=True).exit_code == 0
    split = tmp / "split"
    week = write_jsonl(tmp / "two" / "week.jsonl", [r for r in records if r not in tonight])
    assert ingest([week], split, "local:1", quiet=True).exit_code == 0
    assert ingest([write_jsonl(tmp / "two" / "tonight.jsonl", tonight)], split, "local:1", quiet=True).exit_code == 0
    layout = StoreLayout.at(split)
    generation = layout.read_current()
    assert generation is not None
    assert any(m.get("members") for m in layout.completed_shards(generation).values())  # a group is there
    for store in (whole, split):
        ratings.rebuild(store)
    return Store(whole), Store(split)


def _same(a: pl.DataFrame, b: pl.DataFrame, drop: tuple[str, ...] = ()) -> None:
    a, b = a.drop(*drop), b.drop(*drop)
    assert a.sort(a.columns).equals(b.sort(b.columns)), f"{a}\n{b}"


def test_ratings_calendar_roles_and_partners_count_each_deal_once(stores: tuple[Store, Store]) -> None:
    whole, split = stores
    _same(ratings.current(whole), ratings.current(split))
    for player in whole.query("SELECT DISTINCT player FROM results ORDER BY 1")["player"]:
        _same(calendar.calendar(whole, player), calendar.calendar(split, player))
    _same(partnerships.roles(whole), partnerships.roles(split))
    _same(partnerships.partners(whole), partnerships.partners(split))
