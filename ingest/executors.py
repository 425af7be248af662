"""Where shards run: a ``concurrent.futures.Executor`` made from a short spec.

* ``local`` / ``local:N`` — a process pool of N workers (default: one per
  CPU), never more than the shards to run nor the CPUs this process may use;
  N must be 1..``MAX_LOCAL_WORKERS``.  One worker (``local:1``, or a
  single shard) runs the shards in this process, one after the other.
* ``tcp://HOST:PORT`` — a Dask distributed scheduler (the ``dask`` extra);
  its workers need this project installed and the store directory (and the
  input files) at the same absolute paths, e.g. on a shared file system.

Every executor runs the same ``ingest.pipeline.process_shard``.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Collection
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

import pyarrow as pa

MAX_LOCAL_WORKERS = 1024
"""The largest N ``local:N`` accepts; more is a typo, not a machine (the pool is capped by the CPUs anyway)."""

_USAGE = "use local, local:N (N from 1 to {max}) or tcp://HOST:PORT"


T = TypeVar("T")


class ExecutorUnavailable(RuntimeError):
    """The executor cannot be started: a ``tcp://`` scheduler that does not answer, Dask not installed."""


class InlineExecutor(Executor):
    """Runs each call in the calling process when it is submitted (``local:1``): no pickling, no pool."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 (delivered through the future, like a pool does)
            future.set_exception(exc)
        return future


CONNECT_SECONDS = 10
"""How long a ``tcp://`` executor waits for its scheduler to answer before giving up."""

WORKER_SECONDS = 30.0
"""How long a ``tcp://`` executor waits for its scheduler to have a worker, at the start and whenever it has
none left (all killed, or gone): then the run stops with ``ExecutorUnavailable`` instead of waiting forever
with the store's lock held."""

POLL_SECONDS = 1.0
"""How often a run waiting for its tasks asks whether its executor can still run them (``wait_some``)."""


class DaskExecutor(Executor):
    """A Dask ``Client``'s executor that also closes the client on shutdown."""

    def __init__(self, address: str) -> None:
        try:
            from distributed import Client
        except ImportError as exc:  # pragma: no cover - depends on the installed extras
            raise ExecutorUnavailable("a tcp:// executor needs Dask: pip install 'tarock[dask]'") from exc
        try:
            self._client = Client(address, timeout=CONNECT_SECONDS)
        except Exception as exc:  # noqa: BLE001 (OSError, TimeoutError, ValueError: all one answer to the user)
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise ExecutorUnavailable(f"cannot reach the Dask scheduler at {address}: {reason}") from None
        self._address = address
        self._workerless_since: float | None = None
        try:
            self._client.wait_for_workers(1, timeout=WORKER_SECONDS)
        except Exception:  # noqa: BLE001 (distributed's TimeoutError, or the scheduler gone meanwhile)
            self._client.close()
            raise ExecutorUnavailable(f"the Dask scheduler at {address} has no worker: none joined within "
                                      f"{WORKER_SECONDS:g} s") from None
        self._executor = self._client.get_executor(pure=False)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self._executor.submit(fn, *args, **kwargs)

    def check_workers(self) -> None:
        """ExecutorUnavailable once the scheduler has had no worker for ``WORKER_SECONDS`` (its tasks would wait
        for one forever)."""
        try:
            workers = len(self._client.scheduler_info().get("workers", {}))
        except Exception:  # noqa: BLE001 (the scheduler itself is gone)
            workers = 0
        if workers:
            self._workerless_since = None
            return
        now = time.monotonic()
        if self._workerless_since is None:
            self._workerless_since = now
        elif now - self._workerless_since >= WORKER_SECONDS:
            raise ExecutorUnavailable(f"the Dask scheduler at {self._address} has had no worker for "
                                      f"{WORKER_SECONDS:g} s: its tasks cannot run")

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._executor.shutdown(wait=wait and not cancel_futures)
        self._client.close()


