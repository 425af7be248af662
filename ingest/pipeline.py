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
from itertools import chain, islice
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ingest.bulk import BulkPath
from ingest.config import IngestOptions
from ingest.layout import StoreLayout
from ingest.packed_record import unpack
from ingest.rows import POS_INDEX, CheckedShardRows, ShardRows, source_pos
from ingest.shards import Shard
from ingest.writer import ShardWriter
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


def _stored_records(path: str) -> pa.Table:
    """(``source_file``, ``source_line``, ``source_pos``, ``record``) of a ``deals`` file: the records unpacked, or
    as a generation written before the packed form holds them (``ingest.schema.PACKED_COLUMNS``).  A generation
    written before ``source_pos`` (engine version 4 and older) gets one: the records of a line numbered in their
    stored order, as the reader numbers them (``ingest.rows.source_pos``)."""
    file = pq.ParquetFile(path)
    names = file.schema_arrow.names
    packed = "record_packed" in names
    columns = ["source_file", "source_line", *(["source_pos"] if "source_pos" in names else []),
               "record_packed" if packed else "record"]
    table = file.read(columns=columns)
    records = unpack(table["record_packed"]) if packed else table["record"]
    if "source_pos" in names:
        positions: pa.Array | pa.ChunkedArray = table["source_pos"]
    else:
        seen: Counter[tuple[str, int]] = Counter()
        places = []
        files: list[str] = table["source_file"].to_pylist()  # type: ignore[assignment]  # no nulls: REQUIRED
        lines: list[int] = table["source_line"].to_pylist()  # type: ignore[assignment]
        for place in zip(files, lines):
            places.append(source_pos(place[1], seen[place]))
            seen[place] += 1
        positions = pa.array(places, pa.int64())
    return pa.table({"source_file": table["source_file"], "source_line": table["source_line"],
                     "source_pos": positions, "record": records})


def _stored_items(shard: Shard, rows: ShardRows, raw_limit: int, bulk: BulkPath | None) -> Iterator[Entry]:
    """A rescore shard's input: the records an earlier generation stored, rejects copied as they were; those of
    the shard's own file the bulk path takes as ``Plain`` (a stored record is canonical JSON, what it reads).

    A group shard's (``ingest.groups``): each member's records in turn, in the order of ``parts``.  Each
    member (its ``deals`` files, one per partition) is read whole and ordered by (``source_file``,
    ``source_pos``): never more than one member's records at a time.  Each record keeps its place.
    """
    for path in shard.rescore_rejects:
        for r in pq.ParquetFile(path).read(columns=["file", "line", "reason", "raw"]).to_pylist():
            rows.add_reject(r["file"], r["line"], r["reason"], r["raw"])
    for files in shard.parts or (shard.rescore_deals,):
        parts = [_stored_records(p) for p in files]
        if not parts:
            continue
        stored = pa.concat_tables(parts).sort_by([("source_file", "ascending"), ("source_pos", "ascending")])
        del parts
        for file, line, pos, record in zip(*(stored[c].to_pylist()
                                             for c in ("source_file", "source_line", "source_pos", "record"))):
            index = pos & POS_INDEX
            if bulk is not None and file == shard.path:
                taken = bulk.take(line, record.encode(), index)
                if taken is not None:
                    yield taken
                    continue
            try:
                yield ReadItem(file, line, loads(record), None, None, index=index)
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
                                                                 item.text, item.index)


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


BATCH_DEALS = 20_000
"""Deals whose rows a shard turns into Arrow and appends to its files at a time (``ShardWriter``).

A shard is about this many records (``ingest.shards``), but one that a
long session stretched (the planner never cuts inside one) may be far
larger: its rows then go out in batches, and its records are read twice
(``_entries``), never held whole.  A shard of 20,000 deals peaks at about
400 MiB in its worker."""


def _entries(source: Callable[[ShardRows], Iterator[Entry]], rows: ShardRows, batch: int
             ) -> tuple[Iterator[Entry], SessionPlan, list[str] | None, set[str]]:
    """A shard's records in scoring order, the plan of their sessions, their digests in that order when
    known (else None: work each out), and the digests found more than once.

    Up to ``batch`` records are read into memory, ordered and handed out as
    before.  A shard with more is read twice: a first pass keeps only each
    record's session, ``seq`` and digest (its rejects dropped), and the
    second reads the records again as they are handed out, through a
    ``SessionOrderer`` only when a session is out of order (which then
    holds that session's records until they are due).
    """
    first = source(rows)
    items = list(islice(first, batch + 1))
    if len(items) <= batch:
        ordered, plan = session_order(items)
        digests = [_digest(e) for e in ordered]
        copies = {d for d, n in Counter(digests).items() if n > 1}
        digests.reverse()
        return _drain(ordered), plan, digests, copies
    plan = SessionPlan()
    counted: Counter[str] = Counter()
    for e in chain(items, first):
        plan.note(*_session_seq(e))
        counted[_digest(e)] += 1
    del items
    plan.finish()
    copies = {d for d, n in counted.items() if n > 1}
    del counted
    rows.forget_rejects()
    second = source(rows)
    if plan.in_order:
        return second, plan, None, copies
    orderer: SessionOrderer[Entry] = SessionOrderer(plan)

    def ordered_stream() -> Iterator[Entry]:
        for e in second:
            yield from orderer.push(*_session_seq(e), e)
        yield from orderer.finish()

    return ordered_stream(), plan, None, copies


