"""Where things live in a store directory, and what counts as a completed shard.

::

    store/
      CURRENT                       the generation readers see (one line of text)
      .lock                         held by the one ingest coordinator at work (its process id inside)
      .lock.guard                   held for a moment while a coordinator takes .lock
      ingest_runs/run-<id>.parquet  one row per finished run, across generations
      .garbage.json                 files no completed shard lists, and since when (deleted after GRACE_SECONDS)
      <generation>/                 "gen-v<ENGINE_VERSION>-<options hash>"
        _shards/<key>.json          completion marker of a shard: lists its files (a group's: its members)
        deals/ruleset=R/n_players=N/part-<key>.parquet
        results/…, tricks/…, plays/…, findings/…, bids/…, announcements/…
        rejects/part-<key>.parquet
        duplicates/part-dedup.parquet
        ratings/ratings.parquet     a derived table (``DERIVED_TABLES``): one file, rebuilt whole

A generation holds everything scored under one engine version and one set
of options; a rescore builds the next generation beside it and switches
``CURRENT``.  A shard is complete when its marker exists and every file the
marker lists exists: readers and re-runs look at nothing else.

A **group** shard scores a session that spans several shards whole
(``ingest.groups``): its marker lists its ``members``, the shards whose
stored rows it read.  Readers see the *visible* shards (``visible_shards``):
a complete group whose members are all complete hides them, so publishing
the group's marker is the one step that swaps them for it.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from ingest.view_columns import DERIVED_TABLES, SHARD_TABLES  # not ingest.schema: readers need no pyarrow

MARKERS = "_shards"
DUPLICATES_FILE = "duplicates/part-dedup.parquet"
_PART = re.compile(r"part-([0-9a-f]+)\.parquet$")
_GENERATION = re.compile(r"gen-[A-Za-z0-9._-]+$")
GARBAGE_FILE = ".garbage.json"
GRACE_SECONDS = 600.0
"""How long a file no completed shard lists any more (a retired shard's, a generation's after a rescore) is
kept before an ingest deletes it: a reader that opened the store before it was superseded (the dashboard's
handle, a query running) can still read it meanwhile (docs/store.md)."""

StoreStamp = tuple[Any, ...]
"""What changes whenever the shards a new reader would see change (``StoreLayout.stamp``)."""


class StoreBusy(RuntimeError):
    """Another ingest (or another writer) holds the store's lock."""


ANALYSE_LOCK = ".analyse.lock"
"""The lock ``tarock analyse --store`` holds while it writes ``card_analysis`` (beside the generations, which
ingest never touches): one analysis at a time, an ingest alongside (docs/store.md, "Writers")."""


_HELD: set[int] = set()
"""Descriptors of the store locks this process holds; a forked child lets go of them at once."""

GUARD_SECONDS = 10.0
"""How long taking the lock may wait for another coordinator that is taking it at the same moment."""


def _drop_held_in_child() -> None:
    """In a forked child (a ``local:N`` worker): point every held lock's descriptor at /dev/null.

    ``flock`` locks belong to the open file, which a fork shares: a worker that kept the
    descriptor would keep the store locked after its coordinator died (issue 24).  ``dup2``
    over the number, rather than ``close``, so the parent's file object, copied into the
    child, never closes a descriptor the child has since reused.
    """
    if not _HELD:
        return
    null = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
    try:
        for fd in _HELD:
            os.dup2(null, fd, inheritable=False)
    finally:
        os.close(null)
    _HELD.clear()


