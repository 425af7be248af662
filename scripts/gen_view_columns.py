"""Write ``ingest/view_columns.py``: the store's tables as DuckDB reads them, from ``ingest/schema.py``.

    .venv/bin/python -m scripts.gen_view_columns

``ingest/schema.py`` is the one source of the columns, written with pyarrow; reading the store
(``tarock sql``, ``ingest.store``) needs only their names and DuckDB types, and importing pyarrow would
cost more than the query (issue 22, light commands).  ``tests/ingest/test_view_columns.py`` fails, naming
this command, when the generated module and the schema disagree.
"""

from __future__ import annotations

import pprint
import sys
from pathlib import Path

import pyarrow as pa

from ingest import schema

TARGET = Path(__file__).resolve().parents[1] / "ingest" / "view_columns.py"

DUCK_TYPES = {
    pa.string(): "VARCHAR",
    pa.int32(): "INTEGER",
    pa.int64(): "BIGINT",
    pa.bool_(): "BOOLEAN",
    pa.float64(): "DOUBLE",
    pa.date32(): "DATE",
    pa.timestamp("us", tz="UTC"): "TIMESTAMPTZ",
    pa.list_(pa.string()): "VARCHAR[]",
}
"""The DuckDB type of every Arrow type the schema uses."""

HEADER = '''"""The store's tables as DuckDB reads them: names and DuckDB types, without pyarrow.

GENERATED from ingest/schema.py (the columns' one source) by ``python -m scripts.gen_view_columns``;
do not edit.  ``ingest.store`` builds its views from these, so reading the store (``tarock sql``) does not
import pyarrow; tests/ingest/test_view_columns.py checks they agree with the schema.
"""

from __future__ import annotations

'''


def render() -> str:
    """The module's text from the schema as it is now."""
    def columns(tables: dict[str, pa.Schema]) -> dict[str, tuple[tuple[str, str], ...]]:
        return {name: tuple((f.name, DUCK_TYPES[f.type]) for f in table) for name, table in tables.items()}

    def block(name: str, value: object, doc: str) -> str:
        kind = {"PARTITION_TYPES": "dict[str, str]", "TABLES": "dict[str, tuple[tuple[str, str], ...]]"}.get(
            name, "tuple[str, ...]")
        return f"{name}: {kind} = {pprint.pformat(value, width=110, sort_dicts=False)}\n\"\"\"{doc}\"\"\"\n"

    parts = [
        block("PARTITION_TYPES", {k: DUCK_TYPES[t] for k, t in schema.PARTITION_TYPES.items()},
              "``ingest.schema.PARTITION_TYPES``: the hive partition columns' DuckDB types."),
        block("TABLES", columns(schema.TABLES),
              "``ingest.schema.TABLES``: every table a store exposes, its (column, DuckDB type) pairs in order."),
        block("SHARD_TABLES", tuple(schema.SHARD_TABLES), "``ingest.schema.SHARD_TABLES``' names, in order."),
        block("DEAL_TABLES", tuple(schema.DEAL_TABLES), "``ingest.schema.DEAL_TABLES``."),
        block("DERIVED_TABLES", tuple(schema.DERIVED_TABLES), "``ingest.schema.DERIVED_TABLES``' names."),
        block("ANALYSIS_TABLES", tuple(schema.ANALYSIS_TABLES), "``ingest.schema.ANALYSIS_TABLES``' names."),
    ]
    return HEADER + "\n".join(parts)


def main() -> None:
    TARGET.write_text(render())
    print(f"wrote {TARGET}", file=sys.stderr)


if __name__ == "__main__":
    main()
