"""CSV text of a polars frame, safe to open in a spreadsheet: every frame the project writes as CSV.

``tarock sql -f csv`` (``ingest.commands.print_frame``), ``tarock report -f csv``
(``analysis.report``) and the dashboard's "Download CSV" (``dashboards.widgets``) write their
frames here.  Text cells and column names follow ``tarock.safe_text.csv_cell`` (a ``'`` before a
text a spreadsheet could run as a formula); numeric columns are left to polars, so numbers are
written exactly as before.
"""

from __future__ import annotations

import csv
import io

import polars as pl

from tarock.safe_text import FORMULA_START, PLAIN_NUMBER, csv_cell

_TEXT = (pl.String, pl.Categorical, pl.Enum)


def neutralised(frame: pl.DataFrame) -> pl.DataFrame:
    """The frame with every text cell passed through ``csv_cell``'s rule (done by polars, column-wise)."""
    texts = [name for name, dtype in frame.schema.items() if isinstance(dtype, _TEXT) or dtype in _TEXT]
    if not texts:
        return frame
    exprs = []
    for name in texts:
        column = pl.col(name).cast(pl.String)
        risky = column.str.contains(FORMULA_START) & ~column.str.contains(PLAIN_NUMBER)
        exprs.append(pl.when(risky).then(pl.lit("'") + column).otherwise(column).alias(name))
    return frame.with_columns(exprs)


def frame_csv(frame: pl.DataFrame) -> str:
    """``frame`` as CSV text (a header line, then one line per row), formula injection neutralised."""
    if not frame.columns:
        return frame.write_csv()
    header = io.StringIO()
    csv.writer(header, lineterminator="\n").writerow([csv_cell(name) for name in frame.columns])
    return header.getvalue() + neutralised(frame).write_csv(include_header=False)
