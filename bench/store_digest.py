"""A digest of every table a store shows: the proof that a change left every stored value as it was.

Ingests the given record files (default: the bundled sample and the examples) into a fresh store in a
temporary directory and prints, per table, its row count and the SHA-256 of its rows as DuckDB returns
them, sorted on every column -- the run-dependent columns (run ids, times, the temporary store's paths)
left out.  Run it before and after a change and compare the outputs (``--out FILE`` writes them, ``--check
FILE`` compares and exits 1 on any difference):

    .venv/bin/python bench/store_digest.py --out /tmp/before.txt
    ... change ...
    .venv/bin/python bench/store_digest.py --check /tmp/before.txt
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.commands import ingest  # noqa: E402
from ingest.schema import TABLES  # noqa: E402
from ingest.store import open_store  # noqa: E402

RUN_DEPENDENT = {"run_id", "started", "finished", "ingested_at", "seconds", "executor", "store", "shard",
                 "engine_version", "deals_per_second"}
"""Columns that differ from one run to the next whatever the engine does (ids, clocks, worker names)."""


def digest(paths: list[str]) -> list[str]:
    """One line per table: name, rows, hash of the sorted rows."""
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        ingest(paths, Path(tmp) / "store", "local:2", quiet=True)
        con = open_store(Path(tmp) / "store")
        for table in sorted(TABLES):
            columns = [c for (c,) in con.sql(f"SELECT column_name FROM (DESCRIBE {table})").fetchall()
                       if c not in RUN_DEPENDENT]
            if table == "ingest_runs":
                columns = [c for c in columns if c in ("files", "read", "stored", "rejected", "duplicates")]
            cols = ", ".join(f'"{c}"' for c in columns)
            rows = con.sql(f"SELECT {cols} FROM {table} ORDER BY ALL").fetchall()
            h = hashlib.sha256()
            for row in rows:
                h.update(repr(row).encode())
            lines.append(f"{table}\t{len(rows)}\t{h.hexdigest()}\t{','.join(columns)}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=[str(ROOT / "data/sample"), str(ROOT / "data/examples")])
    parser.add_argument("--out", help="write the digest here")
    parser.add_argument("--check", help="compare with a digest written earlier; exit 1 on a difference")
    args = parser.parse_args()
    lines = digest(args.paths)
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        Path(args.out).write_text(text)
    if args.check:
        before = Path(args.check).read_text().splitlines()
        differ = [b.split("\t")[0] for b, a in zip(before, lines) if b != a]
        if differ or len(before) != len(lines):
            print(f"DIFFERENT: {', '.join(differ) or 'the table list'}", file=sys.stderr)
            return 1
        print(f"identical: {len(lines)} tables", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
