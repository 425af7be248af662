"""Double-dummy analysis of one deal while the Replay page waits, stopped when it runs past a time limit.

The solver's per-card analysis (``tarock.solver.analyse.analyse_deal``) runs in a child process
(``dashboards.analyse_child``) with a CPU limit: a deal analysed from an early trick can take minutes
(docs/solver.md, "Speed"), so its tricks are analysed from the last one back until the limit, and the page shows
those.  A child process, so the page stays responsive (a rerun kills the child), nothing is forked from the
dashboard's own threads, and the solver's tables (up to a gigabyte) go with the process.  Should the child not
answer in ``3 × limit + 5`` seconds of wall time (a machine busy elsewhere), it is killed.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import orjson

from ingest.card_analysis import card_rows

LIMIT = 10.0
"""CPU seconds of search the Replay page gives one analysis."""

_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What came of one analysis: the ``card_analysis`` rows of its cards (``ingest.card_analysis.card_rows``)
    from ``analysed_from`` on (later than asked when the limit stopped it), or why the solver declined the deal,
    or that the child was killed without an answer; and the seconds it took."""

    rows: tuple[dict[str, Any], ...] = ()
    analysed_from: int | None = None
    error: str | None = None
    stopped: bool = False
    seconds: float = 0.0


def analyse(record: str | bytes, options_json: str | None, from_trick: int, limit: float = LIMIT,
            progress: Callable[[int, int], None] | None = None) -> Outcome:
    """Analyse the deal of ``record`` (a record in the project's JSON format) from ``from_trick`` on, under the
    options of ``options_json`` (a stored deal's effective options; None: the record's), within ``limit`` CPU
    seconds.  ``progress(done, total)`` follows the cards analysed."""
    started = time.perf_counter()
    wall = 3 * limit + 5
    text = record.decode() if isinstance(record, bytes) else record
    request = orjson.dumps({"record": text, "options_json": options_json, "from_trick": from_trick,
                            "limit": limit})
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(_ROOT), os.environ.get("PYTHONPATH")]))}
    with tempfile.TemporaryFile() as errors:  # a file, not a pipe: a child writing much there never blocks on it
        child = subprocess.Popen([sys.executable, "-m", "dashboards.analyse_child"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=errors, env=env)
        try:
            return _answer(child, errors, request, started, started + wall, progress)
        finally:
            if child.poll() is None:
                child.kill()
            child.wait()
            if child.stdout is not None:
                child.stdout.close()


def _answer(child: subprocess.Popen[bytes], errors: IO[bytes], request: bytes, started: float, deadline: float,
            progress: Callable[[int, int], None] | None) -> Outcome:
    """Send ``request`` to ``child`` and read its answer, passing its progress on, until the wall-clock
    ``deadline`` (``time.perf_counter``, like ``started``)."""
    lines: queue.Queue[bytes] = queue.Queue()
    assert child.stdin is not None and child.stdout is not None
    threading.Thread(target=_read_lines, args=(child.stdout, lines), daemon=True).start()
    try:
        child.stdin.write(request)
        child.stdin.close()
    except BrokenPipeError:
        pass  # it ended before reading: its error output says why (below)
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            return Outcome(stopped=True, seconds=time.perf_counter() - started)
        try:
            line = lines.get(timeout=min(left, 0.2))
        except queue.Empty:
            continue
        if not line:
            return _crashed(child, errors, started)
        message = orjson.loads(line)
        if "progress" in message:
            if progress is not None:
                progress(*message["progress"])
            continue
        report = message["report"]
        seconds = time.perf_counter() - started
        if "error" in report:
            return Outcome(error=str(report["error"]), seconds=seconds)
        return Outcome(rows=tuple(card_rows(report)), analysed_from=int(report["analysed_from"]), seconds=seconds)


def _read_lines(stream: IO[bytes], lines: queue.Queue[bytes]) -> None:
    """Each line the child writes, then an empty one when it has closed its output."""
    for line in stream:
        lines.put(line)
    lines.put(b"")


def _crashed(child: subprocess.Popen[bytes], errors: IO[bytes], started: float) -> Outcome:
    """The outcome of a child that ended without a report: the last line it wrote on its error output."""
    child.wait()
    errors.seek(0)
    err = errors.read().decode(errors="replace").strip().splitlines()
    why = err[-1] if err else f"exit code {child.returncode}"
    return Outcome(error=f"the solver's process ended without an answer: {why}",
                   seconds=time.perf_counter() - started)
