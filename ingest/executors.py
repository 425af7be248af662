"""Where shards run: a ``concurrent.futures.Executor`` made from a short spec.

* ``local`` / ``local:N`` — a process pool of N workers (default: one per
  CPU); ``local:1`` runs the shards in this process, one after the other.
* ``tcp://HOST:PORT`` — a Dask distributed scheduler (the ``dask`` extra);
  its workers need this project installed and the store directory (and the
  input files) at the same absolute paths, e.g. on a shared file system.

Every executor runs the same ``ingest.pipeline.process_shard``.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

import pyarrow as pa


class InlineExecutor(Executor):
    """Runs each call in the calling process when it is submitted (``local:1``): no pickling, no pool."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 (delivered through the future, like a pool does)
            future.set_exception(exc)
        return future


class DaskExecutor(Executor):
    """A Dask ``Client``'s executor that also closes the client on shutdown."""

    def __init__(self, address: str) -> None:
        try:
            from distributed import Client
        except ImportError as exc:  # pragma: no cover - depends on the installed extras
            raise RuntimeError("a tcp:// executor needs Dask: pip install 'tarock[dask]'") from exc
        self._client = Client(address)
        self._executor = self._client.get_executor(pure=False)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self._executor.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._executor.shutdown(wait=wait and not cancel_futures)
        self._client.close()


def max_in_flight(executor: Executor) -> int | None:
    """How many shards to submit before waiting for one (None: all at once, the executor queues them).

    An ``InlineExecutor`` runs a shard as it is submitted, so it gets one
    at a time: progress is reported after each.
    """
    return 1 if isinstance(executor, InlineExecutor) else None


def make_executor(spec: str | None = None) -> Executor:
    """The executor for ``spec`` (see the module docstring); ValueError for anything else."""
    spec = (spec or "local").strip()
    if spec.startswith("tcp://"):
        return DaskExecutor(spec)
    kind, _, count = spec.partition(":")
    if kind != "local" or (count and not count.isdigit()) or count == "0":
        raise ValueError(f"unknown executor {spec!r}: use local, local:N or tcp://HOST:PORT")
    workers = int(count) if count else os.cpu_count() or 1
    if workers == 1:
        return InlineExecutor()
    context = _pool_context()
    if context.get_start_method() == "fork":
        _load_lazy_imports()
    return ProcessPoolExecutor(max_workers=workers, mp_context=context)


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
