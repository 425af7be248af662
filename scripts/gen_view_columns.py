"""Write ``ingest/view_columns.py``: the store's tables as DuckDB reads them, from ``ingest/schema.py``.

    .venv/bin/python -m scripts.gen_view_columns

``ingest/schema.py`` is the one source of the columns, written with pyarrow; reading the store
(``tarock sql``, ``ingest.store``) needs only their names and DuckDB types, and importing pyarrow would
cost more than the query (issue 22, light commands).  ``tests/ingest/test_view_columns.py`` fails, naming
this command, when the generated module and the schema disagree.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
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
    pa.float32(): "FLOAT",
    pa.int8(): "TINYINT",
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


def _packed(items: list[str], indent: int) -> list[str]:
    """``items`` (Python literals) joined by commas into lines of at most 110 characters."""
    lines: list[str] = []
    line = ""
    for item in items:
        piece = f"{item},"
        if line and len(" " * indent + line + " " + piece) > 110:
            lines.append(" " * indent + line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    if line:
        lines.append(" " * indent + line)
    return lines


def render() -> str:
    """The module's text from the schema as it is now."""
    tables = ["TABLES: dict[str, tuple[tuple[str, str], ...]] = {"]
    for name, table in schema.TABLES.items():
        pairs = [repr((f.name, DUCK_TYPES[f.type])) for f in table]
        tables += [f"    {name!r}: (", *_packed(pairs, 8), "    ),"]
    tables += ["}", '"""``ingest.schema.TABLES``: every table a store exposes, its (column, DuckDB type) '
               'pairs in order."""']
    partition = {k: DUCK_TYPES[t] for k, t in schema.PARTITION_TYPES.items()}
    packed = {table: {column: (field.name, function) for column, (field, function) in columns.items()}
              for table, columns in schema.PACKED_COLUMNS.items()}

    def names(name: str, values: Iterable[str], doc: str) -> list[str]:
        return [f"{name}: tuple[str, ...] = (", *_packed([repr(v) for v in values], 4), ")", f'"""{doc}"""']

    parts = [
        [f"PARTITION_TYPES: dict[str, str] = {partition!r}",
         '"""``ingest.schema.PARTITION_TYPES``: the hive partition columns\' DuckDB types."""'],
        tables,
        names("SHARD_TABLES", schema.SHARD_TABLES, "``ingest.schema.SHARD_TABLES``' names, in order."),
        names("DEAL_TABLES", schema.DEAL_TABLES, "``ingest.schema.DEAL_TABLES``."),
        names("DEAL_ONLY_KEY", schema.DEAL_ONLY_KEY, "``ingest.schema.DEAL_ONLY_KEY``: the key columns only "
              "``deals`` stores."),
        names("DERIVED_TABLES", schema.DERIVED_TABLES, "``ingest.schema.DERIVED_TABLES``' names."),
        names("ANALYSIS_TABLES", schema.ANALYSIS_TABLES, "``ingest.schema.ANALYSIS_TABLES``' names."),
        [f"UNPACK_RECORD = {schema.UNPACK_RECORD!r}", '"""``ingest.schema.UNPACK_RECORD``."""'],
        [f"PACKED_COLUMNS: dict[str, dict[str, tuple[str, str]]] = {packed!r}",
         '"""``ingest.schema.PACKED_COLUMNS``: per table, each column\'s stored name and the SQL function giving it '
         'back."""'],
        ["COMPUTED_COLUMNS: dict[str, dict[str, str]] = {",
         *[line for table, columns in schema.COMPUTED_COLUMNS.items()
           for line in [f"    {table!r}: {{", *[f"        {c!r}: {sql!r}," for c, sql in columns.items()], "    },"]],
         "}", '"""``ingest.schema.COMPUTED_COLUMNS``: per table, the SQL a view computes a column by."""'],
    ]
    return HEADER + "\n\n".join("\n".join(part) for part in parts) + "\n"


def main() -> None:
    TARGET.write_text(render())
    print(f"wrote {TARGET}", file=sys.stderr)


if __name__ == "__main__":
    main()
