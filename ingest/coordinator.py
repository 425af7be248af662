"""Run an ingest: plan shards, run them on an executor, then retire, deduplicate, switch and log.

The coordinator is the only process that changes the store's shape (which
generation is current, which shards are retired, the ``duplicates`` list,
the run log); it holds the store's lock while it works.  Workers only
publish their own shards.  Order of a run:

1. lock; pick the generation (engine version + options); a new store gets
   ``CURRENT``; collect what no completed shard refers to;
2. discover and plan the input (plus, for a rescore, one shard per
   completed shard of the current generation);
3. run the shards not yet complete, per shard, on the executor;
4. retire the shards of the input files that the plan no longer has (an
   edited or re-cut file), once all its new shards are complete;
5. group: every set of complete shards of the generation (earlier runs'
   too) that share a session becomes a group shard, run on the executor
   when not yet complete, so each session is scored whole
   (``ingest.groups``); the groups no longer needed are retired;
6. recompute ``duplicates``; for a rescore with every shard complete,
   switch ``CURRENT`` to the new generation;
7. append the run to ``ingest_runs``.

A kill at any point leaves a store whose views show only completed
shards, each deal once (``ingest.layout.visible_shards``); running the same
command again finishes the work.
"""

from __future__ import annotations

import os
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pyarrow as pa

from ingest.config import IngestOptions
from ingest.dedup import write_duplicates
from ingest.discover import SourceFile, discover
from ingest.executors import check_spec, make_executor, max_in_flight, wait_some
from ingest.groups import plan_groups, retire_groups
from ingest.layout import StoreLayout
from ingest.pipeline import ShardReport, process_shard
from ingest.progress import ProgressCallback, ProgressUpdate
from ingest.schema import INGEST_RUNS
from ingest.shards import DEFAULT_SHARD_SIZE, Shard, plan_rescore, plan_shards
from ingest.writer import write_atomic, write_table_atomic
from tarock import ENGINE_VERSION


class GenerationMismatch(RuntimeError):
    """The store was scored under another engine version or other options; a rescore is needed."""


@dataclass
class IngestSummary:
    """What a run did.  ``read = stored + rejected`` must hold; ``deduplicated`` of the stored are hidden copies."""

    run_id: str
    store_dir: str
    generation: str
    executor: str
    rescore: bool
    switched: bool
    files: int
    shards: int
    shards_skipped: int
    read: int
    stored: int
    rejected: int
    deduplicated: int
    ok: int
    renons: int
    error: int
    started_at: datetime
    finished_at: datetime
    seconds: float
    processed: int
    """Records read by the shards this run processed (not skipped): the basis of ``deals_per_second``."""
    groups: int = 0
    """Group shards this run scored (``ingest.groups``): sets of shards that share a session."""
    sessions_rescored: int = 0
    """Sessions spanning several shards that those groups scored whole."""
    failed: list[tuple[str, str]] = field(default_factory=list)
    """(shard, error) of each shard that raised; it is retried by the next run."""
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """(path, why) of each file an input directory holds that was not read (a FIFO, another name, …)."""

    @property
    def balanced(self) -> bool:
        """``read = stored + rejected`` holds for every planned shard: never when a shard failed (its items
        are counted nowhere, so the sums of the others prove nothing)."""
        return not self.failed and self.read == self.stored + self.rejected

    @property
    def exit_code(self) -> int:
        """0 when every shard completed and every input item is accounted for, else 1."""
        return 0 if self.balanced and not self.failed else 1

    @property
    def deals_per_second(self) -> float:
        return self.processed / self.seconds if self.seconds > 0 else 0.0


def _switch_current(layout: StoreLayout, generation: str) -> None:
    body = f"{generation}\n".encode()
    write_atomic(layout.current_file, lambda fh: fh.write(body))


def run_shards(shards: list[Shard], done: dict[str, ShardReport], executor: str, store_dir: str,
                options: IngestOptions, progress: ProgressCallback | None
                ) -> tuple[list[ShardReport], list[tuple[Shard, str]]]:
    """Run the shards not in ``done`` on the executor; every report (skipped ones too) and the failures."""
    reports = [done[s.key] for s in shards if s.key in done]
    pending = [s for s in shards if s.key not in done]
    failures: list[tuple[Shard, str]] = []
    estimates = {s.key: s.est_records for s in pending}
    records_done = sum(r.read for r in reports)
    processed = 0
    started = time.perf_counter()

    def tell() -> None:
        if progress is not None:
            elapsed = time.perf_counter() - started
            progress(ProgressUpdate(len(reports) + len(failures), len(shards), records_done,
                                    records_done + sum(estimates.values()),
                                    processed / elapsed if elapsed > 0 else 0.0, elapsed))

    tell()
    if not pending:
        return reports, failures
    pool = make_executor(executor, tasks=len(pending))
    window = max_in_flight(pool) or len(pending)
    queue = iter(pending)
    running: dict[Future[ShardReport], Shard] = {}
    try:
        while True:
            while len(running) < window and (shard := next(queue, None)) is not None:
                running[pool.submit(process_shard, shard, store_dir, options)] = shard
            if not running:
                break
            finished = wait_some(pool, running)
            for future in finished:
                shard = running.pop(future)
                estimates.pop(shard.key)
                try:
                    report = future.result()
                except Exception as exc:  # noqa: BLE001 (one failed shard never stops the others)
                    failures.append((shard, f"{type(exc).__name__}: {exc}"))
                else:
                    reports.append(report)
                    records_done += report.read
                    processed += 0 if report.skipped else report.read
                tell()
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return reports, failures


