"""Issue 24: one record the store cannot hold must land in ``rejects`` alone, never cost its shard.

Before: a recorded score >= 2**31, a score or ``seq`` >= 2**63 passed ``check`` and failed the whole
shard at Parquet write time (``ArrowInvalid``/``OverflowError``), no deal of the shard was stored, the
record never reached ``rejects`` and the summary said ``read 0 = stored 0 + rejected 0  ok``.
"""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import ingest.pipeline
import ingest.rows
import ingest.writer
from ingest.commands import print_summary
from ingest.coordinator import run_ingest
from ingest.store import sql
from tests.support.ingest_util import session_records, write_jsonl


def _with_sheet(record: dict[str, Any], score: int) -> dict[str, Any]:
    return {**record, "recorded": {"scores": {record["players"][0]: score}}}


@pytest.mark.parametrize(("change", "reason"), [
    (lambda r: _with_sheet(r, 2**31), "recorded.scores."),
    (lambda r: _with_sheet(r, 2**63), "recorded.scores."),
    (lambda r: {**r, "seq": 2**63}, "seq must be between 0 and"),
], ids=["score 2**31", "score 2**63", "seq 2**63"])
def test_a_value_past_its_column_rejects_that_record_and_keeps_its_shard(
    tmp_path: Path, change: Any, reason: str
) -> None:
    records = session_records(12, seed=5, loose=0.0)
    records[6] = change(records[6])
    path = write_jsonl(tmp_path / "deals.jsonl", records)
    store = tmp_path / "store"
    summary = run_ingest([path], store, "local:1")
    assert not summary.failed
    assert (summary.read, summary.stored, summary.rejected) == (12, 11, 1)
    assert summary.balanced
    [(line, why)] = sql(store, "SELECT line, reason FROM rejects").rows()
    assert line == 7 and why.startswith(reason) and "between" in why


def test_a_record_whose_rows_arrow_refuses_is_rejected_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A per-record failure after the check (row building, Arrow conversion) rejects that record only: the
    shard is redone record by record on the usual path, and its neighbours (bulk path ones too) are stored."""
    records = session_records(12, seed=6, loose=0.0)
    records[4] = {**records[4], "date": "2026-02-03", "unknown_key": 1}  # not plain: the usual path
    for r in records[:4] + records[5:]:
        r["date"] = "2026-01-01"
    path = write_jsonl(tmp_path / "deals.jsonl", records)
    real = ingest.rows.parse_date

    def refused(text: str | None) -> date | None:  # a value Arrow cannot put in a DATE column
        return "not a date" if text == "2026-02-03" else real(text)  # type: ignore[return-value]

    monkeypatch.setattr(ingest.rows, "parse_date", refused)
    store = tmp_path / "store"
    summary = run_ingest([path], store, "local:1")
    assert not summary.failed
    assert (summary.read, summary.stored, summary.rejected) == (12, 11, 1) and summary.balanced
    [(line, why)] = sql(store, "SELECT line, reason FROM rejects").rows()
    assert line == 5 and "the store cannot hold this record's rows" in why
    assert sql(store, "SELECT count(*) FROM deals WHERE date = DATE '2026-01-01'").item() == 11
    assert sql(store, "SELECT count(DISTINCT source_line) FROM results").item() == 11


def test_a_failed_shard_is_never_reported_ok(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_jsonl(tmp_path / "deals.jsonl", session_records(5, seed=7))

    def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(ingest.writer.ShardWriter, "publish", broken)
    summary = run_ingest([path], tmp_path / "store", "local:1")
    assert summary.failed and not summary.balanced and summary.exit_code == 1
    out = io.StringIO()
    print_summary(summary, Console(file=out, width=200))
    line = next(text for text in out.getvalue().splitlines() if text.strip().startswith("read "))
    assert not line.rstrip().endswith(" ok") and "failed" in line
