"""Generated deals written in every input shape, ingested into one store, then ``tarock verify``d (issue 35).

    .venv/bin/python bench/verify_shapes.py [--deals 100000] [--executor local:2]

The same deals (random legal 3- and 4-player Slovenian deals in sessions, each with an id of its own) go into
``bench/out/shapes/`` (git-ignored) as a ``.json`` list on one line, an indented ``.json`` list, ``.jsonl`` and
``.trk``, each also gzipped: eight copies of every deal, which one store must show once each, every deal's rows
its own.  Prints the ingest's counts, the time, and every violation ``analysis.verify`` finds (exit 1 on any).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import shutil
import sys
import time
from pathlib import Path

from analysis.verify import verify
from ingest.commands import ingest
from tarock.formats.codec import loads
from tarock.formats.writer import write_records
from tarock.sim.randomplay import random_record


OUT = Path(__file__).resolve().parent / "out" / "shapes"


def session_records(n: int, seed: int) -> list[dict[str, object]]:
    """``n`` random legal deals in sessions of 5 to 30, ``seq`` from 0."""
    rng = random.Random(seed)
    records: list[dict[str, object]] = []
    while len(records) < n:
        session, players = f"s{len(records)}", rng.choice((3, 4))
        for seq in range(min(rng.randint(5, 30), n - len(records))):
            records.append({**random_record(rng, players), "session": session, "seq": seq})
    return records


def write_shapes(records: list[dict[str, object]], folder: Path) -> list[Path]:
    """``records`` in every shape, plain and gzipped."""
    folder.mkdir(parents=True, exist_ok=True)
    texts = {"one-line.json": json.dumps(records).encode(), "indented.json": json.dumps(records, indent=2).encode(),
             "deals.jsonl": "".join(json.dumps(r) + "\n" for r in records).encode()}
    files = []
    for name, data in texts.items():
        for gz in (False, True):
            path = folder / (name + (".gz" if gz else ""))
            path.write_bytes(gzip.compress(data) if gz else data)
            files.append(path)
    deals = [loads(json.dumps(r)) for r in records]
    for name in ("deals.trk", "deals.trk.gz"):
        write_records(deals, folder / name)
        files.append(folder / name)
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--executor", default="local:2")
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    shutil.rmtree(OUT, ignore_errors=True)
    records = session_records(args.deals, args.seed)
    for i, r in enumerate(records):
        r["id"] = f"shape-{i}"
    files = write_shapes(records, OUT / "in")
    began = time.perf_counter()
    summary = ingest(files, OUT / "store", executor=args.executor, quiet=True)
    took = time.perf_counter() - began
    print(f"{len(files)} files, {summary.read:,} records read, {summary.stored:,} stored, {summary.rejected:,} "
          f"rejected, {summary.deduplicated:,} copies hidden, {summary.groups} group shards: {took:.1f} s")
    found = verify(OUT / "store")
    for violation in found.violations[:50]:
        print(violation)
    print(f"verify: {found.deals:,} deals shown, {len(found.violations):,} violations")
    return 0 if found.ok and found.deals == args.deals and summary.exit_code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
