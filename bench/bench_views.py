"""Store view benchmark: query times over ~1,000,000 deals, and what deduplication costs.

    .venv/bin/python bench/bench_views.py [--copies 50] [--deals 20000]

Ingests ``--deals`` generated deals once (one shard), then publishes
``--copies`` copies of that shard with new content hashes (the last copy
repeats the first one's hashes from another file: 2 % duplicates) into a
store under ``bench/out/`` (git-ignored; both are kept for the next run).
Then it times, best of 3:

* typical queries through ``ingest.store.open_store`` before and after the
  coordinator's ``duplicates`` step (anti-join on a small table);
* the alternative of deduplicating in the view itself with ``QUALIFY
  row_number() OVER (PARTITION BY content_hash …) = 1`` (deals) and a
  semi-join on the kept copies (results);
* the dedup step itself and opening a connection.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ingest.commands import ingest
from ingest.dedup import write_duplicates
from ingest.layout import StoreLayout
from ingest.rows import PartTables
from ingest.schema import DEAL_KEY, SHARD_TABLES
from ingest.store import open_store, parquet_source, table_files
from ingest.writer import publish_shard
from tarock.sim.randomplay import random_record

OUT = Path(__file__).resolve().parent / "out"
_KEYS = [f.name for f in DEAL_KEY if f.type == pa.string()]

QUERIES = {
    "win rate by contract (deals)": "SELECT contract, avg(won::INT) FROM deals WHERE won IS NOT NULL GROUP BY 1",
    "scores by seat, 4 players (results)":
        "SELECT seat, sum(score), count(*) FROM results WHERE n_players = 4 GROUP BY 1",
    "scores by seat, key-only (stored.results)":
        "SELECT seat, sum(score), count(*) FROM stored.results WHERE n_players = 4 GROUP BY 1",
    "one deal's tricks (tricks)": "SELECT * FROM tricks WHERE deal_id = (SELECT min(deal_id) FROM deals)",
    "illegal plays (plays)": "SELECT count(*) FROM plays WHERE NOT legal",
}


def best(con, query: str) -> float:
    times = []
    for _ in range(3):
        started = time.perf_counter()
        con.sql(query).fetchall()
        times.append(time.perf_counter() - started)
    return min(times)


def seed_shard(deals: int) -> Path:
    """A store holding one real shard of generated deals."""
    store = OUT / f"views-seed-{deals}"
    if not store.exists():
        rng = random.Random(1)
        data = OUT / f"views-seed-{deals}.jsonl"
        data.write_bytes(b"".join(orjson.dumps(random_record(rng, 4 if i % 4 else 3)) + b"\n" for i in range(deals)))
        ingest([data], store, "local:1", quiet=True, shard_size=deals)
    return store


def _read_keys_encoded(path: Path) -> pa.Table:
    """A shard's file with the key columns it holds read as dictionaries (a child file holds no deal hashes)."""
    names = pq.read_schema(path).names
    return pq.ParquetFile(path, read_dictionary=[k for k in _KEYS if k in names]).read()


