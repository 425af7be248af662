"""Where things live in a store directory, and what counts as a completed shard.

::

    store/
      CURRENT                       the generation readers see (one line of text)
      .lock                         held by the one ingest coordinator at work
      ingest_runs/run-<id>.parquet  one row per finished run, across generations
      <generation>/                 "gen-v<ENGINE_VERSION>-<options hash>"
        _shards/<key>.json          completion marker of a shard: lists its files
        deals/ruleset=R/n_players=N/part-<key>.parquet
        results/…, tricks/…, plays/…, findings/…, bids/…, announcements/…
        rejects/part-<key>.parquet
        duplicates/part-dedup.parquet

A generation holds everything scored under one engine version and one set
of options; a rescore builds the next generation beside it and switches
``CURRENT``.  A shard is complete when its marker exists and every file the
marker lists exists: readers and re-runs look at nothing else.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from ingest.schema import SHARD_TABLES

MARKERS = "_shards"
DUPLICATES_FILE = "duplicates/part-dedup.parquet"
_PART = re.compile(r"part-([0-9a-f]+)\.parquet$")
_GENERATION = re.compile(r"gen-[A-Za-z0-9._-]+$")


class StoreBusy(RuntimeError):
    """Another ingest holds the store's lock."""


@dataclass(frozen=True, slots=True)
class StoreLayout:
    """The paths of one store directory."""

    root: Path

    @classmethod
    def at(cls, store_dir: str | os.PathLike[str]) -> StoreLayout:
        return cls(Path(store_dir))

    @property
    def current_file(self) -> Path:
        return self.root / "CURRENT"

    @property
    def runs_dir(self) -> Path:
        return self.root / "ingest_runs"

    def generation_dir(self, generation: str) -> Path:
        return self.root / generation

    def marker_path(self, generation: str, key: str) -> Path:
        return self.root / generation / MARKERS / f"{key}.json"

    def duplicates_path(self, generation: str) -> Path:
        return self.root / generation / DUPLICATES_FILE

    def read_current(self) -> str | None:
        """The generation readers see, or None for a new store."""
        try:
            name = self.current_file.read_text().strip()
        except FileNotFoundError:
            return None
        return name or None

    def generations(self) -> list[str]:
        """Every generation directory present."""
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir() if p.is_dir() and _GENERATION.match(p.name))

    def completed_shards(self, generation: str) -> dict[str, dict[str, Any]]:
        """The markers of the complete shards of a generation, by key (see the module docstring)."""
        folder = self.root / generation / MARKERS
        if not folder.is_dir():
            return {}
        gen_dir = self.root / generation
        done = {}
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            if not entry.name.endswith(".json"):
                continue
            marker = read_marker(Path(entry.path))
            if marker is None:
                continue
            files = [rel for table in SHARD_TABLES for rel in marker["files"].get(table, ())]
            if all(os.path.exists(gen_dir / rel) for rel in files):
                done[marker["key"]] = marker
        return done

    def complete_marker(self, generation: str, key: str) -> dict[str, Any] | None:
        """The marker of one shard if that shard is complete."""
        marker = read_marker(self.marker_path(generation, key))
        if marker is None:
            return None
        gen_dir = self.root / generation
        for rels in marker["files"].values():
            if not all(os.path.exists(gen_dir / rel) for rel in rels):
                return None
        return marker

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the store's coordinator lock (non-blocking: StoreBusy when another run holds it)."""
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "a+b") as fh:
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise StoreBusy(f"another ingest is running on {self.root}") from None
            try:
                yield
            finally:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)

    def collect_garbage(self, keep: set[str]) -> None:
        """Delete what no completed shard of a kept generation refers to.

        Generations not in ``keep``, temp files of interrupted writes, the
        files of retired or interrupted shards, and markers whose files are
        gone.  Run by the coordinator under the lock, before it starts work,
        so a reader only ever loses files of shards it could no longer see
        after reopening the store.
        """
        for name in self.generations():
            if name not in keep:
                shutil.rmtree(self.root / name, ignore_errors=True)
        for name in keep:
            gen_dir = self.root / name
            if not gen_dir.is_dir():
                continue
            done = self.completed_shards(name)
            for marker in (gen_dir / MARKERS).glob("*.json"):
                if marker.stem not in done:
                    marker.unlink(missing_ok=True)
            for root, _dirs, files in os.walk(gen_dir):
                for fname in files:
                    part = _PART.match(fname)
                    stale = fname.endswith(".tmp") or (part is not None and part.group(1) not in done)
                    if stale:
                        Path(root, fname).unlink(missing_ok=True)
        for leftover in self.runs_dir.glob("*.tmp") if self.runs_dir.is_dir() else ():
            leftover.unlink(missing_ok=True)


def read_marker(path: Path) -> dict[str, Any] | None:
    """A shard marker, or None when it is missing or unreadable."""
    try:
        marker = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(marker, dict) or "key" not in marker or not isinstance(marker.get("files"), dict):
        return None
    return marker
