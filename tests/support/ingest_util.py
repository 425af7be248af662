"""Helpers of the ingest tests: generated record files and whole-store snapshots."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import orjson

from ingest.schema import SHARD_TABLES
from ingest.store import open_store
from tarock.sim.randomplay import random_record


def session_records(n: int, seed: int = 0, session_size: tuple[int, int] = (1, 12),
                    loose: float = 0.1) -> list[dict[str, Any]]:
    """``n`` random legal deals in sessions of random length (``seq`` from 0); a share ``loose`` has no session."""
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    session = 0
    while len(records) < n:
        if rng.random() < loose:
            records.append(random_record(rng, rng.choice((3, 4))))
            continue
        session += 1
        players = rng.choice((3, 4))
        for seq in range(min(rng.randint(*session_size), n - len(records))):
            record = random_record(rng, players)
            record["session"] = f"t{seed}-{session}"
            record["seq"] = seq
            records.append(record)
    return records


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


def snapshot(store: Path, tables: tuple[str, ...] = (*SHARD_TABLES, "duplicates")) -> dict[str, tuple[int, str]]:
    """(row count, MD5 of all rows as text, sorted) per view: equal snapshots mean equal query results.

    Computed inside DuckDB, so comparing stores of a few hundred thousand rows stays fast.
    """
    con = open_store(store)
    try:
        return {table: con.sql(f"SELECT count(*), md5(coalesce(string_agg(r, chr(10) ORDER BY r), '')) "
                               f"FROM (SELECT CAST(t AS VARCHAR) AS r FROM {table} t)").fetchall()[0]
                for table in tables}
    finally:
        con.close()
