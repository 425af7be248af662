"""``record_packed`` (ingest/packed_record.py): the column's compressed size and the C codec's time per record.

    .venv/bin/python bench/bench_packed_record.py [--deals 200000] [--shard 20000] [--runs 5]

Reads ``--deals`` records of ``bench/bench_ingest.py``'s generated file (``bench/out/deals-N-1.jsonl``, made
when missing: random legal 3- and 4-player Slovenian deals in sessions of 20), writes them canonical
(``tarock.formats.codec.dumps``, as a store holds them) in shards of ``--shard`` records, each split by its
number of players as the store's partitions are, and prints

* per version (1: each card code one byte, ``pack_v1``; 2: what ``pack`` writes now) the bytes a deal the
  column takes in Parquet with the writer's settings (``ingest.writer.parquet_options``: zstd, plain
  encoding), summed over the shards as pyarrow's metadata gives them (``total_compressed_size``), and the
  share of records version 2 holds;
* the C extension's ``pack`` and ``unpack`` of one shard in µs a record (the best of ``--runs``), version 2
  and, for comparison on the same machine, version 1 alone (unpacking version-1 values).

Figures go in closing notes; tests never assert times.
"""

from __future__ import annotations

import argparse
import io
import itertools
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_ingest import OUT, generate  # noqa: E402
from ingest.packed_record import PACKRECORD, V2, pack, pack_v1, unpack  # noqa: E402
from ingest.writer import parquet_options  # noqa: E402
from tarock.formats.codec import dumps, loads  # noqa: E402


def _column_bytes(column: pa.Array) -> int:
    table = pa.table({"record_packed": column})
    buffer = io.BytesIO()
    pq.write_table(table, buffer, **parquet_options(table.schema))
    meta = pq.ParquetFile(io.BytesIO(buffer.getvalue())).metadata
    return sum(meta.row_group(g).column(0).total_compressed_size for g in range(meta.num_row_groups))


def _best(runs: int, call: object, *args: object) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        call(*args)  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def _raw(column: pa.Array) -> tuple[object, np.ndarray]:
    large = column.cast(pa.large_binary())
    return large.buffers()[2], np.frombuffer(large.buffers()[1], np.int64, len(large) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--shard", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    source = OUT / f"deals-{args.deals}-1.jsonl"
    if not source.exists():
        OUT.mkdir(exist_ok=True)
        generate(source, args.deals, 1)
    v1_bytes = v2_bytes = rows = in_v2 = 0
    first: list[str] = []
    with open(source, "rb") as fh:
        while lines := list(itertools.islice(fh, args.shard)):
            by_players: dict[int, list[str]] = {}  # as the store's partitions (n_players) hold them
            for line in lines:
                deal = loads(line)
                by_players.setdefault(len(deal.players), []).append(dumps(deal))
            first = first or [dumps(loads(line)) for line in lines]
            for part in by_players.values():
                packed = pack(pa.array(part, pa.string()))
                in_v2 += sum(1 for value in packed.to_pylist() if value[0] == V2)
                v1_bytes += _column_bytes(pa.array([pack_v1(text) for text in part], pa.binary()))
                v2_bytes += _column_bytes(packed)
                rows += len(part)
    print(f"{rows} deals: version 1 {v1_bytes / 2**20:.2f} MiB ({v1_bytes / rows:.1f} B/deal), "
          f"version 2 {v2_bytes / 2**20:.2f} MiB ({v2_bytes / rows:.1f} B/deal), {in_v2 / rows:.1%} as version 2")
    if PACKRECORD is None:
        print("ingest._packrecord is not built: no times")
        return
    texts = pa.array(first, pa.large_string())
    data, offsets = texts.buffers()[2], np.frombuffer(texts.buffers()[1], np.int64, len(texts) + 1)
    n = len(first)
    pack_s = _best(args.runs, PACKRECORD.pack, data, offsets)
    v2_data, v2_offsets = _raw(pack(texts.cast(pa.string())))
    unpack_s = _best(args.runs, PACKRECORD.unpack, v2_data, v2_offsets)
    v1_data, v1_offsets = _raw(pa.array([pack_v1(text) for text in first], pa.binary()))
    v1_unpack_s = _best(args.runs, PACKRECORD.unpack, v1_data, v1_offsets)
    print(f"C, a shard of {n}: pack {pack_s / n * 1e6:.2f} µs/record, unpack {unpack_s / n * 1e6:.2f} µs/record "
          f"(version-1 values: unpack {v1_unpack_s / n * 1e6:.2f} µs/record)")
    assert unpack(pack(texts.cast(pa.string()))).to_pylist() == first


if __name__ == "__main__":
    main()
