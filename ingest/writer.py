"""Publish files atomically: write a temp file in the target directory, fsync, ``os.replace``.

A shard is published in three steps, so a kill at any moment leaves
either a complete shard or one that readers ignore and a re-run redoes:

1. every table file of the shard is written under a temp name (``.tmp``,
   never matched by ``*.parquet``) and fsynced;
2. the temp files are renamed into place in a fixed order, ``deals`` last,
   and their directories fsynced — the final names are deterministic, so a
   re-run overwrites a half-published shard with the same bytes;
3. the shard's marker (``_shards/<key>.json``, listing those files and
   their columns) is written the same way.  Only then is the shard complete.
"""

from __future__ import annotations

import functools
import os
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from ingest.layout import StoreLayout
from ingest.rows import PartTables
from ingest.schema import PARTITION_COLUMNS, SHARD_TABLES, file_schema
from tarock.rules.rulesets import ALL_COMPONENTS

COMPRESSION = "zstd"
"""Parquet codec, at Arrow's default zstd level (1).

Measured on a 20,000-deal shard (tables as ``ingest.rows`` builds them,
CPU time of writing all its files): none 11.1 µs/deal and 35 MB, snappy
12.8 and 16.4 MB, lz4 12.9 and 17.7 MB, zstd 14.7 and 10.4 MB, zstd level
3 16.2 and 10.4 MB, level -1 14.6 and 14.2 MB (all with the old settings).
lz4 would save ~2 µs/deal (also with the tuned options) at +70 % size;
most of zstd's cost is the ``record`` column (12 MB of text to 3.4 MB).
"""

STATISTICS_COLUMNS = frozenset({"source_file", "source_pos", "shard"})
"""The only columns given min/max statistics: the ones readers skip files by.

A deal's child rows are looked up by their deal key (``analysis.deals``)
and copies are hidden by (``shard``, ``source_pos``): ``shard`` and
``source_file`` hold one value per file and ``source_pos`` a narrow
range, so their statistics let DuckDB and polars skip other shards'
files.  ``deal_id`` and ``content_hash`` are hashes: a file's min and max
span nearly the whole range (``0000…`` to ``fff…`` in a 20,000-deal
shard), so they never prune, and neither does ``trick_no`` (every file
has 1 to 12).  Measured (20,000-deal shard, otherwise old settings):
statistics on every column cost 3.5 µs/deal, on these three 0.3, on the
five deal-key columns 1.4 (with the other settings here, the two hashes
add 0.5 to 0.65 µs/deal to these three).
"""

UNIQUE_STRINGS = frozenset({"record", "record_packed", "raw", "deal_id", "content_hash"})
"""Plain string (and binary: the packed ``record``) columns with about one value per row, written without a
dictionary.

Hashing every value for a dictionary that then overflows (``record``)
or is as large as the column costs time and saves nothing (~0.1
µs/deal); in ``deals`` the plain hashes are also smaller (-0.07 MB).
Where these columns are already dictionary arrays (the child tables'
deal keys) the dictionary is kept: Arrow writes it as it is, without
hashing, while decoding them for plain encoding doubles their cost.
"""

DELTA_COLUMNS = frozenset({"source_line", "source_pos", "trick_no"})
"""Integer columns written DELTA_BINARY_PACKED: they ascend within a file (a deal's rows), so the deltas
are mostly 0 and 1 (``source_pos``: 0 and 2**32, which zstd packs as well: 2.7 KB for 240,000 rows of 20,000
deals against 1.6 KB for their lines).  For ``source_line`` cheaper than a dictionary and 2 to 14 times smaller; for
``trick_no`` as cheap as a dictionary and 6 times smaller than PLAIN.  Other integers are PLAIN unless
in ``DICTIONARY_INTEGERS``: ``position`` and ``seat_no`` repeat a short cycle zstd compresses whole, and a
bitmask (``hand_mask``) has nearly as many values as rows."""

DICTIONARY_INTEGERS = frozenset({"points", "declarer_points", "opponents_points", "seq", "score",
                                 "radelci_before", "radelci_after", "talon_taken", "talon_points",
                                 *ALL_COMPONENTS})