os.register_at_fork(after_in_child=_drop_held_in_child)


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, from /proc); None when it is not running.

    A zombie counts as not running.  Without /proc the answer is "running, start unknown"
    ("") when the process exists.
    """
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return None
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass
        return ""
    return None if fields[0] in ("Z", "X") else fields[19]


def _identity() -> str:
    """What a coordinator writes into ``.lock``: its process id, start time and host."""
    return f"{os.getpid()} {_start_time(os.getpid()) or '-'} {socket.gethostname()}\n"


def _holder(text: str) -> tuple[int | None, bool]:
    """(process id, gone) of the coordinator a ``.lock`` names; (None, False) when it names none.

    Gone: that process is not running on this host any more (or its id now belongs to a
    process started later).  A holder on another host is never taken for gone.
    """
    parts = text.split()
    if not parts or not parts[0].isdigit():
        return None, False
    pid = int(parts[0])
    if len(parts) >= 3 and parts[2] != socket.gethostname():
        return pid, False
    started = _start_time(pid)
    if started is None:
        return pid, True
    recorded = parts[1] if len(parts) >= 2 else "-"
    return pid, recorded not in ("-", "") and started not in ("", recorded)


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

    def derived_path(self, generation: str, table: str) -> Path:
        """The one Parquet file of a derived table (``DERIVED_TABLES``) of a generation: replaced whole when
        rebuilt, deleted with its generation (its name matches none of the shard files' patterns)."""
        return self.root / generation / table / f"{table}.parquet"

    def read_current(self) -> str | None:
        """The generation readers see, or None for a new store."""
        try:
            name = self.current_file.read_text().strip()
        except FileNotFoundError:
            return None
        return name or None

    def stamp(self) -> StoreStamp:
        """A few ``stat`` calls and one small read that change whenever what ``open_store`` would show
        changes: ``CURRENT`` replaced, a marker of the current generation written or removed (its
        directory changes), ``duplicates`` or a derived table's file replaced.  A reader compares stamps to
        know it must reopen."""
        def of(path: Path) -> tuple[int, int, int] | None:
            try:
                st = os.stat(path)
            except OSError:
                return None
            return st.st_ino, st.st_mtime_ns, st.st_size

        current = self.read_current()
        if current is None:
            return (None,)
        return (current, of(self.current_file), of(self.root / current / MARKERS),
                of(self.duplicates_path(current)), *(of(self.derived_path(current, t)) for t in DERIVED_TABLES))

    def content_id(self) -> str | None:
        """What the stored deals are, in 32 hex digits: the current generation and the names of its completion
        markers (a shard's key names its source file's fingerprint and lines: ``ingest.shards.shard_key``), so
        the same for the same deals wherever the store is copied, and new whenever an ingest publishes or
        retires a shard (``duplicates`` changes only then).  A derived table computed from the deals records
        the id it was computed from, and is current while the store's id is that.  None for a new store."""
        current = self.read_current()
        if current is None:
            return None
        try:
            names = sorted(os.listdir(self.root / current / MARKERS))
        except FileNotFoundError:
            names = []
        return hashlib.sha256("\n".join([current, *names]).encode()).hexdigest()[:32]

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
    def lock(self, name: str = ".lock", holder: str = "ingest") -> Iterator[None]:
        """Hold the store's coordinator lock (non-blocking: StoreBusy when another run holds it).

        ``name`` and ``holder``: another lock of the store, for a writer that changes none of what ingest
        writes (``tarock analyse --store``: ``ANALYSE_LOCK``), and who holds it, for the message.

        The holder writes its process id into ``.lock``.  A lock held although the process
        named there is gone is stale — held by processes that inherited the descriptor of a
        killed coordinator — and is taken over: ``.lock`` is replaced by a new file, which
        the stale holders do not hold.  Taking the lock happens under ``.lock.guard``, so two
        coordinators never both take over.  A forked child lets go of the descriptor
        (``_drop_held_in_child``).
        """
        self.root.mkdir(parents=True, exist_ok=True)
        fd = self._take(name, holder)
        _HELD.add(fd)
        try:
            yield
        finally:
            _HELD.discard(fd)
            try:
                os.ftruncate(fd, 0)
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    def _take(self, name: str, holder: str) -> int:
        """Take the lock file ``name`` (see ``lock``); its descriptor, holding the lock with this process's id in
        it."""
        path = self.root / name
        guard = os.open(self.root / ".lock.guard", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        _HELD.add(guard)
        try:
            deadline = time.monotonic() + GUARD_SECONDS
            while True:
                try:
                    fcntl.flock(guard, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise StoreBusy(f"another {holder} is taking the lock of {self.root}") from None
                    time.sleep(0.05)
            for _ in range(2):
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    pid, gone = _holder(os.pread(fd, 256, 0).decode("utf-8", "replace"))
                    os.close(fd)
                    if not gone:
                        who = f" (process {pid})" if pid is not None else ""
                        raise StoreBusy(f"another {holder} is running on {self.root}{who}") from None
                    self._replace_lock_file(path)  # stale: its coordinator {pid} is gone
                    continue
                except BaseException:
                    os.close(fd)
                    raise
                os.ftruncate(fd, 0)
                os.pwrite(fd, _identity().encode(), 0)
                return fd
            raise StoreBusy(f"the lock of {self.root} could not be taken over")
        finally:
            _HELD.discard(guard)
            os.close(guard)  # releases the guard

    @staticmethod
    def _replace_lock_file(path: Path) -> None:
        """Put a new, unlocked lock file in place of a stale one (whose holders keep the old file)."""
        fresh = path.with_name(f"{path.name}.{os.getpid()}.new")
        fresh.write_bytes(b"")
        os.replace(fresh, path)

    def collect_garbage(self, keep: set[str], grace: float | None = None) -> None:
        """Delete what no completed shard of a kept generation refers to.

        Generations not in ``keep``, temp files of interrupted writes, the
        files of retired or interrupted shards, and markers whose files are
        gone.  Run by the coordinator under the lock, before it starts work,
        so a reader only ever loses files of shards it could no longer see
        after reopening the store.  Generations and shard files are deleted
        only once this has found them unreferenced at least ``grace`` seconds
        (``GRACE_SECONDS``) before (noted in ``.garbage.json``): a reader
        opened before they were superseded keeps working meanwhile.
        """
        grace = GRACE_SECONDS if grace is None else grace
        now = time.time()
        try:
            seen: dict[str, float] = orjson.loads((self.root / GARBAGE_FILE).read_bytes())
            if not isinstance(seen, dict):
                seen = {}
        except (OSError, orjson.JSONDecodeError):
            seen = {}
        noted: dict[str, float] = {}

        def due(path: Path) -> bool:
            """Whether ``path``, unreferenced now, was already so ``grace`` seconds ago (else noted)."""
            rel = str(path.relative_to(self.root))
            since = seen.get(rel)
            since = since if isinstance(since, (int, float)) and since <= now else now
            if now - since >= grace:
                return True
            noted[rel] = since
            return False

        for name in self.generations():
            if name not in keep and due(self.root / name):
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
                    if fname.endswith(".tmp") or (part is not None and part.group(1) not in done
                                                  and due(Path(root, fname))):
                        Path(root, fname).unlink(missing_ok=True)
        for leftover in self.runs_dir.glob("*.tmp") if self.runs_dir.is_dir() else ():
            leftover.unlink(missing_ok=True)
        if noted or seen:
            body = orjson.dumps(noted)
            _write_replace(self.root / GARBAGE_FILE, body)


def _write_replace(path: Path, body: bytes) -> None:
    """Write a small file whole: a temp file beside it, then ``os.replace``."""
    temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    temp.write_bytes(body)
    os.replace(temp, path)


def is_group(marker: dict[str, Any]) -> bool:
    """Whether a marker is a group shard's (``ingest.groups``)."""
    return bool(marker.get("members"))


def visible_shards(complete: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The complete shards readers see (``complete``: ``StoreLayout.completed_shards``), by key.

    A group is live when all its members are complete; live groups are taken largest first (then by key),
    each unless it shares a member with one taken before (a group a later run superseded, until it is
    retired); a taken group hides its members.  Every other complete shard that is not a group is seen.
    So the deals of a shard are seen once, whatever step of a run was the last to finish.
    """
    live = [(key, m) for key, m in complete.items() if is_group(m) and all(k in complete for k in m["members"])]
    live.sort(key=lambda km: (-len(km[1]["members"]), km[0]))
    covered: set[str] = set()
    taken: dict[str, dict[str, Any]] = {}
    for key, marker in live:
        if covered.isdisjoint(marker["members"]):
            covered.update(marker["members"])
            taken[key] = marker
    seen = {key: m for key, m in complete.items() if not is_group(m) and key not in covered}
    return {**seen, **taken}


def read_marker(path: Path) -> dict[str, Any] | None:
    """A shard marker, or None when it is missing or unreadable."""
    try:
        marker = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(marker, dict) or "key" not in marker or not isinstance(marker.get("files"), dict):
        return None
    return marker
