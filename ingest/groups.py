"""Sessions kept whole across shards: group shards (docs/store.md, "Sessions across shards").

A shard scores the sessions it holds with one radelci ledger each, but a
session may span several shards: two files of one ingest, or a file a
later ingest adds to a session already in the store.  After a run's shards
are complete, the coordinator joins every complete shard of the generation
(earlier runs' too) to the others holding one of its sessions (union-find
over the sessions each marker lists); every such set of more than one shard
becomes a **group shard**.  A group is a rescore shard whose input is its
members' stored ``deals`` rows, member by member in (``path``,
``start_line``, key) order, each member's rows by (``source_file``,
``source_pos``): the input order ``tarock check`` has for the same files
named in sorted order.  ``ingest.pipeline.process_shard`` scores it like any
shard, with one ``SessionScorer``, so each of its sessions is scored whole
in ``seq`` order; it copies its members' rejects.

Members are never rewritten or retired for a group: once the group's
marker is published, readers see the group instead of them
(``ingest.layout.visible_shards``).  So a later run that plans a member again
finds it complete, and a run that brings a shard touching a group's sessions
makes a bigger group from the members' own files, after which the smaller
group is retired.  The cost is disk: the deals of a grouped shard are
stored twice (its own files and the group's).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ingest.layout import StoreLayout, is_group
from ingest.shards import Shard


def group_key(members: Iterable[str], generation: str) -> str:
    """The deterministic key of the group of these member keys (24 hex digits of a SHA-256)."""
    text = orjson.dumps(["group", sorted(members), generation])
    return hashlib.sha256(text).hexdigest()[:24]


def marker_sessions(gen_dir: Path, marker: dict[str, Any]) -> list[str]:
    """The sessions a complete shard holds: its marker's list, or (a marker written before markers listed
    them) the distinct ``session`` values of its ``deals`` files."""
    listed = marker.get("sessions")
    if isinstance(listed, list):
        return listed
    found: set[str] = set()
    for rel in marker["files"].get("deals", ()):
        column = pq.ParquetFile(gen_dir / rel).read(columns=["session"]).column("session")
        found.update(s for s in pc.unique(column).to_pylist() if s is not None)
    return sorted(found)


@dataclass(frozen=True, slots=True)
class GroupPlan:
    """The groups a generation's complete shards need, and the complete groups no longer needed."""

    shards: list[Shard]
    """One group shard per set of shards that share a session, complete or not."""
    spanning: dict[str, int]
    """Per group key, how many of its sessions span more than one of its members."""
    stale: list[str]
    """Keys of complete group shards that are none of ``shards``."""


def _member_order(marker: dict[str, Any]) -> tuple[str, int, str]:
    return marker.get("path", ""), marker.get("start_line", 1), marker["key"]


def plan_groups(layout: StoreLayout, generation: str) -> GroupPlan:
    """The group shards the complete shards of ``generation`` need now (see the module docstring)."""
    gen_dir = layout.generation_dir(generation)
    complete = layout.completed_shards(generation)
    bases = {key: m for key, m in complete.items() if not is_group(m)}
    parent = {key: key for key in bases}

    def find(key: str) -> str:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    holders: dict[str, list[str]] = {}
    for key in sorted(bases):
        for session in marker_sessions(gen_dir, bases[key]):
            held = holders.setdefault(session, [])
            if held:
                a, b = find(held[0]), find(key)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            held.append(key)
    sets: dict[str, list[str]] = {}
    for key in bases:
        sets.setdefault(find(key), []).append(key)
    crossing: dict[str, int] = {}  # per set (its root), the sessions held by more than one of its shards
    for held in holders.values():
        if len(held) > 1:
            root = find(held[0])
            crossing[root] = crossing.get(root, 0) + 1
    spanning: dict[str, int] = {}
    shards = []
    for root, keys in sets.items():
        if len(keys) < 2:
            continue
        members = sorted((bases[k] for k in keys), key=_member_order)
        key = group_key(keys, generation)
        spanning[key] = crossing.get(root, 0)
        shards.append(Shard(
            key, f"group of {len(members)} shards", "", None, 1, None,
            sum(m["counts"].get("read", 0) for m in members), rescore=True,
            rescore_rejects=tuple(str(gen_dir / rel) for m in members for rel in m["files"].get("rejects", ())),
            members=tuple(m["key"] for m in members),
            parts=tuple(tuple(str(gen_dir / rel) for rel in m["files"].get("deals", ())) for m in members),
        ))
    shards.sort(key=lambda s: s.key)
    wanted = {s.key for s in shards}
    stale = sorted(key for key, m in complete.items() if is_group(m) and key not in wanted)
    return GroupPlan(shards, spanning, stale)


def retire_groups(layout: StoreLayout, generation: str, plan: GroupPlan) -> None:
    """Drop the markers of the plan's stale groups that readers no longer need.

    A stale group goes when a member of it is no longer complete (an edited file's shard was retired:
    readers already ignore the group), or when every member belongs to a complete group of the plan.
    Until then it keeps its deals seen once (a bigger group that failed leaves the smaller one in place).
    """
    if not plan.stale:
        return
    complete = layout.completed_shards(generation)
    grouped = {k for s in plan.shards if s.key in complete for k in s.members}
    for key in plan.stale:
        marker = complete.get(key)
        if marker is None:
            continue
        members = marker["members"]
        if any(k not in complete for k in members) or all(k in grouped for k in members):
            layout.marker_path(generation, key).unlink(missing_ok=True)
