"""Read the store: DuckDB views over the Parquet files of the completed shards.

``open_store`` gives an in-memory DuckDB connection with one view per table
(``deals``, ``results``, ``tricks``, ``plays``, ``findings``, ``bids``,
``announcements``, ``rejects``, ``duplicates``, ``ingest_runs``, and the derived ``ratings``, an empty
typed view until it is built).  The views
read the files listed by the completed shard markers of the current
generation (those readers see: a complete group hides its members,
``ingest.layout.visible_shards``) — never a shard still being written, never a half-published
one — as they were when the connection was opened; open a new connection
(``sql`` does, every call) to see shards completed since.  The per-deal
views hide the copies listed in ``duplicates``, so a deal stored from two
files shows once (a child view by its join with ``deals``, which gives it ``deal_id`` and ``content_hash``: the
child files do not hold them).  The schema ``stored`` holds the child tables' key-only views (``STORED``), which the
analysis queries join.  A connection is cheap: only the markers are read.

The views present every column docs/store.md lists, also those the files hold in another form
(``ingest.view_columns.PACKED_COLUMNS``: ``deals.record`` is unpacked by the SQL function ``tarock_record``,
registered on each connection made here) or not at all (``COMPUTED_COLUMNS``: a hand's counts).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
from duckdb.func import PythonUDFType

from ingest.layout import StoreLayout, is_group, visible_shards
from ingest.view_columns import (ANALYSIS_TABLES, COMPUTED_COLUMNS, DEAL_ONLY_KEY, DEAL_TABLES, DERIVED_TABLES,
                                 PACKED_COLUMNS, PARTITION_TYPES, SHARD_TABLES, TABLES, UNPACK_RECORD)

_DEDUP_KEY = ("shard", "source_pos")
"""Identifies a stored copy of a deal in a shard of one file; reading these two is far cheaper than
``content_hash``.  While a group shard (several files) is seen, ``source_file`` is added."""


STORED = "stored"
"""The schema of the key-only views: ``stored.results``, ``stored.tricks`` … each child table (``DEAL_TABLES`` but
``deals``) as its files hold it, without ``DEAL_ONLY_KEY``, its duplicate copies hidden.  The public child views
take ``deal_id`` and ``content_hash`` from ``deals`` by a join on the stored copy's key; the analysis queries join
these views with ``deals`` or with each other on that key themselves (``COPY_KEY``), and pay no join they do not
need."""

COPY_KEY = ("shard", "source_file", "source_pos")
"""The stored copy's key every per-deal table holds: what ``stored`` views are joined on (``source_file`` is one
dictionary value per file, so it costs the join little; ``_DEDUP_KEY`` leaves it out while no group is seen)."""


def stored_schema(schema: str | None = None) -> str:
    """The schema of the ``STORED`` views of the views in ``schema`` (None or ``main``: ``open_store``'s own;
    another: ``attach_generation``'s, ``<schema>_stored``)."""
    return STORED if schema in (None, "main") else f"{schema}_{STORED}"


def _literal(text: str) -> str:
    """A SQL string literal (file paths only; query values are always bound parameters)."""
    return "'" + text.replace("'", "''") + "'"


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def parquet_source(files: Sequence[str], hive: bool, union: bool = True) -> str:
    """SQL reading these Parquet files (partition columns typed from the path when ``hive``).

    ``union`` matches columns by name across files whose schemas differ
    (``union_by_name``); files known to share one schema bind much faster
    without it.
    """
    listed = "[" + ", ".join(_literal(f) for f in files) + "]"
    options = f"union_by_name={'true' if union else 'false'}"
    if not hive:
        return f"read_parquet({listed}, hive_partitioning=false, {options})"
    types = ", ".join(f"{_literal(k)}: {_literal(t)}" for k, t in PARTITION_TYPES.items())
    return f"read_parquet({listed}, hive_partitioning=true, {options}, hive_types={{{types}}})"


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """The readable files of each table, and the column lists their shard markers declare."""

    files: dict[str, list[str]]
    columns: dict[str, set[tuple[str, ...]] | None]
    """Per table, the distinct column lists of its files (None: some marker does not say)."""
    grouped: bool = False
    """Whether a group shard is seen (its copies are told apart by ``source_file`` too)."""


def _snapshot(store_dir: str | os.PathLike[str], generation: str | None = None) -> _Snapshot:
    """One consistent snapshot of a generation (default: the current one): ``CURRENT`` and the markers are
    read once."""
    layout = StoreLayout.at(store_dir)
    files: dict[str, list[str]] = {table: [] for table in TABLES}
    columns: dict[str, set[tuple[str, ...]] | None] = {table: set() for table in SHARD_TABLES}
    for table in ANALYSIS_TABLES:  # beside the generations: <store>/<table>/ruleset=R/n_players=N/part-*.parquet
        files[table] = sorted(str(p) for p in (layout.root / table).glob("*/*/part-*.parquet"))
    generation = layout.read_current() if generation is None else generation
    if generation is None:
        return _Snapshot(files, columns)
    gen_dir = layout.generation_dir(generation)
    visible = visible_shards(layout.completed_shards(generation))
    for marker in visible.values():
        declared = marker.get("columns", {})
        for table, rels in marker["files"].items():
            if table not in SHARD_TABLES or not rels:
                continue
            files[table].extend(str(gen_dir / rel) for rel in rels)
            known = columns[table]
            if known is not None and table in declared:
                known.add(tuple(declared[table]))
            else:
                columns[table] = None
    duplicates = layout.duplicates_path(generation)
    files["duplicates"] = [str(duplicates)] if duplicates.exists() else []
    files["ingest_runs"] = [str(p) for p in layout.runs_dir.glob("run-*.parquet")]
    for table in DERIVED_TABLES:
        derived = layout.derived_path(generation, table)
        files[table] = [str(derived)] if derived.exists() else []
    return _Snapshot({table: sorted(found) for table, found in files.items()}, columns,
                     any(is_group(m) for m in visible.values()))


def store_files(store_dir: str | os.PathLike[str]) -> dict[str, list[str]]:
    """The Parquet files readers may use, per table, all from the same set of completed shards."""
    return _snapshot(store_dir).files


def table_files(store_dir: str | os.PathLike[str], table: str) -> list[str]:
    """The Parquet files of one table that readers may use (completed shards of the current generation).

    For reading the store with other tools, e.g.
    ``pl.scan_parquet(table_files(store, "deals"), hive_partitioning=True)``
    (mind that only the DuckDB views hide ``duplicates``).
    """
    return store_files(store_dir)[table]


def _view_expression(table: str, column: str, stored: set[str]) -> str | None:
    """The SQL a view computes ``column`` of ``table`` by from the file's columns ``stored`` (None: read as
    stored, or null where no file has it)."""
    packed = PACKED_COLUMNS.get(table, {}).get(column)
    if packed is not None and packed[0] in stored:  # a generation written before holds the column itself
        return f"{packed[1]}({packed[0]})"
    return COMPUTED_COLUMNS.get(table, {}).get(column)


_KEYED_BY_LINE = {"source_pos": ("source_line", "source_line << 32")}
"""A generation written before ``source_pos`` (engine version 4 and older; ``ingest --rescore`` rewrites it) keys
its copies by line: its views read that key as the place of a line's first record (``ingest.rows.source_pos``)."""


def _view_column(table: str, column: tuple[str, str], present: set[str]) -> str:
    """A view's column: as stored, computed from the stored ones (``_view_expression``), or NULL
    where no file has it."""
    name, duck_type = _ident(column[0]), column[1]
    expression = _view_expression(table, column[0], present)
    older = _KEYED_BY_LINE.get(column[0])
    if older is not None and column[0] not in present and older[0] in present:
        expression = older[1]
    if expression is not None and present:
        return f"CAST({expression} AS {duck_type}) AS {name}"
    return name if column[0] in present else f"CAST(NULL AS {duck_type}) AS {name}"


def _view_body(con: duckdb.DuckDBPyConnection, table: str, files: list[str],
               declared: set[tuple[str, ...]] | None) -> str:
    """The view: the table's columns in schema order from its files (NULL where no file has one).

    Which columns the files have comes from the shard markers when they
    say; else DuckDB reads it from the files.
    """
    hive = table in DEAL_TABLES or table in ANALYSIS_TABLES
    if not files:
        source = None
        present: set[str] = set()
    elif declared is not None:
        source = parquet_source(files, hive, union=len(declared) > 1)
        present = {name for names in declared for name in names} | (set(PARTITION_TYPES) if hive else set())
    else:
        source = parquet_source(files, hive)
        present = {row[0] for row in con.sql(f"DESCRIBE SELECT * FROM {source}").fetchall()}
    columns = ", ".join(_view_column(table, f, present) for f in TABLES[table])
    return f"SELECT {columns} FROM {source}" if source is not None else f"SELECT {columns} WHERE false"


def _unpack_records(packed: Any) -> Any:
    """``ingest.packed_record.unpack``, imported at the first call: a query that reads no record (``tarock sql``'s
    count) loads neither it nor numpy and pyarrow."""
    from ingest.packed_record import unpack
    return unpack(packed)


_UNPACK_UDF = f"_{UNPACK_RECORD}_udf"
"""The Python function the macro ``tarock_record`` calls once it is registered (``_register_functions``)."""
_NOT_REGISTERED = f"{UNPACK_RECORD}: not registered on this connection yet"
"""The error the stand-in macro raises for the first row it is asked to unpack (``_define_functions``)."""


def _define_functions(con: duckdb.DuckDBPyConnection, *, register: bool) -> None:
    """The SQL functions the views call (``ingest.schema.PACKED_COLUMNS``) on ``con``: ``tarock_record`` is a macro
    that calls the Python function ``ingest.packed_record.unpack`` (``register``) or, until then, a stand-in
    that fails for the first row it is given.

    DuckDB binds a view's columns when it is made, so the views need the name; but registering a Python function
    loads numpy (about 60 ms, a sixth of a ``tarock sql`` count's whole process), which a query reading no
    record never needs.  A view is bound again at every query, so replacing the macro later (``_register_functions``)
    reaches the views already made.
    """
    if register:
        _register_functions(con)
        return
    con.execute(f"CREATE OR REPLACE MACRO {UNPACK_RECORD}(packed) AS "
                f"CASE WHEN packed IS NULL THEN NULL ELSE error({_literal(_NOT_REGISTERED)}) END")


def _register_functions(con: duckdb.DuckDBPyConnection) -> None:
    """Register ``ingest.packed_record.unpack`` on ``con`` and point the macro ``tarock_record`` at it.

    Asking for the function first (``duckdb_functions()``) took 0.2 s; a second registration is refused at once.
    """
    try:
        con.create_function(_UNPACK_UDF, _unpack_records, ["blob"], "varchar", type=PythonUDFType.ARROW,
                            side_effects=False)
    except duckdb.NotImplementedException:  # "already created": the connection has views of another generation
        pass
    con.execute(f"CREATE OR REPLACE MACRO {UNPACK_RECORD}(packed) AS {_UNPACK_UDF}(packed)")


def _needs_functions(error: duckdb.Error) -> bool:
    """Whether ``error`` is the stand-in macro's: the query unpacks records on a connection opened without
    registering (``open_store(register_functions=False)``)."""
    return _NOT_REGISTERED in str(error)


def _create_views(con: duckdb.DuckDBPyConnection, store_dir: str | os.PathLike[str], generation: str | None = None,
                  schema: str | None = None, *, register_functions: bool = True) -> None:
    """A view per table over ``generation``'s completed shards (default: the current generation), named by the
    table, in ``schema`` when given."""
    snapshot = _snapshot(store_dir, generation)
    _define_functions(con, register=register_functions)
    dup_files = snapshot.files["duplicates"]
    has_duplicates = bool(dup_files) and con.sql(
        f"SELECT num_rows FROM parquet_file_metadata({_literal(dup_files[0])})").fetchall() != [(0,)]
    prefix = "" if schema is None else f"{_ident(schema)}."
    stored = _ident(stored_schema(schema))
    for name in (schema, stored_schema(schema)):
        if name is not None:
            con.execute(f"CREATE SCHEMA IF NOT EXISTS {_ident(name)}")
    key = (*_DEDUP_KEY, "source_file") if snapshot.grouped else _DEDUP_KEY
    on = " AND ".join(f"t.{c} = d.{c}" for c in key)
    # the per-deal views refer to duplicates, the child views to deals
    for table in sorted(TABLES, key=lambda t: (t != "duplicates", t != "deals")):
        declared = snapshot.columns.get(table)
        body = _view_body(con, table, snapshot.files[table], declared)
        deduplicated = body if not has_duplicates else (
            f"SELECT t.* FROM ({body}) t ANTI JOIN {prefix}duplicates d ON {on}")
        if table in DEAL_TABLES and table != "deals":
            hidden = ", ".join(_ident(c) for c in DEAL_ONLY_KEY)
            con.execute(f"CREATE OR REPLACE VIEW {stored}.{_ident(table)} AS "
                        f"SELECT * EXCLUDE ({hidden}) FROM ({deduplicated})")
            if not _hold_deal_key(declared):  # from the kept deal: an inner join, so a hidden copy's rows drop out
                taken = ", ".join(f"d.{_ident(c)} AS {_ident(c)}" for c in DEAL_ONLY_KEY)
                deduplicated = f"SELECT t.* REPLACE ({taken}) FROM ({body}) t JOIN {prefix}deals d ON {on}"
        con.execute(f"CREATE OR REPLACE VIEW {prefix}{_ident(table)} AS "
                    f"{deduplicated if table in DEAL_TABLES else body}")


def _hold_deal_key(declared: set[tuple[str, ...]] | None) -> bool:
    """Whether every file of a child table holds ``DEAL_ONLY_KEY`` itself (a generation written before they were
    left to ``deals``), so its view reads them and needs no join (unknown: no)."""
    return declared is not None and bool(declared) and all(set(DEAL_ONLY_KEY) <= set(names) for names in declared)


def open_store(store_dir: str | os.PathLike[str], *, register_functions: bool = True) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with a view per store table (see the module docstring).

    A store directory that does not exist yet reads as empty tables.  Without ``register_functions`` a query
    that reads a ``record`` fails (``_needs_functions``) until ``_register_functions`` is called: for a
    one-shot query that most likely reads none (``sql_rows``).
    """
    con = duckdb.connect()
    con.execute("SET parquet_metadata_cache = true")  # store files never change once published
    _create_views(con, store_dir, register_functions=register_functions)
    return con


def attach_generation(con: duckdb.DuckDBPyConnection, store_dir: str | os.PathLike[str], generation: str,
                      schema: str) -> None:
    """Add views over another generation of the store (a what-if's, ``ingest.rescore_beside``) to ``con``, in
    ``schema``: ``schema.deals``, ``schema.results`` … with the columns and deduplication of the main views."""
    _create_views(con, store_dir, generation, schema)


def sql(store_dir: str | os.PathLike[str], query: str, params: Sequence[Any] | None = None) -> Any:
    """Run one query over the store's views and return a polars DataFrame.

    Values go in ``params`` (``$1`` / ``?`` placeholders), never into the
    query text.
    """
    con = open_store(store_dir)
    try:
        return con.sql(query, params=list(params) if params is not None else None).pl()
    finally:
        con.close()


def sql_rows(store_dir: str | os.PathLike[str], query: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run one query over the store's views: its column names and rows as Python values (no polars).

    The record's SQL function is registered only when the query turns out to read a record (it then runs again),
    so the usual count or aggregate loads no numpy.
    """
    con = open_store(store_dir, register_functions=False)
    try:
        try:
            result = con.sql(query)
            rows = [] if result is None else result.fetchall()
        except duckdb.Error as error:
            if not _needs_functions(error):
                raise
            _register_functions(con)
            result = con.sql(query)
            rows = [] if result is None else result.fetchall()
        if result is None:  # a statement that returns nothing
            return [], []
        return list(result.columns), rows
    finally:
        con.close()


def export_duckdb(store_dir: str | os.PathLike[str], file: str | os.PathLike[str]) -> dict[str, int]:
    """Write the store's tables, deduplicated and materialised, into a DuckDB database file.

    The database is built under a temp name beside ``file`` and renamed
    over it only when complete.  Returns the rows written per table.
    """
    target = Path(file)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    con = open_store(store_dir)
    counts = {}
    try:
        con.execute(f"ATTACH {_literal(str(tmp))} AS export")
        for table in TABLES:
            con.execute(f"CREATE TABLE export.{_ident(table)} AS SELECT * FROM {_ident(table)}")
            counts[table] = con.sql(f"SELECT count(*) FROM export.{_ident(table)}").fetchall()[0][0]
        con.execute(f"CREATE SCHEMA export.{STORED}")
        hidden = ", ".join(_ident(c) for c in DEAL_ONLY_KEY)
        for table in (t for t in DEAL_TABLES if t != "deals"):
            # the analysis queries' key-only views, over the tables just written (DuckDB stores the view
            # without the ``export`` catalog: it reads the file's own table when the file is opened)
            con.execute(f"CREATE VIEW export.{STORED}.{_ident(table)} AS "
                        f"SELECT * EXCLUDE ({hidden}) FROM export.main.{_ident(table)}")
        con.execute("DETACH export")
        os.replace(tmp, target)
    finally:
        con.close()
        tmp.unlink(missing_ok=True)
        Path(f"{tmp}.wal").unlink(missing_ok=True)
    return counts
