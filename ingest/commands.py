"""The ``tarock ingest`` / ``tarock sql`` / ``tarock export`` commands, as plain functions.

Typer-independent: they take paths, a store directory, an executor spec and
flags, and return results; the CLI parses arguments, calls them, prints
with the ``print_*`` functions and exits with ``IngestSummary.exit_code``.

Light to import: finding the store (``resolve_store``, ``existing_store``) and
``tarock sql``'s default table need DuckDB and rich only, so the pipeline,
polars and the rules engine load inside the functions that use them
(docs/performance.md, Light commands).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ingest.locate import NoStore, existing_store, resolve_store  # the commands' store lookup, imported from here
from ingest.store import export_duckdb, sql, sql_rows
from tarock.safe_text import escape_controls

if TYPE_CHECKING:
    from ingest.coordinator import IngestSummary
    from ingest.progress import ProgressCallback
    from tarock.formats.items import ReaderLimits


def ingest(paths: Iterable[str | os.PathLike[str]], store_dir: str | os.PathLike[str], executor: str = "local", *,
           rescore: bool = False, quiet: bool = False, progress: ProgressCallback | None = None,
           ruleset_options: Mapping[str, Any] | None = None, limits: ReaderLimits | None = None,
           shard_size: int | None = None) -> IngestSummary:
    """Ingest files or directories into the store.

    Progress goes to ``progress`` when given, else to stderr (a bar on a
    terminal, log lines otherwise), and nowhere when ``quiet``.

    Raises ``ingest.coordinator.GenerationMismatch`` when the store was
    scored under other options (and not ``rescore``),
    ``ingest.layout.StoreBusy`` when another ingest holds the store, and
    ValueError for an unknown executor spec.  ``shard_size``: records per shard (default
    ``ingest.shards.DEFAULT_SHARD_SIZE``).
    """
    from ingest.config import IngestOptions
    from ingest.coordinator import run_ingest
    from ingest.progress import default_progress
    from ingest.shards import DEFAULT_SHARD_SIZE

    options = IngestOptions.make(ruleset_options, limits)
    with default_progress(quiet=quiet or progress is not None) as reporter:
        return run_ingest(paths, store_dir, executor, options=options, rescore=rescore,
                          shard_size=DEFAULT_SHARD_SIZE if shard_size is None else shard_size,
                          progress=progress or reporter)


def _shown(text: object) -> Text:
    """A path or message for the terminal: control characters escaped, never read as rich markup."""
    return Text(escape_controls(str(text)))


def print_summary(summary: IngestSummary, console: Console | None = None) -> None:
    """The run in a few lines: counts, the ``read = stored + rejected`` check, failures, skipped files.

    Paths and messages are shown with their control characters escaped (a file name is anyone's).
    """
    console = console or Console(stderr=True)
    rate = f"{summary.deals_per_second:,.0f} deals/s" if summary.processed else "nothing new"
    console.print(Text.assemble(
        ("ingest", "bold"), f" {summary.files} files, {summary.shards} shards "
        f"({summary.shards_skipped} already done, {len(summary.failed)} failed) "
        f"in {summary.seconds:.2f}s ({rate}) into ", _shown(summary.store_dir), " ", (summary.generation, "dim")))
    if summary.balanced:
        check = "[green]ok[/]"
    elif summary.failed:
        check = f"[bold red]NOT ok: {len(summary.failed)} shard(s) failed, their items counted nowhere[/]"
    else:
        check = "[bold red]MISMATCH: input items lost[/]"
    console.print(f"  read {summary.read} = stored {summary.stored} + rejected {summary.rejected}  {check}")
    console.print(f"  deals: {summary.ok} ok, {summary.renons} renons, {summary.error} error; "
                  f"{summary.deduplicated} stored twice (shown once)")
    if summary.groups:
        console.print(f"  sessions across shards: {summary.sessions_rescored} rescored whole in "
                      f"{summary.groups} group shard{'s' if summary.groups != 1 else ''}")
    if summary.rescore:
        if summary.switched:
            state = "is now current"
        elif summary.failed:
            state = "[bold red]not switched: shards failed, run again[/]"
        else:
            state = "was already current: nothing to rescore"
        console.print(f"  rescore: {summary.generation} {state}")
    for shard, message in summary.failed:
        console.print(Text.assemble("  ", ("failed", "red"), " ", _shown(f"{shard}: {message}")), highlight=False)
    for path, why in summary.skipped:
        console.print(_shown(f"  skipped {path}: {why}"), highlight=False, soft_wrap=True)


def query(store_dir: str | os.PathLike[str], text: str, params: Sequence[Any] | None = None) -> Any:
    """``tarock sql``: one query over the store's views, as a polars DataFrame (``NoStore``: no store there)."""
    return sql(existing_store(store_dir), text, params)


def print_query(store_dir: str | os.PathLike[str], text: str, fmt: str = "table", stream: TextIO | None = None) -> None:
    """``tarock sql``: run one query over the store and print it as ``print_frame`` does; the table
    is printed from DuckDB's rows, without loading polars (``NoStore``: no store there)."""
    if fmt == "table":
        _print_table(*sql_rows(existing_store(store_dir), text), stream or sys.stdout)
    else:
        print_frame(query(store_dir, text), fmt, stream)


def _print_table(columns: Sequence[str], rows: Iterable[Sequence[Any]], stream: TextIO) -> None:
    """Every row in a rich table; text from records has its control characters escaped, never read as
    rich markup."""
    table = Table()
    for name in columns:
        table.add_column(_shown(name))
    for row in rows:
        table.add_row(*(_shown("" if v is None else v) for v in row))
    Console(file=stream).print(table)


def print_frame(frame: Any, fmt: str = "table", stream: TextIO | None = None) -> None:
    """Print a query result: ``table`` (every row, rich), ``csv`` (formula cells neutralised:
    ``ingest.csv_out``), or ``json`` (one object per line)."""
    stream = stream or sys.stdout
    if fmt == "csv":
        from ingest.csv_out import frame_csv

        stream.write(frame_csv(frame))
    elif fmt == "json":
        stream.write(frame.write_ndjson())
    elif fmt == "table":
        _print_table(frame.columns, frame.iter_rows(), stream)
    else:
        raise ValueError(f"unknown format {fmt!r}: use table, csv or json")


def export(store_dir: str | os.PathLike[str], file: str | os.PathLike[str]) -> dict[str, int]:
    """``tarock export``: the store as one DuckDB database file; rows per table.

    ``NoStore`` when there is no store; ValueError when ``file`` is a directory (the
    database replaces ``file`` by a rename, which a directory refuses) or lies inside the store's
    directory (symbolic links followed): written there it would replace the store's own files, such as
    ``CURRENT``, and break every command; ValueError, naming ``file``, when it cannot be written (its folder
    is a file, or a place such as ``/proc``).
    """
    source = existing_store(store_dir)
    if Path(file).is_dir():
        raise ValueError(f"{file} is a directory: give the name of the DuckDB file to write")
    root, target = source.resolve(), Path(file).resolve()
    if target == root or root in target.parents:
        raise ValueError(f"{file} is inside the store {source}: write the DuckDB file outside it")
    import duckdb

    try:
        return export_duckdb(source, file)
    except FileExistsError as exc:  # a folder on the way is a file (``export_duckdb`` makes the folders)
        raise ValueError(f"cannot write {file}: {exc.filename} is not a directory") from None
    except OSError as exc:
        raise ValueError(f"cannot write {file}: {exc.strerror or exc}") from None
    except duckdb.IOException as exc:
        raise ValueError(f"cannot write {file}: {exc}") from None


def print_export(counts: Mapping[str, int], file: str | os.PathLike[str], console: Console | None = None) -> None:
    """One line per exported table."""
    console = console or Console(stderr=True)
    console.print(Text.assemble(("export", "bold"), " ", _shown(file)))
    for table, rows in counts.items():
        console.print(f"  {table}: {rows} rows")
