"""Issue 24: a long-lived store handle (the dashboard's) survives routine re-ingests.

Before: the handle kept views over the files of the shards it was opened on; appending deals to an
ingested file and ingesting twice (or rescoring, then ingesting) deleted those files, and every query
not yet cached failed with ``duckdb.IOException: No files found`` until the handle expired.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import ingest.layout
from analysis.store import Store
from ingest.config import IngestOptions
from ingest.coordinator import run_ingest
from ingest.layout import StoreLayout
from ingest.store import open_store
from tests.support.ingest_util import session_records, write_jsonl

RECORDS = session_records(30, seed=11, loose=1.0)


def _count(store: Store) -> int:
    return int(store.query("SELECT count(*) AS n FROM deals")["n"][0])


def test_the_handle_sees_the_new_rows_after_two_appending_ingests(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "deals.jsonl", RECORDS[:10])
    store_dir = tmp_path / "store"
    run_ingest([path], store_dir, "local:1")
    store = Store(store_dir)
    assert _count(store) == 10
    write_jsonl(path, RECORDS[:20])
    run_ingest([path], store_dir, "local:1")
    write_jsonl(path, RECORDS)
    run_ingest([path], store_dir, "local:1")
    assert _count(store) == 30


def test_the_handle_sees_a_rescore_and_the_ingest_after_it(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "deals.jsonl", RECORDS[:10])
    store_dir = tmp_path / "store"
    run_ingest([path], store_dir, "local:1")
    store = Store(store_dir)
    assert _count(store) == 10
    options = IngestOptions.make({"radelci": "false"})
    run_ingest([], store_dir, "local:1", options=options, rescore=True)
    write_jsonl(path, RECORDS[:20])
    run_ingest([path], store_dir, "local:1", options=options)
    assert _count(store) == 20
    assert store.query("SELECT DISTINCT options_json FROM deals")["options_json"].to_list() == ['{"radelci":false}']


def test_superseded_files_are_kept_for_the_grace_period(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A connection opened before two re-ingests (it does not reopen) still reads its files meanwhile; once
    the grace period has passed, the next ingest deletes them."""
    path = write_jsonl(tmp_path / "deals.jsonl", RECORDS[:10])
    store_dir = tmp_path / "store"
    run_ingest([path], store_dir, "local:1")
    old = open_store(store_dir)
    write_jsonl(path, RECORDS[:20])
    run_ingest([path], store_dir, "local:1")
    write_jsonl(path, RECORDS)
    run_ingest([path], store_dir, "local:1")
    assert old.sql("SELECT count(*) FROM deals").fetchall() == [(10,)]
    layout = StoreLayout.at(store_dir)
    generation = layout.read_current()
    assert generation is not None
    parts = {p.name for p in (layout.generation_dir(generation) / "deals").rglob("part-*.parquet")}
    assert len(parts) == 3  # one shard per run: the two superseded shards' files, still there
    monkeypatch.setattr(ingest.layout, "GRACE_SECONDS", 0.0)
    run_ingest([path], store_dir, "local:1")
    parts = {p.name for p in (layout.generation_dir(generation) / "deals").rglob("part-*.parquet")}
    assert len(parts) == 1
    assert int(Store(store_dir).query("SELECT count(*) AS n FROM deals")["n"][0]) == 30