def wait_some(executor: Executor, futures: Collection[Future[T]]) -> set[Future[T]]:
    """The futures done once at least one is, as ``concurrent.futures.wait(..., FIRST_COMPLETED)``, but asking
    every ``POLL_SECONDS`` whether ``executor`` can still run them (a Dask scheduler without workers:
    ``ExecutorUnavailable``)."""
    while True:
        done, _ = wait(futures, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
        if done:
            return done
        if isinstance(executor, DaskExecutor):
            executor.check_workers()


def max_in_flight(executor: Executor) -> int | None:
    """How many shards to submit before waiting for one (None: all at once, the executor queues them).

    An ``InlineExecutor`` runs a shard as it is submitted, so it gets one
    at a time: progress is reported after each.
    """
    return 1 if isinstance(executor, InlineExecutor) else None


def _cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def check_spec(spec: str | None) -> str:
    """The spec, stripped, if it names an executor (see the module docstring); ValueError otherwise.

    Only the text is looked at (no scheduler is contacted), so the CLI can refuse a bad spec
    before it touches the store.
    """
    spec = (spec or "local").strip()
    if spec.startswith("tcp://"):
        return spec
    kind, colon, count = spec.partition(":")
    if kind != "local" or (colon and not re.fullmatch(r"[0-9]+", count)):
        raise ValueError(f"unknown executor {spec!r}: {_USAGE.format(max=MAX_LOCAL_WORKERS)}")
    if colon and not 1 <= int(count) <= MAX_LOCAL_WORKERS:
        raise ValueError(f"executor {spec!r} asks for {int(count)} workers: N must be 1 to {MAX_LOCAL_WORKERS}")
    return spec


def local_workers(spec: str | None, tasks: int | None = None) -> int:
    """The worker processes a ``local`` / ``local:N`` spec gets for ``tasks`` shards (None: not known).

    N (default: one per CPU), capped by the CPUs this process may use and by the shards to
    run: a worker with nothing to do is never started.
    """
    spec = check_spec(spec)
    if spec.startswith("tcp://"):
        raise ValueError(f"{spec!r} is not a local executor")
    _, _, count = spec.partition(":")
    workers = min(int(count) if count else _cpus(), _cpus())
    if tasks is not None:
        workers = min(workers, max(tasks, 1))
    return workers


def make_executor(spec: str | None = None, tasks: int | None = None) -> Executor:
    """The executor for ``spec`` (see the module docstring) to run ``tasks`` shards (None: not known).

    ValueError for a spec that names no executor or an absurd worker count; ``ExecutorUnavailable``
    when a ``tcp://`` scheduler cannot be reached.
    """
    spec = check_spec(spec)
    if spec.startswith("tcp://"):
        return DaskExecutor(spec)
    workers = local_workers(spec, tasks)
    if workers == 1:
        return InlineExecutor()
    context = _pool_context()
    if context.get_start_method() == "fork":
        _load_lazy_imports()
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=die_with_parent,
                               initargs=(os.getpid(),))


_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def die_with_parent(parent: int) -> None:
    """Initializer of every local worker: end when the coordinator ``parent`` ends, however it ends.

    A coordinator killed with SIGKILL cannot stop its workers, and a forked worker left
    behind waited for work for ever (issue 24).  On Linux the kernel is asked to send the
    worker SIGKILL when its parent dies (``prctl(PR_SET_PDEATHSIG)``); elsewhere a daemon
    thread watches the parent's id.  A parent that died before the request took effect is
    caught by looking at the parent's id once more afterwards.  (The store's lock is not
    inherited either: ``ingest.layout`` lets go of it in every forked child.)
    """
    asked = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            asked = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            asked = False
    if os.getppid() != parent:
        os._exit(1)
    if not asked:
        threading.Thread(target=_watch_parent, args=(parent,), name="watch-coordinator", daemon=True).start()


def _watch_parent(parent: int) -> None:
    """Exit this worker at once when its parent is no longer ``parent`` (it died; the worker was re-parented)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _load_lazy_imports() -> None:
    """Load here, once, what every forked worker would otherwise load on its first shard.

    pyarrow imports pandas (~0.2 s) the first time it converts a Python
    list, which ``process_shard`` does for every table; converting one
    list before the pool forks makes every worker start with it loaded.
    """
    pa.array([0])


def _pool_context() -> multiprocessing.context.BaseContext:
    """``fork`` where there is one: workers start in ~10 ms instead of ~0.5 s of re-importing.

    Safe here because a pool forks all its workers at the first submit,
    before its own manager thread starts, the coordinator runs no other
    thread of its own (the progress bar refreshes without one), and workers
    only run ``process_shard`` (pure Python, orjson, pyarrow), never the
    DuckDB or polars of the parent.
    """
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else methods[0])