def replicate(seed: Path, store: Path, copies: int) -> None:
    """Publish ``copies`` copies of the seed's shard with renamed content hashes (the last repeats copy 0)."""
    layout = StoreLayout.at(seed)
    generation = layout.read_current()
    assert generation is not None
    (marker,) = layout.completed_shards(generation).values()
    gen_dir = layout.generation_dir(generation)
    parts = {name: [(rel, _read_keys_encoded(gen_dir / rel)) for rel in marker["files"].get(name, ())]
             for name in SHARD_TABLES}
    target = StoreLayout.at(store)
    for k in range(copies):
        suffix = f"-{k if k < copies - 1 else 0}"
        tables: PartTables = {name: [] for name in SHARD_TABLES}
        for name, files in parts.items():
            for rel, table in files:
                values = dict(part.split("=") for part in rel.split("/")[1:-1])
                values = {key: int(v) if v.isdigit() else v for key, v in values.items()}
                for column in ("content_hash", "deal_id"):
                    if column in table.column_names:
                        array = table[column].combine_chunks()
                        renamed = pa.DictionaryArray.from_arrays(
                            array.indices, pc.binary_join_element_wise(array.dictionary, suffix, ""))
                        table = table.set_column(table.schema.get_field_index(column), column, renamed)
                for column, value in (("source_file", f"copy-{k}.jsonl"), ("shard", f"{k:024x}")):
                    if column in table.column_names:
                        array = table[column].combine_chunks()
                        renamed = pa.DictionaryArray.from_arrays(array.indices, pa.array([value] * len(
                            array.dictionary)))
                        table = table.set_column(table.schema.get_field_index(column), column, renamed)
                tables[name].append((values, table))
        publish_shard(target, generation, f"{k:024x}", tables, {**marker, "path": f"copy-{k}.jsonl"})
    target.current_file.write_text(generation + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--copies", type=int, default=50)
    ap.add_argument("--deals", type=int, default=20_000)
    args = ap.parse_args()
    OUT.mkdir(exist_ok=True)
    seed = seed_shard(args.deals)
    store = OUT / f"views-{args.copies}x{args.deals}"
    if not store.exists():
        started = time.perf_counter()
        replicate(seed, store.with_name(store.name + ".tmp"), args.copies)
        store.with_name(store.name + ".tmp").rename(store)
        print(f"built {args.copies * args.deals:,} deals ({args.copies} shards) in "
              f"{time.perf_counter() - started:.1f}s")
    layout = StoreLayout.at(store)
    generation = layout.read_current()
    assert generation is not None
    layout.duplicates_path(generation).unlink(missing_ok=True)

    con = open_store(store)
    print(f"{'query':<40} {'no dups':>9} {'anti-join':>10} {'QUALIFY':>9}")
    plain = {name: best(con, q) for name, q in QUERIES.items()}
    started = time.perf_counter()
    duplicates = write_duplicates(layout, generation)
    dedup_seconds = time.perf_counter() - started
    started = time.perf_counter()
    con = open_store(store)
    open_seconds = time.perf_counter() - started
    anti = {name: best(con, q) for name, q in QUERIES.items()}

    raw = con
    raw.execute(f"CREATE VIEW raw_deals AS SELECT * FROM {parquet_source(table_files(store, 'deals'), True)}")
    raw.execute(f"CREATE VIEW raw_results AS SELECT * FROM {parquet_source(table_files(store, 'results'), True)}")
    raw.execute("CREATE VIEW q_deals AS SELECT * FROM raw_deals QUALIFY row_number() OVER "
                "(PARTITION BY content_hash ORDER BY source_file, source_pos, shard) = 1")
    raw.execute("CREATE VIEW q_results AS SELECT r.* FROM raw_results r SEMI JOIN q_deals d "
                "USING (shard, source_file, source_pos)")
    qualify = {
        "win rate by contract (deals)": best(raw, QUERIES["win rate by contract (deals)"].replace("deals", "q_deals")),
        "scores by seat, 4 players (results)": best(raw, QUERIES["scores by seat, 4 players (results)"].replace(
            "results", "q_results")),
    }
    for name in QUERIES:
        q = f"{qualify[name] * 1000:8.0f}ms" if name in qualify else f"{'-':>9}"
        print(f"{name:<40} {plain[name] * 1000:8.0f}ms {anti[name] * 1000:9.0f}ms {q}")
    print(f"dedup step: {duplicates.num_rows:,} duplicates found in {dedup_seconds:.2f}s; "
          f"open_store: {open_seconds * 1000:.0f}ms")
    assert raw.sql("SELECT count(*) FROM deals").fetchall()[0][0] == (args.copies - 1) * args.deals


if __name__ == "__main__":
    main()
