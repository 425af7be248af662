"""``tarock ingest`` as its own process: it ends without Python's teardown (``tarock.cli.main``), so what it
prints, its exit status, the store and the ratings file must all be there when it has ended."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

from ingest.store import open_store
from tests.support.ingest_util import session_records, write_jsonl
from tests.support.paths import ROOT


def tarock(*args: str) -> subprocess.CompletedProcess[str]:
    """The command line run as a user runs it, its output piped (block-buffered: only a flush gets it out)."""
    return subprocess.run([sys.executable, "-m", "tarock.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_an_ingest_process_ends_with_its_output_its_store_and_its_ratings(tmp_path: Path) -> None:
    records = write_jsonl(tmp_path / "in.jsonl", session_records(60, seed=3))
    store = tmp_path / "store"
    done = tarock("ingest", "--executor", "local:2", "--shard-size", "25", "--store", str(store), str(records))
    assert done.returncode == 0, done.stderr
    # the summary goes to stderr, the ratings line to stdout: both written before the process ended
    assert "read 60 = stored 60 + rejected 0" in done.stderr
    assert done.stdout.startswith("ratings: ") and "deals rated" in done.stdout
    con = open_store(store)
    try:
        assert con.sql("SELECT count(*) FROM deals").fetchall()[0][0] == 60
    finally:
        con.close()
    ratings = pq.read_table(next(store.glob("gen-*/ratings/ratings.parquet")))
    assert ratings.num_rows > 0  # 60 random legal deals: some have a declarer who won or lost

    again = tarock("ingest", "--shard-size", "25", "--store", str(store), str(records))  # nothing new
    assert again.returncode == 0, again.stderr
    assert re.search(r"(\d+) shards \(\1 already done, 0 failed\)", again.stderr)
    assert again.stdout.startswith("ratings: 0 deals rated")


def test_an_ingest_that_fails_exits_as_before(tmp_path: Path) -> None:
    """A usage error is reported and exits 2 the usual way (the teardown is skipped only after a finished run)."""
    done = tarock("ingest", "--store", str(tmp_path / "store"))
    assert done.returncode == 2
    assert "give the record files or directories to ingest" in done.stderr
