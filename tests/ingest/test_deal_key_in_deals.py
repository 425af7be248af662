"""The child tables' files leave ``deal_id`` and ``content_hash`` to ``deals`` (ingest.schema.DEAL_ONLY_KEY).

Their views take the two from the deal of the same stored copy; a generation written before, whose child files
hold the two columns, reads the same; the key-only ``stored`` views are the public ones without them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from ingest.coordinator import run_ingest
from ingest.layout import StoreLayout
from ingest.schema import DEAL_ONLY_KEY, DEAL_TABLES, TABLES
from ingest.store import STORED, export_duckdb, open_store
from tarock.check.sessions import content_hash
from tarock.formats.codec import content_id
from tarock.formats.reader import read_records
from tests.support.ingest_util import session_records, write_jsonl

CHILDREN = tuple(t for t in DEAL_TABLES if t != "deals")
COPY = ("shard", "source_file", "source_pos")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two files sharing ten deals (so ``duplicates`` hides copies), in several shards."""
    root = tmp_path_factory.mktemp("dealkey")
    records = session_records(30, seed=3)
    write_jsonl(root / "in" / "a.jsonl", records)
    write_jsonl(root / "in" / "b.jsonl", records[10:20] + session_records(5, seed=4))
    summary = run_ingest([root / "in"], root / "store", "local:1", shard_size=7)
    assert summary.deduplicated == 10
    return root / "store"


def test_child_files_hold_no_deal_hashes(store: Path) -> None:
    layout = StoreLayout.at(store)
    generation = layout.read_current()
    assert generation is not None
    markers = layout.completed_shards(generation)
    assert markers
    for marker in markers.values():
        for table in CHILDREN:
            assert not set(DEAL_ONLY_KEY) & set(marker["columns"].get(table, ())), table
            for rel in marker["files"].get(table, ()):
                names = pq.read_schema(layout.generation_dir(generation) / rel).names
                assert set(COPY) <= set(names) and not set(DEAL_ONLY_KEY) & set(names), (table, rel)
        assert set(DEAL_ONLY_KEY) <= set(marker["columns"]["deals"])


def test_each_child_row_carries_its_records_hash_and_id(store: Path) -> None:
    # the expected values come from the input files themselves: the record at a row's source_file and
    # source_line, hashed as ingest's dedup key (tarock.check.sessions.content_hash) and its id (the record's
    # own, else content_id: session_records gives none, so content_id)
    expected = {}
    for file in sorted((store.parent / "in").glob("*.jsonl")):
        for item in read_records(file):
            assert item.deal is not None
            expected[(str(file), item.line)] = (item.deal.id or content_id(item.deal), content_hash(item.deal))
    con = open_store(store)
    for table in CHILDREN:
        rows = con.sql(f"SELECT source_file, source_line, deal_id, content_hash FROM {table}").fetchall()
        if table in ("results", "tricks", "plays"):
            assert rows, table
        for file, line, deal_id, hashed in rows:
            assert (deal_id, hashed) == expected[(file, line)], (table, file, line)
    # every copy the views show is a kept one: the 10 deals of b.jsonl that a.jsonl holds first are hidden
    shown = {r[0] for r in con.sql("SELECT DISTINCT source_file FROM results WHERE content_hash IN "
                                   "(SELECT content_hash FROM duplicates)").fetchall()}
    assert shown == {str(store.parent / "in" / "a.jsonl")}
    assert con.sql("SELECT count(*) FROM results").fetchall() == con.sql(
        "SELECT sum(n_players) FROM deals").fetchall()  # one row per player of each deal shown, none of a hidden copy
    con.close()


def test_stored_views_are_the_public_ones_without_the_hashes(store: Path, tmp_path: Path) -> None:
    con = open_store(store)
    exported = tmp_path / "x.duckdb"
    export_duckdb(store, exported)
    file = duckdb.connect(str(exported), read_only=True)
    for table in CHILDREN:
        names = [f.name for f in TABLES[table] if f.name not in DEAL_ONLY_KEY]
        listed = ", ".join(names)
        public = sorted(con.sql(f"SELECT {listed} FROM {table}").fetchall(), key=repr)
        assert sorted(con.sql(f"SELECT * FROM {STORED}.{table}").fetchall(), key=repr) == public, table
        assert sorted(file.sql(f"SELECT * FROM {STORED}.{table}").fetchall(), key=repr) == public, table
    file.close()
    con.close()


def _with_hashes(store: Path, every: int) -> Path:
    """A copy of ``store`` whose child files of every ``every``-th shard hold ``DEAL_ONLY_KEY`` again, first,
    as a generation written before they were left to ``deals``, and their markers say so."""
    copy = store.parent / f"old-layout-{every}"
    shutil.copytree(store, copy)
    layout = StoreLayout.at(copy)
    generation = layout.read_current()
    assert generation is not None
    gen_dir = layout.generation_dir(generation)
    con = duckdb.connect()
    for n, (key, marker) in enumerate(sorted(layout.completed_shards(generation).items())):
        if n % every:
            continue
        deals = ", ".join(f"'{gen_dir / rel}'" for rel in marker["files"]["deals"])
        for table in (t for t in CHILDREN if marker["files"].get(t)):
            for rel in marker["files"][table]:
                path = gen_dir / rel
                con.execute(f"COPY (SELECT d.deal_id, d.content_hash, d.source_line, t.* FROM read_parquet('{path}') t "
                            f"JOIN read_parquet([{deals}], hive_partitioning=false) d USING ({', '.join(COPY)}) "
                            f"ORDER BY t.source_pos) TO '{path}.new' (FORMAT parquet)")
                Path(f"{path}.new").replace(path)
            marker["columns"][table] = [*DEAL_ONLY_KEY, *marker["columns"][table]]
        marker_path = layout.marker_path(generation, key)
        assert marker_path.exists()
        marker_path.write_text(json.dumps(marker))
    con.close()
    return copy


@pytest.mark.parametrize("every", [1, 2])
def test_a_generation_whose_child_files_hold_the_hashes_reads_the_same(store: Path, every: int) -> None:
    old = _with_hashes(store, every)
    new_con, old_con = open_store(store), open_store(old)
    for table in CHILDREN:
        rows = sorted(new_con.sql(f"SELECT * FROM {table}").fetchall(), key=repr)
        assert sorted(old_con.sql(f"SELECT * FROM {table}").fetchall(), key=repr) == rows, (table, every)
        assert sorted(old_con.sql(f"SELECT * FROM {STORED}.{table}").fetchall(), key=repr) == sorted(
            new_con.sql(f"SELECT * FROM {STORED}.{table}").fetchall(), key=repr), (table, every)
    new_con.close()
    old_con.close()
