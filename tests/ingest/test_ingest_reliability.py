"""Ingest under stress: killed with SIGKILL mid-run, read while it writes, run on a Dask cluster."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingest.coordinator import run_ingest
from ingest.layout import StoreLayout
from ingest.store import open_store, sql
from tests.support.ingest_util import session_records, snapshot, write_jsonl
from tests.support.paths import ROOT
from tests.test_cli import run

REPO = ROOT
CHILD_TABLES = ("results", "tricks", "plays", "findings", "bids", "announcements")


def start_ingest(path: Path, store: Path, executor: str, shard_size: int) -> subprocess.Popen[bytes]:
    """``python -c`` running an ingest, in its own process group (so SIGKILL reaches its workers too)."""
    code = (f"from ingest.commands import ingest; "
            f"ingest([{str(path)!r}], {str(store)!r}, {executor!r}, quiet=True, shard_size={shard_size})")
    return subprocess.Popen([sys.executable, "-c", code], cwd=REPO, start_new_session=True)


def assert_consistent(store: Path) -> int:
    """Every visible deal has all its rows, no row is without its deal, shards match their markers."""
    con = open_store(store)
    try:
        deals = con.sql("SELECT count(*) FROM deals").fetchall()[0][0]
        for table, expected in (("results", "d.n_players"), ("tricks", "d.n_tricks"),
                                ("plays", ("(SELECT coalesce(sum(len(t.cards)), 0) FROM tricks t "
                                           "WHERE t.shard = d.shard AND t.source_line = d.source_line)"))):
            wrong = con.sql(f"SELECT count(*) FROM deals d WHERE {expected} <> (SELECT count(*) FROM {table} c "
                            "WHERE c.shard = d.shard AND c.source_line = d.source_line)").fetchall()[0][0]
            assert wrong == 0, f"deals with missing {table} rows"
        for table in CHILD_TABLES:
            orphans = con.sql(f"SELECT count(*) FROM {table} c ANTI JOIN deals d "
                              "USING (shard, source_line)").fetchall()[0][0]
            assert orphans == 0, f"{table} rows without their deal"
        layout = StoreLayout.at(store)
        generation = layout.read_current()
        markers = layout.completed_shards(generation) if generation else {}
        per_shard = dict(con.sql("SELECT shard, count(*) FROM deals GROUP BY shard").fetchall())
        assert per_shard == {k: m["counts"]["stored"] for k, m in markers.items() if m["counts"]["stored"]}
        return deals
    finally:
        con.close()


@pytest.mark.slow
def test_kill_minus_9_leaves_a_consistent_store_that_a_rerun_completes(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "deals.jsonl", session_records(1500, seed=21, session_size=(1, 8)))
    store = tmp_path / "store"
    proc = start_ingest(path, store, "local:2", shard_size=100)
    deadline = time.monotonic() + 120
    while not any(store.glob("gen-*/*/**/*.parquet")) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    visible = assert_consistent(store)
    layout = StoreLayout.at(store)
    done = layout.completed_shards(layout.read_current() or "")
    assert visible < 1500 and len(done) < 15  # killed mid-run

    rerun = run_ingest([path], store, "local:2", shard_size=100)
    assert rerun.exit_code == 0 and rerun.shards_skipped == len(done)
    assert rerun.read == rerun.stored == 1500
    assert assert_consistent(store) == 1500
    assert not list(store.rglob("*.tmp"))
    clean = tmp_path / "clean"
    run_ingest([path], clean, "local:2", shard_size=100)
    assert snapshot(store) == snapshot(clean)


@pytest.mark.slow
def test_a_reader_never_sees_a_partial_shard(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "deals.jsonl", session_records(1500, seed=22))
    store = tmp_path / "store"
    proc = start_ingest(path, store, "local:1", shard_size=100)
    seen = []
    while proc.poll() is None:
        deals, results, expected = sql(store, "SELECT (SELECT count(*) FROM deals), (SELECT count(*) FROM results), "
                                              "(SELECT coalesce(sum(n_players), 0) FROM deals)").row(0)
        assert results == expected
        seen.append(deals)
    assert proc.returncode == 0
    seen.append(assert_consistent(store))
    assert seen == sorted(seen) and seen[-1] == 1500
    assert len(set(seen)) > 2  # the reader saw the store grow


@pytest.mark.slow
@pytest.mark.dask
def test_a_dask_cluster_stores_what_the_local_pool_stores(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    path = write_jsonl(tmp_path / "deals.jsonl", session_records(240, seed=23))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        on_dask = run_ingest([path], tmp_path / "dask", cluster.scheduler_address, shard_size=40)
    on_pool = run_ingest([path], tmp_path / "pool", "local:2", shard_size=40)
    assert on_dask.exit_code == on_pool.exit_code == 0
    assert on_dask.shards == on_pool.shards > 2 and on_dask.executor.startswith("tcp://127.0.0.1:")
    assert snapshot(tmp_path / "dask") == snapshot(tmp_path / "pool")


@pytest.mark.dask
def test_a_scheduler_without_workers_stops_the_run_and_frees_the_store(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # before, the coordinator waited for its shards forever, holding the store's lock: the owner's next
    # ingest said "another ingest is running" until the process was killed (issue 35)
    distributed = pytest.importorskip("distributed")
    from ingest import executors
    from ingest.executors import ExecutorUnavailable
    from ingest.layout import StoreLayout

    monkeypatch.setattr(executors, "WORKER_SECONDS", 1.0)
    path = write_jsonl(tmp_path / "deals.jsonl", session_records(20, seed=2))
    with distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address=None) as cluster:
        with pytest.raises(ExecutorUnavailable, match="has no worker: none joined within 1 s"):
            run_ingest([path], tmp_path / "store", cluster.scheduler_address)
        code, out = run("ingest", str(path), "--store", str(tmp_path / "store"), "--executor",
                        cluster.scheduler_address, "--quiet")
    assert code == 2 and "has no worker" in out and len(out.strip().splitlines()) == 1
    with StoreLayout.at(tmp_path / "store").lock():  # the lock is free again
        pass
    assert run_ingest([path], tmp_path / "store", "local:1").exit_code == 0
