"""A `.json` list is planned into line-range shards like JSON Lines (issue 24): memory bounded by the shard size."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import orjson
import pytest

from ingest.coordinator import run_ingest
from ingest.discover import discover
from ingest.shards import plan_json, plan_shards, session_of
from ingest.store import sql
from tarock.formats.items import ReaderLimits
from tarock.formats.reader import read_records
from tests.support.ingest_util import session_records, write_jsonl

LIMITS = ReaderLimits()
_COLUMNS = {
    "deals": "deal_id, content_hash, source_line, session, seq, contract, status, won, n_findings, record",
    "results": "content_hash, source_line, player, score, radelci_before, radelci_after",
    "findings": "content_hash, source_line, code, message",
}


def write_json_list(path: Path, records: list[dict[str, object]]) -> Path:
    """A list with one element per line, the first on line 1: element k starts on line k, as in JSON Lines."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = b"[" + b",\n".join(orjson.dumps(r) for r in records) + b"]\n"
    path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)
    return path


def test_a_json_list_is_cut_into_shards_between_sessions(tmp_path: Path) -> None:
    records = session_records(300, seed=3, session_size=(5, 30))
    for name in ("x.json", "x.json.gz"):
        path = write_json_list(tmp_path / name, records)
        ranges = plan_json(str(path), 40, LIMITS)
        assert len(ranges) >= 4 and ranges[-1][1] is None and sum(r[2] for r in ranges) == 300
        sessions = [r.get("session") for r in records]
        for start, _, _, _ in ranges[1:]:
            before, after = sessions[start - 2], sessions[start - 1]
            assert before is None or before != after, f"session {before} cut at line {start}"
        lines = [item.line for s, e, _, _ in ranges for item in read_records(path, LIMITS, s, e)]
        assert lines == list(range(1, 301))  # every record once, in order


def test_a_pretty_printed_list_and_its_problems_are_read_once(tmp_path: Path) -> None:
    records: list[object] = [{"session": None, "x": i} for i in range(30)]
    records[12] = 5  # no record object: one reject, in one shard
    path = tmp_path / "p.json"
    path.write_text(json.dumps(records, indent=2)[:-1] + ", ,]")  # a stray comma near the end
    ranges = plan_json(str(path), 7, LIMITS)
    assert len(ranges) >= 4
    items = [(item.line, item.finding is None) for s, e, _, _ in ranges for item in read_records(path, LIMITS, s, e)]
    assert items == [(item.line, item.finding is None) for item in read_records(path, LIMITS)]
    assert session_of(b'{"session": 7}') == "7"


def test_a_one_line_list_stays_one_shard(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_bytes(orjson.dumps([{"x": i} for i in range(50)]))
    assert plan_json(str(path), 5, LIMITS) == [(1, None, 50, None)]


@pytest.mark.slow
def test_a_json_list_stores_what_its_json_lines_form_stores(tmp_path: Path) -> None:
    records = session_records(2000, seed=5, session_size=(5, 60))
    jsonl = write_jsonl(tmp_path / "a" / "deals.jsonl", records)
    as_json = write_json_list(tmp_path / "b" / "deals.json.gz", records)
    assert len(plan_shards(discover([as_json]), "gen", 250, LIMITS)) >= 5
    stores = []
    for path in (jsonl, as_json):
        store = tmp_path / f"store-{path.parent.name}"
        summary = run_ingest([path], store, "local:2", shard_size=250)
        assert summary.exit_code == 0 and summary.shards >= 5 and summary.stored == 2000
        stores.append(store)
    for table, columns in _COLUMNS.items():
        query = f"SELECT {columns} FROM {table} ORDER BY ALL"
        assert sql(stores[0], query).rows() == sql(stores[1], query).rows(), table