def _retire(layout: StoreLayout, generation: str, files: Iterable[SourceFile], shards: list[Shard]) -> None:
    """Drop the markers of shards of these files that the plan replaced (files are collected next run)."""
    planned: dict[str, set[str]] = defaultdict(set)
    for s in shards:
        if not s.rescore:
            planned[s.abspath].add(s.key)
    complete = layout.completed_shards(generation)
    inputs = {f.abspath for f in files}
    for key, marker in complete.items():
        path = marker.get("abspath")
        if path in inputs and key not in planned[path] and planned[path] <= complete.keys():
            layout.marker_path(generation, key).unlink(missing_ok=True)


def _log_run(layout: StoreLayout, summary: IngestSummary, options: IngestOptions) -> None:
    row = {
        "run_id": summary.run_id, "started_at": summary.started_at, "finished_at": summary.finished_at,
        "seconds": summary.seconds, "generation": summary.generation, "rescore": summary.rescore,
        "files": summary.files, "shards": summary.shards, "shards_skipped": summary.shards_skipped,
        "shards_failed": len(summary.failed), "read": summary.read, "stored": summary.stored,
        "rejected": summary.rejected, "deduplicated": summary.deduplicated, "ok": summary.ok,
        "renons": summary.renons, "error": summary.error, "groups": summary.groups,
        "sessions_rescored": summary.sessions_rescored, "engine_version": ENGINE_VERSION,
        "options_json": options.options_json, "executor": summary.executor,
    }
    table = pa.Table.from_pylist([row], schema=INGEST_RUNS)
    write_table_atomic(layout.runs_dir / f"run-{summary.run_id}.parquet", table)


def run_ingest(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], store_dir: str | os.PathLike[str],
               executor: str = "local", *, options: IngestOptions | None = None, rescore: bool = False,
               shard_size: int = DEFAULT_SHARD_SIZE, progress: ProgressCallback | None = None) -> IngestSummary:
    """Ingest record files (and directories) into a store; see the module docstring for the steps.

    ``rescore`` re-scores every deal already in the store from its stored
    record when the engine version or the options changed (the store's
    generation differs): the new generation is built beside the current one
    and replaces it in one step once complete.  Without it, an ingest under
    other options than the store's raises ``GenerationMismatch``.
    """
    options = options or IngestOptions()
    check_spec(executor)  # a spec that names no executor is refused before the store is touched
    layout = StoreLayout.at(store_dir)
    store = str(layout.root.resolve()) if layout.root.exists() else os.path.abspath(store_dir)
    started_at = datetime.now(UTC)
    started = time.perf_counter()
    run_id = f"{started_at:%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
    target = options.generation
    with layout.lock():
        current = layout.read_current()
        if current is None:
            _switch_current(layout, target)
            current = target
        elif current != target and not rescore:
            raise GenerationMismatch(
                f"the store {store_dir} was scored as {current}; this ingest scores as {target} "
                "(another engine version or other options): re-score it with --rescore")
        layout.collect_garbage({current, target})
        skipped: list[tuple[str, str]] = []
        files = discover(paths, lambda path, why: skipped.append((str(path), why)))
        shards = plan_shards(files, target, shard_size, options.limits)
        if current != target:
            planned = {s.key for s in shards}
            old = layout.completed_shards(current).values()
            shards += [s for s in plan_rescore(old, str(layout.generation_dir(current)), target)
                       if s.key not in planned]
        done = {k: ShardReport.skipped_from(m) for k, m in layout.completed_shards(target).items()}
        reports, failures = run_shards(shards, done, executor, store, options, progress)
        _retire(layout, target, files, shards)
        groups = plan_groups(layout, target)
        group_reports: list[ShardReport] = []
        if groups.shards:
            done = {k: ShardReport.skipped_from(m) for k, m in layout.completed_shards(target).items()}
            group_reports, group_failures = run_shards(groups.shards, done, executor, store, options, progress)
            failures += group_failures
        retire_groups(layout, target, groups)
        duplicates = write_duplicates(layout, target)
        switched = current != target and not failures
        if switched:
            _switch_current(layout, target)
        keys = {s.key for s in shards}
        keys |= {g.key for g in groups.shards if not keys.isdisjoint(g.members)}  # a copy a group now holds
        deduplicated = sum(1 for shard in duplicates.column("shard").to_pylist() if shard in keys)
        finished_at = datetime.now(UTC)
        summary = IngestSummary(
            run_id=run_id, store_dir=str(store_dir), generation=target, executor=executor or "local",
            rescore=rescore, switched=switched, files=len(files), shards=len(shards),
            shards_skipped=sum(r.skipped for r in reports), read=sum(r.read for r in reports),
            stored=sum(r.stored for r in reports), rejected=sum(r.rejected for r in reports),
            deduplicated=deduplicated, ok=sum(r.ok for r in reports), renons=sum(r.renons for r in reports),
            error=sum(r.error for r in reports), started_at=started_at, finished_at=finished_at,
            seconds=time.perf_counter() - started, processed=sum(r.read for r in reports if not r.skipped),
            failed=[(s.describe(), message) for s, message in failures], skipped=skipped,
            groups=sum(not r.skipped for r in group_reports),
            sessions_rescored=sum(groups.spanning[r.key] for r in group_reports if not r.skipped),
        )
        _log_run(layout, summary, options)
    return summary

