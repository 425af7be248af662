"""What the store holds from given source files: the answer an upload page shows after ingesting."""

from __future__ import annotations

import polars as pl

from analysis.sql import param, run
from analysis.store import Store

_FILE_DEALS = """
SELECT d.source_file, d.source_line, d.deal_id, d.status, f.code, f.trick, f.player, f.message
FROM deals d
LEFT JOIN stored.findings f ON f.shard = d.shard AND f.source_file = d.source_file AND f.source_pos = d.source_pos
WHERE list_contains({files}, d.source_file)
ORDER BY d.source_file, d.source_pos, f.idx
"""

_FILE_REJECTS = """
SELECT file, line, reason FROM rejects WHERE list_contains({files}, file) ORDER BY file, line
"""


def stored_from(store: Store, files: list[str]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(deals from ``files`` with their findings, rejected lines of ``files``), read fresh."""
    listed = param("u_files", list(files))
    return run(store, _FILE_DEALS, files=listed), run(store, _FILE_REJECTS, files=listed)
