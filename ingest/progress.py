"""Progress of an ingest: a rich bar on a terminal, plain log lines otherwise, nothing when quiet.

The coordinator calls a ``ProgressCallback`` once before work starts and
once per finished shard; the reporters here turn those updates into output
on stderr.  Record totals are estimates until every shard has finished.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


@dataclass(frozen=True, slots=True)
class ProgressUpdate:
    """Where an ingest stands: shards and records done of the totals, and the processing rate."""

    shards_done: int
    shards_total: int
    records_done: int
    records_total: int
    deals_per_second: float
    elapsed: float


ProgressCallback = Callable[[ProgressUpdate], None]


class LogProgress:
    """One plain line per ``interval`` seconds (and at the end), for logs and pipes."""

    def __init__(self, stream: TextIO, interval: float = 5.0) -> None:
        self._stream = stream
        self._interval = interval
        self._last = float("-inf")

    def __call__(self, u: ProgressUpdate) -> None:
        now = time.monotonic()
        if u.shards_done < u.shards_total and now - self._last < self._interval:
            return
        self._last = now
        self._stream.write(f"ingest: {u.shards_done}/{u.shards_total} shards, {u.records_done}/{u.records_total} "
                           f"records, {u.deals_per_second:,.0f} deals/s, {u.elapsed:.1f}s\n")
        self._stream.flush()


@contextmanager
def rich_progress(console: Console) -> Iterator[ProgressCallback]:
    """A live progress bar (records, deals/s, ETA) for the duration of the block."""
    columns = (TextColumn("ingest"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[shards]}"),
               TextColumn("{task.fields[rate]} deals/s"), TimeElapsedColumn(), TimeRemainingColumn())
    # No refresh thread: redrawn on each update, so worker processes are never forked beside a running thread.
    with Progress(*columns, console=console, auto_refresh=False) as bar:
        task = bar.add_task("ingest", total=None, shards="", rate="-")

        def update(u: ProgressUpdate) -> None:
            bar.update(task, completed=u.records_done, total=max(u.records_total, u.records_done),
                       shards=f"{u.shards_done}/{u.shards_total} shards", rate=f"{u.deals_per_second:,.0f}",
                       refresh=True)

        yield update


@contextmanager
def default_progress(quiet: bool, stream: TextIO | None = None) -> Iterator[ProgressCallback | None]:
    """The reporter for the terminal at hand: None when quiet, a bar on a TTY, log lines otherwise."""
    stream = stream or sys.stderr
    if quiet:
        yield None
    elif stream.isatty():
        with rich_progress(Console(file=stream)) as update:
            yield update
    else:
        yield LogProgress(stream)
