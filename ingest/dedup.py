"""The dedup step: find the deals stored more than once and list the extra copies in ``duplicates``.

A deal (same ``content_hash``: same canonical record) found in two files,
or twice in one, is stored once per copy — every input line ends in
``deals`` or ``rejects`` — and the copies after the first by
(``source_file``, ``source_pos``, ``shard``) are listed in the
``duplicates`` table, which the store's views anti-join away.  Run by the
coordinator after the shards of a run are complete; it recomputes the
whole list each time (a few hundred ms per million deals), so it is always
consistent with the completed shards, whatever was retired or re-run.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa

from ingest.layout import StoreLayout, visible_shards
from ingest.schema import DUPLICATES
from ingest.store import parquet_source
from ingest.writer import write_table_atomic

_QUERY = """
WITH d AS (SELECT content_hash, source_file, source_line, source_pos, shard FROM {source}),
multi AS (SELECT content_hash FROM d GROUP BY content_hash HAVING count(*) > 1),
ranked AS (
    SELECT d.*, row_number() OVER (PARTITION BY d.content_hash ORDER BY source_file, source_pos, shard) AS rn
    FROM d SEMI JOIN multi USING (content_hash)
)
SELECT c.content_hash, c.source_file, c.source_line, c.source_pos, c.shard,
       k.source_file AS kept_file, k.source_line AS kept_line, k.shard AS kept_shard
FROM ranked c JOIN ranked k ON c.content_hash = k.content_hash AND k.rn = 1
WHERE c.rn > 1
ORDER BY c.content_hash, c.source_file, c.source_pos, c.shard
"""


def find_duplicates(deal_files: list[str]) -> pa.Table:
    """The extra copies among the deals in ``deal_files`` (schema ``DUPLICATES``)."""
    if not deal_files:
        return DUPLICATES.empty_table()
    con = duckdb.connect()
    try:
        found = con.sql(_QUERY.format(source=parquet_source(deal_files, hive=False))).to_arrow_table()
    finally:
        con.close()
    return found.cast(DUPLICATES)


def write_duplicates(layout: StoreLayout, generation: str) -> pa.Table:
    """Recompute and publish the ``duplicates`` table of a generation (over the shards readers see:
    ``ingest.layout.visible_shards``); returns it."""
    gen_dir = layout.generation_dir(generation)
    files = sorted(str(gen_dir / rel) for marker in visible_shards(layout.completed_shards(generation)).values()
                   for rel in marker["files"].get("deals", ()))
    table = find_duplicates(files)
    write_table_atomic(layout.duplicates_path(generation), table)
    return table