"""Integer columns written with a dictionary: a few dozen values in no order, which the dictionary's
bit-packed indices (then zstd) hold in about two thirds of PLAIN + zstd's bytes.  On the 200,000 deals of
``bench/bench_end_to_end.py``: ``tricks.points`` 1.84 -> 1.16 MiB, ``results``' scores, radelci and
components 2.7 -> 1.8 MiB, ``deals``' points and ``seq`` 0.6 -> 0.43 MiB, ``hands``' talon columns 0.27 ->
0.22 MiB; writing them took the same CPU (within the noise of 5 runs)."""

WRITE_BATCH_SIZE = 4096
"""Values handed to a column writer at a time (Arrow's default 1024).

The statistics of a dictionary array are computed per batch (the
distinct indices, then their values): fewer batches save ~0.2 µs/deal on
``plays`` and ``tricks``.  Pages are still cut after a batch exceeds
the 1 MiB page size, so ``record`` pages get up to ~3.5 MB (1.7 MB
before)."""

DICTIONARY_PAGE_LIMIT = 4 << 20
"""Largest dictionary before a column falls back to plain encoding (Arrow's default 1 MiB).

``results.breakdown_json`` of a 4-player partition overflowed 1 MiB; with
4 MiB it keeps its dictionary (420 kB → 332 kB per shard, same time).
"""


def _column_path(field: pa.Field) -> str:
    """The Parquet path of a top-level column's values (a list's: ``name.list.element``)."""
    if pa.types.is_list(field.type) or pa.types.is_large_list(field.type):
        return f"{field.name}.list.element"
    return field.name


def parquet_options(schema: pa.Schema) -> dict[str, Any]:
    """The ``pq.write_table`` options for a table with this schema (see ``write_parquet``)."""
    dictionary: list[str] = []
    encoding: dict[str, str] = {}
    for field in schema:
        path = _column_path(field)
        value_type = field.type.value_type if path != field.name else field.type
        if pa.types.is_dictionary(value_type):
            dictionary.append(path)  # already encoded in memory: writing its dictionary is cheap
        elif pa.types.is_integer(value_type):
            if field.name in DELTA_COLUMNS and path == field.name:
                encoding[path] = "DELTA_BINARY_PACKED"
            elif field.name in DICTIONARY_INTEGERS and path == field.name:
                dictionary.append(path)
        elif pa.types.is_boolean(value_type):
            pass  # never dictionary-encoded
        elif not ((pa.types.is_string(value_type) or pa.types.is_large_string(value_type)
                   or pa.types.is_binary(value_type)) and field.name in UNIQUE_STRINGS):
            dictionary.append(path)
    options: dict[str, Any] = {
        "compression": COMPRESSION,
        "store_schema": False,
        "use_dictionary": dictionary,
        "write_statistics": [field.name for field in schema if field.name in STATISTICS_COLUMNS],
        "write_batch_size": WRITE_BATCH_SIZE,
        "dictionary_pagesize_limit": DICTIONARY_PAGE_LIMIT,
    }
    if encoding:
        options["column_encoding"] = encoding
    return options


def fsync_dir(path: Path) -> None:
    """Make a rename or a new file in ``path`` durable."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_path(path: Path) -> None:
    """fsync a file or a directory by its path."""
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() else 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


FSYNC_THREADS = 8
"""How many of a shard's fsyncs wait at once (``fsync_all``)."""


def fsync_all(paths: list[Path]) -> None:
    """fsync every file or directory of ``paths``, several at a time, and return when all are durable.

    A shard publishes about 16 files and as many directories; each fsync waits for the disk, and one after
    the other they kept a worker idle 0.07-0.15 s per 20,000-deal shard (``strace -f -c -w``: 28 fsyncs,
    0.11 s) while its core had nothing else to do.  Waiting for them together lets the file system commit
    them in fewer journal writes: 16 new 600 kB files took 0.036-0.057 s together against 0.071-0.155 s one
    by one on this machine's ext4.  The first error is raised once every fsync has ended.
    """
    if len(paths) < 2:
        for path in paths:
            _fsync_path(path)
        return
    with ThreadPoolExecutor(min(FSYNC_THREADS, len(paths)), thread_name_prefix="fsync") as pool:
        for done in [pool.submit(_fsync_path, path) for path in paths]:
            done.result()


def _temp_for(path: Path) -> Path:
    return path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}.tmp")


def _write_synced(tmp: Path, write: Callable[[Any], None]) -> None:
    with open(tmp, "wb") as fh:
        write(fh)
        fh.flush()
        os.fsync(fh.fileno())


