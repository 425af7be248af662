"""The body of ``tarock report``: contract win rates (and, with ``audit``, the disputed scores), printed.

Typer-independent: the CLI parses its options into a ``Filters``, a ``by``
and a format, and calls ``report``.  Formats: ``table`` (rich tables, with
colour on a terminal), ``csv`` (the win rates; with ``audit`` a blank line
and the disputes follow), ``json`` (one object: ``{"win_rates": [...],
"disputes": [...]}``, rows as objects).  The deals without a declarer
(Klop, Trischaken) are not in the win rates; the table says how many.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from contextlib import nullcontext
from typing import TextIO

import orjson
import polars as pl
from rich.console import Console
from rich.table import Table
from rich.text import Text

from analysis.audit import disputes
from analysis.filters import NO_FILTERS, Filters
from analysis.store import Store
from analysis.win_rates import groupings, undeclared, win_rates
from ingest.csv_out import frame_csv
from tarock.safe_text import escape_controls

FORMATS = ("table", "csv", "json")
DISPUTE_COLUMNS = {"deal_id": "deal", "player": "player", "recorded_score": "recorded", "score": "recomputed",
                   "message": "why"}
"""The columns of the disputes table as printed (``table`` format), with their headings."""


def report(source: Store | str | os.PathLike[str], by: str | Sequence[str] = "contract",
           filters: Filters = NO_FILTERS, fmt: str = "table", audit: bool = False,
           stream: TextIO | None = None) -> None:
    """Print the win-rate report of a store directory or exported DuckDB file to ``stream`` (stdout).

    Raises ValueError for an unknown ``by`` or ``fmt`` (before touching the store).
    """
    names = groupings(by)
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    out = stream or sys.stdout
    owned = not isinstance(source, Store)
    store = Store.of(source)
    with store if owned else nullcontext(store):
        rates = win_rates(store, filters, names)
        disputed = disputes(store, filters) if audit else None
        if fmt == "csv":
            _write_csv(out, rates, disputed)
        elif fmt == "json":
            _write_json(out, rates, disputed)
        else:
            _print_tables(Console(file=out), names, rates, undeclared(store, filters), disputed)


def _write_csv(out: TextIO, rates: pl.DataFrame, disputed: pl.DataFrame | None) -> None:
    out.write(frame_csv(rates))
    if disputed is not None:
        out.write("\n" + frame_csv(disputed))


def _write_json(out: TextIO, rates: pl.DataFrame, disputed: pl.DataFrame | None) -> None:
    body: dict[str, object] = {"win_rates": rates.to_dicts()}
    if disputed is not None:
        body["disputes"] = disputed.to_dicts()
    out.write(orjson.dumps(body).decode() + "\n")


def _percent(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f} %"


def _cell(value: object) -> Text:
    """A value from the store for the terminal: control characters escaped, never read as rich markup."""
    return Text("" if value is None else escape_controls(str(value)))


def _print_tables(console: Console, names: tuple[str, ...], rates: pl.DataFrame, apart: pl.DataFrame,
                  disputed: pl.DataFrame | None) -> None:
    groups = [c for c in rates.columns if c not in ("deals", "wins", "win_rate", "ci_low", "ci_high")]
    table = Table(title=f"Win rates of declared contracts by {' × '.join(names)}")
    for column in groups:
        table.add_column(column.replace("_", " "))
    for column in ("deals", "wins", "win rate", "95 % interval"):
        table.add_column(column, justify="right")
    for row in rates.iter_rows(named=True):
        interval = f"{_percent(row['ci_low'])} – {_percent(row['ci_high'])}"
        table.add_row(*(_cell(row[c]) for c in groups), f"{row['deals']:,}",
                      f"{row['wins']:,}", _percent(row["win_rate"]), interval)
    if not apart.is_empty():
        table.caption = _cell("Not counted (no declarer): " + ", ".join(
            f"{row['contract']} {row['deals']:,}" for row in apart.iter_rows(named=True)))
    console.print(table)
    if disputed is None:
        return
    audit = Table(title=f"Disputed scores ({disputed.height:,})")
    for column, heading in DISPUTE_COLUMNS.items():
        numeric = column.endswith("score")
        audit.add_column(heading, justify="right" if numeric else "left", no_wrap=column != "message",
                         ratio=1 if column == "message" else None)
    for row in disputed.iter_rows(named=True):
        audit.add_row(*(_cell(row[c]) for c in DISPUTE_COLUMNS))
    console.print(audit)
