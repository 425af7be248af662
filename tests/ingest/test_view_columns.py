"""``ingest/view_columns.py`` (what the store's views are built from, without pyarrow) says what
``ingest/schema.py`` says: the generated module is rendered again from the schema and must be the file on disk,
byte for byte; its names and types are read back independently of the generator."""

from __future__ import annotations

import pyarrow as pa

from ingest import schema, view_columns
from scripts.gen_view_columns import TARGET, render


def test_generated_module_is_current() -> None:
    # after a change to ingest/schema.py: .venv/bin/python -m scripts.gen_view_columns
    stale = "ingest/view_columns.py is stale: run python -m scripts.gen_view_columns"
    assert TARGET.read_text() == render(), stale


def test_every_table_and_column_in_schema_order() -> None:
    # read independently of the generator: the names of every table and of its columns, in the schema's order
    assert list(view_columns.TABLES) == list(schema.TABLES)
    for name, table in schema.TABLES.items():
        assert [c for c, _ in view_columns.TABLES[name]] == table.names
    assert view_columns.SHARD_TABLES == tuple(schema.SHARD_TABLES)
    assert view_columns.DEAL_TABLES == schema.DEAL_TABLES
    assert view_columns.DERIVED_TABLES == tuple(schema.DERIVED_TABLES)
    assert view_columns.ANALYSIS_TABLES == tuple(schema.ANALYSIS_TABLES)


def test_duckdb_types_are_the_arrow_types() -> None:
    # each DuckDB type name read back as DuckDB's own Arrow type for it: a typed empty relation's arrow schema
    import duckdb

    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")  # a TIMESTAMPTZ comes back in the session's zone
    for name, table in schema.TABLES.items():
        cols = ", ".join(f'CAST(NULL AS {duck}) AS "{col}"' for col, duck in view_columns.TABLES[name])
        arrow = con.sql(f"SELECT {cols}").arrow().schema
        for field in table:
            got = arrow.field(field.name).type
            # DuckDB hands strings back as large or view strings; compare the logical kind
            assert _kind(got) == _kind(field.type), (name, field.name, got, field.type)


def _kind(t: pa.DataType) -> str:
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return "string"
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t):
        return f"list<{_kind(t.value_type)}>"
    if pa.types.is_timestamp(t):
        return f"timestamp[{t.unit}, {t.tz}]"
    return str(t)
