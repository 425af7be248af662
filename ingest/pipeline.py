"""One shard in, its Parquet files and marker out: the function every executor runs.

``process_shard`` is pure apart from the files it publishes and picklable
(plain-data arguments, a module-level function), so a local process pool
and a Dask cluster run exactly the same code.  It is idempotent: a shard
whose marker is complete is skipped, and a re-run of an interrupted shard
writes the same file names with the same content.
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ingest.bulk import BulkPath
from ingest.config import IngestOptions
from ingest.layout import StoreLayout
from ingest.rows import CheckedShardRows, ShardRows
from ingest.shards import Shard
from ingest.writer import publish_shard
from tarock import ENGINE_VERSION
from tarock.check.checker import Checker
from tarock.formats.decode import Plain
from tarock.formats.codec import dumps, loads, RecordError
from tarock.formats.items import ReadItem
from tarock.formats.reader import read_records
from tarock.check.sessions import SessionOrderer, SessionPlan, SessionScorer, content_hash


@dataclass(frozen=True, slots=True)
class ShardReport:
    """What one shard did: counts of items read, deals stored, items rejected, and deal statuses."""

    key: str
    path: str
    start_line: int
    end_line: int | None
    skipped: bool
    read: int
    stored: int
    rejected: int
    ok: int
    renons: int
    error: int
    seconds: float

    @classmethod
    def skipped_from(cls, marker: dict[str, Any]) -> ShardReport:
        """The report of a shard found complete: its counts from its marker."""
        c = {name: marker["counts"].get(name, 0) for name in ("read", "stored", "rejected", "ok", "renons", "error")}
        return cls(marker["key"], marker.get("path", ""), marker.get("start_line", 1), marker.get("end_line"),
                   True, c["read"], c["stored"], c["rejected"], c["ok"], c["renons"], c["error"], 0.0)


def _stored_items(shard: Shard, rows: ShardRows, raw_limit: int) -> Iterator[ReadItem]:
    """A rescore shard's input: the records an earlier generation stored, rejects copied as they were."""
    for path in shard.rescore_rejects:
        for r in pq.ParquetFile(path).read(columns=["file", "line", "reason", "raw"]).to_pylist():
            rows.add_reject(r["file"], r["line"], r["reason"], r["raw"])
    parts = [pq.ParquetFile(p).read(columns=["source_file", "source_line", "record"]) for p in shard.rescore_deals]
    if not parts:
        return
    stored = pa.concat_tables(parts).sort_by([("source_file", "ascending"), ("source_line", "ascending")])
    for file, line, record in zip(*(stored[c].to_pylist() for c in ("source_file", "source_line", "record"))):
        try:
            yield ReadItem(file, line, loads(record), None, None)
        except RecordError as exc:
            rows.add_reject(file, line, str(exc), record[:raw_limit])


def _file_items(shard: Shard, rows: ShardRows, options: IngestOptions,
                bulk: BulkPath | None) -> Iterator[ReadItem | Plain]:
    """A file shard's records (those the bulk path takes as ``Plain``); the items that are not records go
    straight to ``rejects``.

    The file is opened by its absolute path (a worker may run elsewhere) and
    named by the path it was found under, as ``tarock check`` names it.
    """
    items = read_records(shard.abspath, options.limits, shard.start_line, shard.end_line, canonical_text=True,
                         take=None if bulk is None else bulk.take, start_byte=shard.start_byte)
    for item in items:
        if isinstance(item, Plain):
            yield item
        elif item.deal is None:
            assert item.finding is not None
            rows.add_reject(shard.path, item.line, item.finding.message, item.raw)
        else:
            yield item if item.file == shard.path else ReadItem(shard.path, item.line, item.deal, None, None,
                                                                 item.text)


Entry = ReadItem | Plain
"""A shard's record: read the usual way, or taken by the bulk path."""


def _session_seq(entry: Entry) -> tuple[str | None, int | None]:
    if isinstance(entry, Plain):
        return entry.session, entry.seq
    assert entry.deal is not None
    return entry.deal.session, entry.deal.seq


def _digest(entry: Entry) -> str:
    if isinstance(entry, Plain):
        return entry.digest
    assert entry.deal is not None
    return content_hash(entry.deal)


def session_order(items: list[Entry]) -> tuple[list[Entry], SessionPlan]:
    """The items in scoring order (``tarock.check.sessions``: each session's deals in ``seq`` order), and
    the plan of their sessions."""
    plan = SessionPlan.of(_session_seq(e) for e in items)
    if plan.in_order:  # as most logs are: nothing to move
        return items, plan
    orderer: SessionOrderer[Entry] = SessionOrderer(plan)
    out: list[Entry] = []
    for e in items:
        out.extend(orderer.push(*_session_seq(e), e))
    out.extend(orderer.finish())
    return out, plan


