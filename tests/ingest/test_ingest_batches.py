"""A shard far larger than a batch stores exactly what one batch stores (issue 24).

``process_shard`` turns its rows into Arrow and appends them to the shard's files every ``batch`` deals,
and reads a shard of more records than that twice instead of holding it (``ingest.pipeline._entries``).
Each input here is one shard, processed with a batch larger than it and with a batch of a few dozen
deals: every Parquet file must hold the same rows in the same order, and the reports and the markers'
counts must agree.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import orjson
import pytest

import ingest.bulk
import ingest.rows
from ingest.config import IngestOptions
from ingest.discover import discover
from ingest.layout import StoreLayout
from ingest.pipeline import ShardReport, process_shard
from ingest.shards import plan_shards
from tests.ingest.test_ingest_bulk import mixed_records, parquet_files
from tests.support.ingest_util import session_records


def _ingest(source: Path, store: Path, batch: int) -> tuple[ShardReport, dict[str, Any]]:
    options = IngestOptions.make({})
    [shard] = plan_shards(discover([source]), options.generation, 1_000_000)
    report = process_shard(shard, str(store), options, batch=batch)
    marker = StoreLayout.at(store).complete_marker(options.generation, shard.key)
    assert marker is not None
    return report, marker


def _same_in_batches(source: Path, tmp_path: Path, batch: int) -> None:
    whole, whole_marker = _ingest(source, tmp_path / "whole", 1_000_000)
    cut, cut_marker = _ingest(source, tmp_path / "cut", batch)
    assert (whole.read, whole.stored, whole.rejected, whole.ok, whole.renons, whole.error) == (
        cut.read, cut.stored, cut.rejected, cut.ok, cut.renons, cut.error)
    assert whole.stored > 3 * batch
    for key in ("files", "columns"):
        assert whole_marker[key] == cut_marker[key]
    assert {k: v for k, v in whole_marker["counts"].items() if k != "seconds"} == {
        k: v for k, v in cut_marker["counts"].items() if k != "seconds"}
    generation = IngestOptions.make({}).generation
    whole_files = parquet_files(tmp_path / "whole", generation)
    assert whole_files == parquet_files(tmp_path / "cut", generation)
    assert {"deals", "results", "plays", "rejects"} <= {path.split("/")[0] for path in whole_files}


def test_a_mixed_shard_in_batches(tmp_path: Path) -> None:
    """Both paths, findings, duplicates, rejects, and a session out of order (through the orderer)."""
    source = tmp_path / "mixed.jsonl"
    source.write_bytes(b"\n".join(mixed_records(11)) + b"\n")
    _same_in_batches(source, tmp_path, 37)


def test_one_long_session_in_order_in_batches(tmp_path: Path) -> None:
    """One session, in order: streamed on the second read, no orderer."""
    records = session_records(400, seed=5, session_size=(400, 400))
    for seq, record in enumerate(records):
        record["session"], record["seq"] = "long", seq
    source = tmp_path / "long.jsonl"
    source.write_bytes(b"\n".join(orjson.dumps(r) for r in records) + b"\nnot json\n")
    _same_in_batches(source, tmp_path, 50)


def test_record_by_record_in_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A record the store cannot hold, found in a later batch: the shard is redone record by record, in
    batches too, and rejects only that record."""
    records = session_records(300, seed=3, session_size=(300, 300))
    for seq, record in enumerate(records):
        record["session"], record["seq"] = "long", seq
    records[250]["date"] = "2026-02-03"
    real = ingest.rows.parse_date

    def refused(text: str | None) -> date | None:  # a value Arrow cannot put in a DATE column
        return "not a date" if text == "2026-02-03" else real(text)  # type: ignore[return-value]

    monkeypatch.setattr(ingest.rows, "parse_date", refused)
    monkeypatch.setattr(ingest.bulk, "BULKROWS", None)  # every record the usual way, through ``parse_date``
    source = tmp_path / "long.jsonl"
    source.write_bytes(b"\n".join(orjson.dumps(r) for r in records) + b"\n")
    _same_in_batches(source, tmp_path, 40)
    report, _ = _ingest(source, tmp_path / "again", 40)
    assert (report.read, report.stored, report.rejected) == (300, 299, 1)
