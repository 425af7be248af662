"""The stored deals rescored under other options into a generation beside the current one: a what-if's rows.

A what-if asks what the store would hold under another rules table.  The store already knows how to answer:
``--rescore`` scores every stored record again, shard by shard, on the executors, through the bulk path and
the compiled scorer where the options are the accelerator's — but it then makes the new generation current.
Here the same shards (``ingest.shards.plan_rescore``) are built into the generation of the other options and
CURRENT is left alone, so readers see nothing change; ``ingest.store.attach_generation`` then puts that
generation's views beside the current ones.

The generation is a cache: a second what-if under the same options finds its shards complete and only scores
those the current generation gained since.  Its shards whose source shard the current generation no longer
has (an edited file re-cut) are dropped first, and its shards that share a session are grouped as ingest groups
them (``ingest.groups``), so it always mirrors the current generation.  The next ingest
collects it like any superseded generation (``StoreLayout.collect_garbage``, after the grace period).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ingest.config import IngestOptions
from ingest.coordinator import run_shards
from ingest.dedup import write_duplicates
from ingest.groups import plan_groups, retire_groups
from ingest.layout import StoreLayout, is_group
from ingest.pipeline import ShardReport
from ingest.progress import ProgressCallback
from ingest.shards import plan_rescore


class RescoreFailed(RuntimeError):
    """Some shard of the rescore raised; the generation is left incomplete (the next call finishes it)."""


def rescore_beside(store_dir: str | os.PathLike[str], overrides: Mapping[str, Any], executor: str = "local",
                   progress: ProgressCallback | None = None) -> str:
    """The name of the generation holding the store's deals scored under ``overrides``, built if needed.

    The current generation when ``overrides`` are what it was scored under.  Raises ``StoreBusy`` while
    an ingest holds the store, ``RescoreFailed`` when a shard failed, ValueError when there is no store.
    """
    options = IngestOptions.make(overrides)
    layout = StoreLayout.at(store_dir)
    with layout.lock():
        current = layout.read_current()
        if current is None:
            raise ValueError(f"no store at {store_dir}")
        target = options.generation
        if target == current:
            return current
        shards = plan_rescore(layout.completed_shards(current).values(), str(layout.generation_dir(current)),
                              target)
        planned = {s.key for s in shards}
        complete = layout.completed_shards(target)
        stale = [key for key, m in complete.items() if key not in planned and not is_group(m)]
        for key in stale:  # their source shard is gone from the current generation
            layout.marker_path(target, key).unlink(missing_ok=True)
        done = {key: ShardReport.skipped_from(m) for key, m in complete.items() if key in planned}
        store = str(layout.root.resolve())
        reports, failures = run_shards(shards, done, executor, store, options, progress)
        groups = plan_groups(layout, target)  # sessions across shards scored whole, as ingest does
        if groups.shards and not failures:
            done = {key: ShardReport.skipped_from(m) for key, m in layout.completed_shards(target).items()}
            more, failures = run_shards(groups.shards, done, executor, store, options, progress)
            reports += more
        if failures:
            shard, message = failures[0]
            raise RescoreFailed(f"{len(failures)} shard(s) failed to rescore, e.g. {shard.describe()}: {message}")
        retire_groups(layout, target, groups)
        if stale or any(not r.skipped for r in reports) or not layout.duplicates_path(target).exists():
            write_duplicates(layout, target)
    return target
