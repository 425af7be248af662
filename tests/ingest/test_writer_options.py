"""The Parquet writer's tuned options store the same values as Arrow's defaults, and keep the statistics readers prune by."""

from __future__ import annotations

import io

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from ingest.writer import DICTIONARY_INTEGERS, STATISTICS_COLUMNS, write_parquet


def _table() -> pa.Table:
    n = 5000
    keys = pa.array([f"{i // 4:016x}" for i in range(n)]).dictionary_encode()
    cards = pa.array([["T1", "H3", None, "CK"][i % 4] for i in range(n)]).dictionary_encode()
    return pa.table({
        "deal_id": keys,
        "content_hash": keys,
        "source_file": pa.array(["club.jsonl"] * n).dictionary_encode(),
        "source_line": pa.array([1 + i // 4 for i in range(n)], pa.int64()),
        "source_pos": pa.array([(1 + i // 4) << 32 for i in range(n)], pa.int64()),
        "shard": pa.array(["s1"] * n).dictionary_encode(),
        "trick_no": pa.array([1 + i % 12 for i in range(n)], pa.int32()),
        "card": cards,
        "cards": pa.ListArray.from_arrays(pa.array(range(0, 4 * n + 1, 4), pa.int32()),
                                          pa.array([f"C{i % 54}" for i in range(4 * n)]).dictionary_encode()),
        "score": pa.array([None if i % 7 == 0 else i % 90 - 45 for i in range(n)], pa.int32()),
        "position": pa.array([i % 4 for i in range(n)], pa.int32()),
        "legal": pa.array([None if i % 11 == 0 else i % 3 != 0 for i in range(n)]),
        "date": pa.array([None] * n, pa.date32()),
        "record": pa.array([f'{{"id":"{i}"}}' for i in range(n)]),
        "status": pa.array([["ok", "renons", None][i % 3] for i in range(n)]),
    })


def _written(table: pa.Table, *, tuned: bool) -> bytes:
    fh = io.BytesIO()
    if tuned:
        write_parquet(table, fh)
    else:
        pq.write_table(table, fh, store_schema=False)
    return fh.getvalue()


def test_tuned_files_read_back_like_default_ones(tmp_path):
    table = _table()
    paths = {}
    for tuned in (False, True):
        paths[tuned] = tmp_path / f"{tuned}.parquet"
        paths[tuned].write_bytes(_written(table, tuned=tuned))
    default, tuned = pq.read_table(paths[False]), pq.read_table(paths[True])
    assert tuned.schema == default.schema
    assert tuned.equals(default)
    assert pa.types.is_string(tuned.schema.field("deal_id").type)  # no Arrow schema stored: plain strings
    con = duckdb.connect()
    query = "SELECT * FROM read_parquet('{}') ORDER BY source_line, trick_no"
    assert con.sql(query.format(paths[True])).fetchall() == con.sql(query.format(paths[False])).fetchall()
    assert pl.read_parquet(paths[True]).equals(pl.read_parquet(paths[False]))


def test_statistics_only_on_the_pruning_columns():
    meta = pq.ParquetFile(io.BytesIO(_written(_table(), tuned=True))).metadata
    assert b"ARROW:schema" not in (meta.metadata or {})
    group = meta.row_group(0)
    with_stats = {group.column(j).path_in_schema for j in range(group.num_columns) if group.column(j).is_stats_set}
    assert with_stats == STATISTICS_COLUMNS
    pos = next(group.column(j) for j in range(group.num_columns) if group.column(j).path_in_schema == "source_pos")
    assert (pos.statistics.min, pos.statistics.max) == (1 << 32, 1250 << 32)


def test_columns_declared_non_nullable_are_written_required_unless_a_null_reached_them():
    table = _table()
    schema = pa.schema([pa.field(f.name, f.type, nullable=f.name not in ("deal_id", "trick_no", "status"))
                        for f in table.schema])
    fh = io.BytesIO()
    write_parquet(table, fh, schema=schema)
    parquet = pq.ParquetFile(io.BytesIO(fh.getvalue()))
    repetition = {parquet.schema.column(j).name: parquet.schema.column(j).max_definition_level
                  for j in range(len(parquet.schema))}
    # REQUIRED: no definition level; "status" holds nulls, so it stays optional whatever the schema says
    assert repetition["deal_id"] == 0 and repetition["trick_no"] == 0
    assert repetition["status"] == 1 and repetition["source_line"] == 1
    assert parquet.read().to_pylist() == pq.read_table(io.BytesIO(_written(table, tuned=False))).to_pylist()


def test_integers_with_few_values_are_written_with_a_dictionary_the_others_plain_or_by_delta():
    meta = pq.ParquetFile(io.BytesIO(_written(_table(), tuned=True))).metadata
    group = meta.row_group(0)
    columns = (group.column(j) for j in range(group.num_columns))
    encodings = {column.path_in_schema: set(column.encodings) for column in columns}
    assert "score" in DICTIONARY_INTEGERS and "position" not in DICTIONARY_INTEGERS
    # a dictionary page plus RLE-coded indices: "score" holds 90 values (i % 90 - 45) over 5,000 rows
    assert "RLE_DICTIONARY" in encodings["score"]
    # "position" cycles 0..3, which zstd takes whole from PLAIN; "trick_no" ascends within a deal: deltas
    assert "RLE_DICTIONARY" not in encodings["position"] and "PLAIN" in encodings["position"]
    assert "DELTA_BINARY_PACKED" in encodings["trick_no"] and "RLE_DICTIONARY" not in encodings["trick_no"]