def process_shard(shard: Shard, store_dir: str, options: IngestOptions,
                  record_by_record: bool = False, batch: int = BATCH_DEALS) -> ShardReport:
    """Read, check, score and store one shard; skipped when its marker is already complete.

    Every input item becomes one ``deals`` row or one ``rejects`` row: a
    record the checker fails on (a bug, never expected) is rejected with the
    exception as its reason rather than stopping the shard.  So is a record
    whose rows the store cannot hold: when turning the shard's rows into
    Arrow tables fails, the shard is redone ``record_by_record`` on the usual
    path (``CheckedShardRows``), which rejects that record and keeps its
    neighbours.

    The rows go to the shard's files every ``batch`` deals (``BATCH_DEALS``),
    and a shard of more records than that is read lazily (``_entries``); the
    files hold the same rows in the same order whatever the batch.
    """
    layout = StoreLayout.at(store_dir)
    generation = options.generation
    done = layout.complete_marker(generation, shard.key)
    if done is not None:
        return ShardReport.skipped_from(done)
    started = time.perf_counter()
    rows = (CheckedShardRows if record_by_record else ShardRows)(shard.key, options.overrides)
    raw_limit = options.limits.raw_limit
    # a group's files repeat places (source_pos), which the bulk path's rows are merged by (ingest.rows): no bulk path
    bulk = None if record_by_record or shard.parts else BulkPath.for_shard(
        rows, shard.path, shard.abspath, options.limits, options.overrides)

    def source(into: ShardRows) -> Iterator[Entry]:
        if shard.rescore:
            return _stored_items(shard, into, raw_limit, bulk)
        return _file_items(shard, into, options, bulk)

    writer = ShardWriter(layout, generation, shard.key)
    failed = False  # turning rows into Arrow tables failed: redo the shard record by record
    entries = 0
    try:
        with _collector_spared() as spare:
            items, plan, digests, copies = _entries(source, rows, batch)
            spare()
            scorer = SessionScorer(plan, checker=Checker(options.overrides))
            checker = scorer.checker
            for entry in items:
                entries += 1
                digest = digests.pop() if digests is not None else _digest(entry)
                if rows.batch_deals >= batch:
                    failed = not _flush(rows, bulk, writer, record_by_record, last=False)
                    if failed:
                        break
                    spare()
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
                    rows.add_reject(item.file, item.line, item.finding.message, item.raw, late=True)
                    continue
                if bulk is not None and deal.session is not None:
                    bulk.share_ledger(deal.session, checker)
                try:
                    rows.add_deal(item, scorer.score(deal, item.file, item.line, digest, warnings)[0])
                except Exception as exc:  # noqa: BLE001 (a bad record never stops a batch)
                    reason = f"internal error while checking the record: {type(exc).__name__}: {exc}"
                    rows.add_reject(item.file, item.line, reason, dumps(deal)[:raw_limit], late=True)
            if not failed:
                spare()
                failed = not _flush(rows, bulk, writer, record_by_record, last=True)
            del items
    except BaseException:
        writer.abort()
        raise
    if failed:
        writer.abort()
        del rows, bulk, writer
        return process_shard(shard, store_dir, options, record_by_record=True, batch=batch)
    read = entries + rows.read_rejected
    counts = {"read": read, "stored": writer.rows.get("deals", 0), "rejected": writer.rows.get("rejects", 0),
              **rows.counts}
    marker = {"path": shard.path, "abspath": shard.abspath, "fingerprint": shard.fingerprint,
              "start_line": shard.start_line, "end_line": shard.end_line, "rescore": shard.rescore,
              "sessions": sorted(plan.sessions), **({"members": list(shard.members)} if shard.members else {}),
              "engine_version": ENGINE_VERSION, "options_json": options.options_json,
              "counts": {**counts, "seconds": round(time.perf_counter() - started, 3)}}
    writer.publish(marker)
    return ShardReport(shard.key, shard.path, shard.start_line, shard.end_line, False, read, counts["stored"],
                       counts["rejected"], counts["ok"], counts["renons"], counts["error"],
                       time.perf_counter() - started)


def _flush(rows: ShardRows, bulk: BulkPath | None, writer: ShardWriter, record_by_record: bool,
           last: bool) -> bool:
    """Turn the rows added since the last batch into Arrow and append them to the shard's files; False when
    the store cannot hold some record's rows (found and rejected record by record: ``process_shard``)."""
    try:
        tables = rows.take_batch(last)
    except Exception:  # noqa: BLE001 (a record the store cannot hold)
        if record_by_record:
            raise
        return False
    if bulk is not None:
        bulk.new_batch()
    writer.write(tables)
    return True
