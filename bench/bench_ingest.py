"""Ingest benchmark: end-to-end deals/s (plan, read, check, score, Arrow, Parquet, dedup) per executor.

    .venv/bin/python bench/bench_ingest.py [--deals 1000000] [--executors local:1,local:2] [--shard-size 20000]

Generates the deals once (random legal 3- and 4-player Slovenian deals in
sessions of 20 with ``seq``) into ``bench/out/`` (git-ignored), then ingests
them into a fresh store per executor, each in its own child process, and
prints wall time, deals/s, deals per CPU second (this process and its
pool workers: the figure that stays put on a busy machine) and the peak
resident memory of that child and of its largest pool worker
(``resource.getrusage``).  Figures go in closing notes; tests never assert
times.  A million deals by default: users ingest millions, and with few
shards per worker (100,000 deals are 5 shards) a worker idles at the end.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import orjson

OUT = Path(__file__).resolve().parent / "out"
SESSION = 20


def generate(path: Path, deals: int, seed: int) -> None:
    """Write ``deals`` random records to a JSONL file (kept between runs)."""
    from tarock.sim.randomplay import random_record

    rng = random.Random(seed)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as fh:
        for i in range(deals):
            record = random_record(rng, 4 if rng.random() < 0.75 else 3)
            record["session"] = f"s{i // SESSION:06d}"
            record["seq"] = i % SESSION
            fh.write(orjson.dumps(record) + b"\n")
    tmp.replace(path)


def run_one(executor: str, data: Path, store: Path, shard_size: int) -> None:
    """Child process: one quiet ingest; prints its figures as JSON on stdout."""
    from ingest.commands import ingest

    shutil.rmtree(store, ignore_errors=True)
    started = time.perf_counter()
    summary = ingest([data], store, executor, quiet=True, shard_size=shard_size)
    seconds = time.perf_counter() - started
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)  # the pool's workers, joined at its shutdown
    cpu = own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime
    print(json.dumps({"executor": executor, "seconds": seconds, "cpu_seconds": cpu, "read": summary.read,
                      "stored": summary.stored, "shards": summary.shards, "balanced": summary.balanced,
                      "rss_mib": own.ru_maxrss / 1024, "worker_rss_mib": workers.ru_maxrss / 1024}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--executors", default="local:1,local:2")
    ap.add_argument("--shard-size", type=int, default=20_000)
    ap.add_argument("--run", help=argparse.SUPPRESS)
    ap.add_argument("--store", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.run:
        run_one(args.run, args.data, args.store, args.shard_size)
        return
    OUT.mkdir(exist_ok=True)
    data = OUT / f"deals-{args.deals}-{args.seed}.jsonl"
    if not data.exists():
        started = time.perf_counter()
        generate(data, args.deals, args.seed)
        print(f"generated {args.deals:,} deals into {data} in {time.perf_counter() - started:.1f}s")
    size = data.stat().st_size / 2**20
    print(f"{args.deals:,} deals, {size:,.0f} MiB of JSONL, shards of {args.shard_size:,}")
    for executor in args.executors.split(","):
        store = OUT / f"store-{executor.replace(':', '-')}"
        cmd = [sys.executable, __file__, "--run", executor, "--store", str(store), "--data", str(data),
               "--shard-size", str(args.shard_size)]
        result = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        rate = result["read"] / result["seconds"]
        per_cpu = result["read"] / result["cpu_seconds"]
        print(f"{executor:<10} {result['seconds']:6.2f}s {rate:>8,.0f} deals/s  ({per_cpu:,.0f} deals per CPU "
              f"second)  {result['shards']} shards  read = stored + rejected: {result['balanced']}  "
              f"peak RSS {result['rss_mib']:,.0f} MiB (largest worker {result['worker_rss_mib']:,.0f} MiB)")
        shutil.rmtree(store, ignore_errors=True)


if __name__ == "__main__":
    main()