@contextmanager
def _collector_spared() -> Iterator[Callable[[], None]]:
    """Keep the cyclic garbage collector off what a shard builds up; yields ``spare()``.

    A shard holds all its records, and then all its rows, until it is
    done: objects without reference cycles that every collection would
    walk again (each full one all the records read so far, about three
    per 20,000-record shard; the first young ones after the checks all the
    rows), 12 to 16 µs per record in all.  So the collector is off until
    the records are read, and ``spare()`` freezes (``gc.freeze``)
    everything alive at that moment and turns the collector on: called
    once the records are read and once the rows are built, collecting the
    checker's and Arrow's garbage never walks them, while reference
    counting frees them as usual.  On the way out everything is unfrozen,
    and the collector is re-enabled if it was enabled on the way in (the
    exit never disables it, so concurrent shards in one process, as Dask
    threads, leave it enabled).
    """
    enabled = gc.isenabled()
    gc.disable()

    def spare() -> None:
        gc.freeze()
        if enabled:
            gc.enable()

    try:
        yield spare
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def _drain(items: list[Entry]) -> Iterator[Entry]:
    """The items in order, each dropped from ``items`` as it is handed out.

    A shard's records are all read before the first is checked; letting
    each go once its rows are built means the records and the rows are not
    both held whole at the shard's peak.
    """
    items.reverse()
    while items:
        yield items.pop()


def process_shard(shard: Shard, store_dir: str, options: IngestOptions,
                  record_by_record: bool = False) -> ShardReport:
    """Read, check, score and store one shard; skipped when its marker is already complete.

    Every input item becomes one ``deals`` row or one ``rejects`` row: a
    record the checker fails on (a bug, never expected) is rejected with the
    exception as its reason rather than stopping the shard.  So is a record
    whose rows the store cannot hold: when turning the shard's rows into
    Arrow tables fails, the shard is redone ``record_by_record`` on the usual
    path (``CheckedShardRows``), which rejects that record and keeps its
    neighbours.
    """
    layout = StoreLayout.at(store_dir)
    generation = options.generation
    done = layout.complete_marker(generation, shard.key)
    if done is not None:
        return ShardReport.skipped_from(done)
    started = time.perf_counter()
    rows = (CheckedShardRows if record_by_record else ShardRows)(shard.key, options.overrides)
    raw_limit = options.limits.raw_limit
    bulk = None if shard.rescore or record_by_record else BulkPath.for_shard(
        rows, shard.path, shard.abspath, options.limits, options.overrides)
    source = _stored_items(shard, rows, raw_limit) if shard.rescore else _file_items(shard, rows, options, bulk)
    with _collector_spared() as spare:
        items, plan = session_order(list(source))
        spare()
        read = len(items) + rows.rejected
        digests = [_digest(e) for e in items]
        copies = {d for d, n in Counter(digests).items() if n > 1}  # these take the usual path, to be scored once
        digests.reverse()
        scorer = SessionScorer(plan, checker=Checker(options.overrides))
        checker = scorer.checker
        for entry in _drain(items):
            digest = digests.pop()
            warnings = None
            if isinstance(entry, Plain):
                assert bulk is not None  # only the bulk path takes records as ``Plain``
                if digest not in copies:
                    warnings = scorer.seq_warnings(entry.session, entry.seq, shard.path, entry.line)
                    if not warnings:  # the bulk path keeps the session's ledger; the usual path shares it below
                        try:
                            if bulk.add(entry):
                                continue
                        except Exception:  # noqa: BLE001 (never expected: the usual path checks the record)
                            pass
                item = bulk.item(entry)
            else:
                item = entry
            deal = item.deal
            if deal is None:  # never expected: the bulk path read it as a record, the others are rejected
                assert item.finding is not None
                rows.add_reject(item.file, item.line, item.finding.message, item.raw)
                continue
            if bulk is not None and deal.session is not None:
                bulk.share_ledger(deal.session, checker)
            try:
                rows.add_deal(item, scorer.score(deal, item.file, item.line, digest, warnings)[0])
            except Exception as exc:  # noqa: BLE001 (a bad record never stops a batch)
                reason = f"internal error while checking the record: {type(exc).__name__}: {exc}"
                rows.add_reject(item.file, item.line, reason, dumps(deal)[:raw_limit])
        spare()
        try:
            tables = rows.tables()
        except Exception:  # noqa: BLE001 (a record the store cannot hold: found and rejected record by record)
            if record_by_record:
                raise
            tables = None
    if tables is None:
        del rows, bulk, source
        return process_shard(shard, store_dir, options, record_by_record=True)
    counts = {"read": read, "stored": sum(t.num_rows for _, t in tables["deals"]),
              "rejected": sum(t.num_rows for _, t in tables["rejects"]), **rows.counts}
    marker = {"path": shard.path, "abspath": shard.abspath, "fingerprint": shard.fingerprint,
              "start_line": shard.start_line, "end_line": shard.end_line, "rescore": shard.rescore,
              "engine_version": ENGINE_VERSION, "options_json": options.options_json,
              "counts": {**counts, "seconds": round(time.perf_counter() - started, 3)}}
    publish_shard(layout, generation, shard.key, tables, marker)
    return ShardReport(shard.key, shard.path, shard.start_line, shard.end_line, False, read, counts["stored"],
                       counts["rejected"], counts["ok"], counts["renons"], counts["error"],
                       time.perf_counter() - started)