def write_atomic(path: Path, write: Callable[[Any], None]) -> None:
    """Write a file through ``write(binary file)`` into a temp file, then rename it to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temp_for(path)
    try:
        _write_synced(tmp, write)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def _required(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """The table with each column ``schema`` declares non-nullable marked so, unless it holds a null."""
    declared = {f.name for f in schema if not f.nullable}
    fields = [f.with_nullable(f.name not in declared or table.column(i).null_count > 0)
              for i, f in enumerate(table.schema)]
    return pa.Table.from_arrays(table.columns, schema=pa.schema(fields))


def write_parquet(table: pa.Table, fh: Any, schema: pa.Schema | None = None) -> None:
    """The store's one way of writing a Parquet file (into the open binary file ``fh``).

    Without the Arrow schema in the file metadata (``store_schema=False``):
    dictionary-encoded columns are then plain strings to every reader
    (DuckDB, polars, pyarrow), and all our types have a Parquet logical type.

    Tuned for CPU (``parquet_options``), the values read back unchanged.
    One 20,000-deal shard (plays 960k rows, tricks 260k, results 75k, deals
    20k; CPU time of writing its 8 files, best of 9 to 21 runs, 2 shared
    cores) went from 14.9 µs/deal (tricks 4.1, plays 5.3, results 2.5,
    deals 3.0) and 10.38 MB to 10.9 µs/deal (3.0, 3.6, 1.7, 2.6) and 10.12
    MB; step by step, in one run on a busier machine (16.2 → 11.8):

    * statistics only on ``STATISTICS_COLUMNS``: -3.2 µs/deal;
    * integers PLAIN or ``DELTA_COLUMNS``, no dictionary for
      ``UNIQUE_STRINGS``: -0.7 (-0.12 MB);
    * ``WRITE_BATCH_SIZE``: -0.15; ``DICTIONARY_PAGE_LIMIT``: -0.08 MB;
    * the file built in memory and handed to ``fh`` in one ``write``
      instead of a Python ``write`` call per page: -0.1;
    * with ``schema`` (the table's ``file_schema``), the columns it
      declares non-nullable written REQUIRED (no definition levels): -1.5
      to -1.7 µs/deal on the bulk path's tables (plays 3.9 -> 3.1).

    Tried and left: other codecs and levels (see ``COMPRESSION``), larger
    or fewer pages (``data_page_size``, ``max_rows_per_page``), data page
    v2, PLAIN booleans, one ``ParquetWriter`` instead of ``write_table``
    (all no gain); no dictionary at all (25 µs/deal: the dictionary arrays
    get decoded).  Page index, page checksums and bloom filters are off
    (Arrow's defaults), and one row group per file is Arrow's default up to
    1 Mi rows.  What remains is mostly Arrow's per-value work over the ~1.3
    M child rows (repetition levels, dictionary indices) and zstd on
    ``record`` (~1.5 µs/deal).
    DuckDB, polars and pyarrow read every column of these files
    identically to files written with Arrow's defaults.
    """
    if schema is not None:
        table = _required(table, schema)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, **parquet_options(table.schema))
    fh.write(sink.getvalue())


def write_table_atomic(path: Path, table: pa.Table) -> None:
    """One Parquet file, published atomically."""
    write_atomic(path, lambda fh: write_parquet(table, fh))


def partition_dir(table: str, values: dict[str, Any]) -> str:
    """A table's directory for one partition, relative to the generation: ``deals/ruleset=R/n_players=N``."""
    return "/".join([table, *(f"{key}={values[key]}" for key in PARTITION_COLUMNS if key in values)])


class ShardWriter:
    """A shard's table files written batch by batch, then published as ``publish_shard`` does.

    Each batch of tables (``ingest.rows.ShardRows.take_batch``) is appended to the shard's temp files, one
    Parquet row group per batch and file (a ``pq.ParquetWriter`` per table and partition, opened with the
    first batch that has rows for it, with the options of ``write_parquet``), so a shard far larger than a
    batch is never held whole.  A shard written in one batch gets the very bytes ``write_parquet`` writes;
    in more, the same rows in the same order.  ``publish`` closes, fsyncs and renames the files (``deals``
    last) and writes the marker; ``abort`` deletes the temp files.
    """

    def __init__(self, layout: StoreLayout, generation: str, key: str) -> None:
        self.layout = layout
        self.generation = generation
        self.key = key
        self._gen_dir = layout.generation_dir(generation)
        self._open: dict[tuple[str, tuple[Any, ...]], tuple[pq.ParquetWriter, Path, Path, str, pa.Schema]] = {}
        self.rows: dict[str, int] = {}
        """Rows written per table."""
        self.columns: dict[str, list[str]] = {}
        """Each table's columns, as the first batch that had the table gave them."""

    def write(self, tables: PartTables) -> None:
        """Append a batch."""
        for name in SHARD_TABLES:
            parts = tables.get(name, [])
            if parts and name not in self.columns:
                self.columns[name] = parts[0][1].column_names
            for values, part in parts:
                if part.num_rows == 0:
                    continue
                table = _required(part, file_schema(name))
                slot = (name, tuple(values.get(k) for k in PARTITION_COLUMNS))
                opened = self._open.get(slot)
                if opened is None:
                    rel_dir = partition_dir(name, values)
                    final = self._gen_dir / rel_dir / f"part-{self.key}.parquet"
                    final.parent.mkdir(parents=True, exist_ok=True)
                    tmp = _temp_for(final)
                    writer = pq.ParquetWriter(str(tmp), table.schema, **parquet_options(table.schema))
                    opened = self._open[slot] = (writer, tmp, final, f"{rel_dir}/{final.name}", table.schema)
                writer, schema = opened[0], opened[4]
                if not table.schema.equals(schema):  # a column REQUIRED in one batch, not in another
                    if any(f.nullable and not schema.field(f.name).nullable for f in table.schema):
                        raise ValueError(f"{name}: a column declared non-nullable holds a null")  # never so
                    table = table.cast(schema)
                writer.write_table(table)
                self.rows[name] = self.rows.get(name, 0) + table.num_rows

    def abort(self) -> None:
        """Close and delete the temp files."""
        for writer, tmp, _, _, _ in self._open.values():
            try:
                writer.close()
            finally:
                tmp.unlink(missing_ok=True)
        self._open.clear()

    def publish(self, marker: dict[str, Any]) -> dict[str, list[str]]:
        """Close the files, rename them into place (``deals`` last), then write the marker; the files by
        table."""
        order = {name: i for i, name in enumerate(SHARD_TABLES)}
        slots = sorted(self._open, key=lambda slot: (order[slot[0]], slot[1]))
        files: dict[str, list[str]] = {}
        try:
            for slot in slots:
                writer, _, _, rel, _ = self._open[slot]
                writer.close()
                files.setdefault(slot[0], []).append(rel)
            fsync_all([self._open[slot][1] for slot in slots])
            for slot in slots:
                _, tmp, final, _, _ = self._open[slot]
                os.replace(tmp, final)
        except BaseException:
            self.abort()
            raise
        fsync_all(sorted({self._open[slot][2].parent for slot in slots}))
        self._open.clear()
        body = orjson.dumps({**marker, "key": self.key, "generation": self.generation, "files": files,
                             "columns": self.columns}, option=orjson.OPT_INDENT_2)
        write_atomic(self.layout.marker_path(self.generation, self.key), lambda fh: fh.write(body))
        return files


def publish_shard(layout: StoreLayout, generation: str, key: str, tables: PartTables,
                  marker: dict[str, Any]) -> dict[str, list[str]]:
    """Write a shard's tables and then its marker (see the module docstring); the files by table."""
    gen_dir = layout.generation_dir(generation)
    staged: list[tuple[Path, Path]] = []
    files: dict[str, list[str]] = {}
    try:
        for name in SHARD_TABLES:  # publishing order: deals last
            for values, part in tables[name]:
                if part.num_rows == 0:
                    continue
                rel_dir = partition_dir(name, values)
                final = gen_dir / rel_dir / f"part-{key}.parquet"
                final.parent.mkdir(parents=True, exist_ok=True)
                tmp = _temp_for(final)
                staged.append((tmp, final))
                _write_synced(tmp, functools.partial(write_parquet, part, schema=file_schema(name)))
                files.setdefault(name, []).append(f"{rel_dir}/{final.name}")
        for tmp, final in staged:
            os.replace(tmp, final)
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    for folder in sorted({final.parent for _, final in staged}):
        fsync_dir(folder)
    columns = {name: parts[0][1].column_names for name, parts in tables.items() if parts}
    body = orjson.dumps({**marker, "key": key, "generation": generation, "files": files, "columns": columns},
                        option=orjson.OPT_INDENT_2)
    write_atomic(layout.marker_path(generation, key), lambda fh: fh.write(body))
    return files
