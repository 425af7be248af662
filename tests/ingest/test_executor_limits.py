"""``--executor`` specs (issue 24, fault 4): worker counts are capped, absurd ones refused, a scheduler
that cannot be reached is one line on stderr.

``local:N`` started N forked workers whatever N was (``local:100000`` tried to fork a hundred
thousand); now the pool has at most as many workers as there are shards to run and CPUs to run
them, and N outside 1..1024 is a usage error.  A ``tcp://`` scheduler that does not answer used to
end in a traceback.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from ingest.executors import MAX_LOCAL_WORKERS, InlineExecutor, local_workers, make_executor
from tests.support.paths import ROOT

SEED = ROOT / "data" / "examples" / "seed_session.jsonl"
CPUS = len(os.sched_getaffinity(0))


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tarock.cli", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, stdin=subprocess.DEVNULL)


def test_the_pool_is_capped_by_shards_and_cpus() -> None:
    assert local_workers("local:64", tasks=3) == min(3, CPUS)
    assert local_workers("local:64") == CPUS
    assert local_workers("local", tasks=1) == 1
    assert local_workers("local:1", tasks=50) == 1
    assert isinstance(make_executor("local:64", tasks=1), InlineExecutor)
    pool = make_executor("local:1024", tasks=2)
    try:
        assert isinstance(pool, ProcessPoolExecutor) or CPUS == 1
        assert getattr(pool, "_max_workers", 1) <= min(2, CPUS)  # before the fix: 1024 forked workers
    finally:
        pool.shutdown()


@pytest.mark.parametrize("spec", ["local:0", "local:-3", f"local:{MAX_LOCAL_WORKERS + 1}", "local:100000",
                                  "local:²", "local:1.5", "local: 2", "remote"])
def test_absurd_worker_counts_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="executor"):
        make_executor(spec)


@pytest.mark.slow
def test_the_command_line_says_so_and_exits_2(tmp_path: Path) -> None:
    done = run_cli("ingest", str(SEED), "--store", str(tmp_path / "store"), "--executor", "local:100000")
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "local:100000" in done.stderr and f"1 to {MAX_LOCAL_WORKERS}" in done.stderr
    assert not (tmp_path / "store").exists()  # refused before the store is touched


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = run_cli("ingest", str(SEED), "--store", str(tmp_path / "store"), "--executor", f"tcp://127.0.0.1:{port}",
                   "--quiet")
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("tarock: ") and f"tcp://127.0.0.1:{port}" in lines[0], lines
