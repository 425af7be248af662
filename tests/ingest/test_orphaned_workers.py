"""Workers die with their coordinator and never hold the store's lock (issue 24, fault 6).

``kill -9`` of the ingest coordinator alone (not its process group) used to leave its forked
``local:N`` workers running or blocked for ever, each holding the store's ``.lock`` through the
descriptor it inherited at fork: every later ingest stopped with "another ingest is running".
Now workers ask the kernel to kill them when their parent dies and drop the inherited lock
descriptor, and a lock still held after its coordinator is gone is taken over.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingest.coordinator import run_ingest
from ingest.layout import StoreBusy, StoreLayout
from tests.ingest.test_ingest_reliability import assert_consistent
from tests.support.ingest_util import session_records, write_jsonl
from tests.support.paths import ROOT
from tests.support.processes import alive, children

GUARD = 120
"""Seconds a wait may last before the test gives up (a failure guard, not a time asserted)."""


def wait_until(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + GUARD
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting: {what}")
        time.sleep(0.02)


def kill_all(pids: set[int]) -> None:
    """Clean up after a failed run: the processes this test started, each by its id."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_killing_the_coordinator_alone_kills_its_workers_and_frees_the_store(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "deals.jsonl", session_records(3000, seed=31, session_size=(1, 8)))
    store = tmp_path / "store"
    code = (f"from ingest.commands import ingest; "
            f"ingest([{str(path)!r}], {str(store)!r}, 'local:2', quiet=True, shard_size=100)")
    coordinator = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, start_new_session=True)
    workers: set[int] = set()
    try:
        def working() -> bool:
            workers.update(children(coordinator.pid))
            return len(workers) >= 2 and any(store.glob("gen-*/_shards/*.json"))
        wait_until(lambda: working() or coordinator.poll() is not None, "workers at work")
        assert coordinator.poll() is None, "the ingest ended before it could be killed: give it more data"
        workers = {pid for pid in workers if alive(pid)} - {coordinator.pid}
        os.kill(coordinator.pid, signal.SIGKILL)  # the coordinator only, not its process group
        coordinator.wait()
        wait_until(lambda: not any(alive(pid) for pid in workers), f"workers {sorted(workers)} to end")
    finally:
        kill_all({pid for pid in workers if alive(pid)})

    again = run_ingest([path], store, "local:2", shard_size=100)  # before the fix: StoreBusy
    assert again.exit_code == 0 and again.read == again.stored == 3000
    assert assert_consistent(store) == 3000


def _holder(lock: Path, text: bytes) -> subprocess.Popen[bytes]:
    """A process that takes ``lock`` with flock, writes ``text`` into it and waits (an orphan's stand-in)."""
    code = ("import fcntl, os, sys, time\n"
            f"fd = os.open({str(lock)!r}, os.O_RDWR | os.O_CREAT)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            f"os.ftruncate(fd, 0); os.write(fd, {text!r})\n"
            "print('held', flush=True)\n"
            "time.sleep(600)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == b"held\n"
    return proc


def test_a_lock_whose_coordinator_is_gone_is_taken_over(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(gone.stdout)  # a coordinator that has ended (its pid is not reused this quickly)
    holder = _holder(store / ".lock", f"{dead_pid}\n".encode())
    try:
        layout = StoreLayout.at(store)
        with layout.lock():  # before the fix: StoreBusy for as long as the holder lives
            assert (store / ".lock").read_text().split()[0] == str(os.getpid())
        summary = run_ingest([ROOT / "data" / "examples" / "seed_session.jsonl"], store, "local:1")
        assert summary.exit_code == 0 and summary.stored == 4
    finally:
        holder.kill()
        holder.wait()


def test_a_lock_whose_coordinator_runs_is_busy(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    holder = _holder(store / ".lock", b"")
    try:
        (store / ".lock").write_text(f"{holder.pid}\n")  # the holder says it is the coordinator
        with pytest.raises(StoreBusy, match=f"process {holder.pid}"):
            with StoreLayout.at(store).lock():
                pass
    finally:
        holder.kill()
        holder.wait()


def test_a_forked_child_does_not_hold_the_lock(tmp_path: Path) -> None:
    layout = StoreLayout.at(tmp_path / "store")
    with layout.lock():
        pid = os.fork()
        if pid == 0:  # the child: try to take the lock's file itself; it must be free of our descriptor
            held = any(os.readlink(f"/proc/self/fd/{fd}") == str(tmp_path / "store" / ".lock")
                       for fd in map(int, os.listdir("/proc/self/fd")) if os.path.exists(f"/proc/self/fd/{fd}"))
            os._exit(1 if held else 0)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    fd = os.open(tmp_path / "store" / ".lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released once the coordinator let go
    finally:
        os.close(fd)
