"""The ``tarock`` command line: the one entry module that may reach every layer.

Commands import what they need inside their bodies, so ``tarock check``
starts without loading the store's libraries.  The annotations are evaluated as the module is defined (no
``from __future__ import annotations``): typer reads every command's signature as any command starts, and from
strings it evaluates each annotation twice (``inspect.signature`` and ``get_type_hints``), which cost a quarter
of building the command tree.
"""

import os
import sys
from datetime import date
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import orjson
import typer

from tarock.cards import card_text, cards_text
from tarock.cli_params import light_runtime_param
from tarock.findings import readable
from tarock.options import OptionError, check_overrides
from tarock.safe_text import escape_controls
from tarock.words import plural

_TYPE_NAMES = {"str": "TEXT", "int": "INTEGER", "float": "FLOAT", "Path": "PATH", "bool": "BOOLEAN"}


def _plain_metavar(self: Any, ctx: Any) -> str | None:
    """How a parameter's value shows in ``--help``, as click shows it: nothing for a flag (``--audit``,
    not ``--audit <bool>``), ``[a|b|c]`` for a choice, else its metavar or its type's name (``TEXT``,
    ``PATH``; a repeatable option shows its element's)."""
    if getattr(self, "is_flag", False) or getattr(self, "count", False):
        return None
    if self.metavar is not None:
        return str(self.metavar)
    label = self.display_type(ctx).strip("<>")
    while label.startswith("list[") and label.endswith("]"):
        label = label[5:-1]
    if "|" in label:
        return f"[{label}]"
    return _TYPE_NAMES.get(label, label.upper())


def _usage_name(self: Any) -> str:
    """An argument in the usage line as click writes it: ``FILES...``, ``[PATHS]...``."""
    name = (self.metavar or self.name or "").upper()
    name = name if self.required else f"[{name}]"
    return name + ("..." if self.nargs != 1 else "")


# The installed typer prints every parameter's Python type in the help (``--audit <bool>``,
# ``<list[str]>``, ``{files}``); the command line reads like a normal one, with click's metavars
# (tests/test_cli_help.py).
typer.core.TyperOption.display_type_rich = _plain_metavar  # type: ignore[method-assign]
typer.core.TyperArgument.display_type_rich = _plain_metavar  # type: ignore[method-assign]
typer.core.TyperArgument._usage_display_name = _usage_name  # type: ignore[method-assign]
# typer builds a pydantic adapter for every parameter of the command run, about 0.1 s of CPU as a command
# starts; plain values are coerced without it, the same way (tarock/cli_params.py).
typer.core.build_runtime_param = light_runtime_param

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Replay recorded tarock deals, find every rule violation, recompute and audit the scores.",
)


def _print_version(value: bool) -> None:
    if value:
        from tarock import __version__

        typer.echo(f"tarock {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Replay recorded tarock deals, find every rule violation, recompute and audit the scores."""


class Format(str, Enum):
    text = "text"
    json = "json"


def parse_overrides(pairs: list[str] | None, penalty: str | None = None, rules: str | None = None) -> dict[str, Any]:
    """``KEY=VALUE`` pairs (and ``--penalty``) from the command line, each validated as an option of some ruleset;
    with ``--rules TABLE``, the table's options (scoped to its ruleset) with the pairs on top."""
    out: dict[str, Any] = _rules_overrides(rules) if rules is not None else {}
    if penalty is not None:
        pairs = [*(pairs or []), f"penalty={penalty}"]
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--ruleset-option")
        out[key.strip()] = value.strip()
    try:
        check_overrides(out)
    except OptionError as exc:
        raise typer.BadParameter(str(exc), param_hint="--ruleset-option") from None
    return out


def _existing(paths: list[Path]) -> list[Path]:
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        _error(f"no such file or directory: {', '.join(missing)}")
        raise typer.Exit(2)
    return paths


def _error(text: object) -> None:
    """``tarock: TEXT`` on stderr, its control characters escaped (a path or a message may quote a record)."""
    typer.echo(escape_controls(f"tarock: {text}", keep="\n"), err=True)


def _skip_notice(path: Path, why: str) -> None:
    """Say on stderr that a file found in a directory is not read, and why (``iter_record_files``)."""
    _error(f"skipped {path}: {why}")


def _dump(obj: Any) -> str:
    return orjson.dumps(obj).decode()


def _rules_overrides(spec: str) -> dict[str, Any]:
    """The overrides of the rules table ``spec`` (a preset, a ruleset's name or a .toml file); exit 2 if bad."""
    table = _rules_table(spec)
    return table.overrides


def _rules_table(spec: str) -> Any:
    from tarock.rules.tables import TableError, load_table

    try:
        return load_table(spec)
    except TableError as exc:
        _error(exc)
        raise typer.Exit(2) from None


RulesOption = Annotated[
    Optional[str],
    typer.Option("--rules", metavar="TABLE", help="Score under a rules table: a preset, a ruleset's defaults or a "
                                                  "house table .toml file (tarock rules list); -o goes on top."),
]
OptionOverrides = Annotated[
    Optional[list[str]],
    typer.Option("--ruleset-option", "-o", metavar="KEY=VALUE", help="Override a ruleset option, KEY=VALUE (repeatable)."),
]
PenaltyOption = Annotated[
    Optional[str],
    typer.Option("--penalty", metavar="POLICY", help="Penalty policy for renons: slovenian_renons, record_as_played, "
                                   "jass_trick_forfeit, austrian_renonce or annul (same as -o penalty=…)."),
]


@app.command()
def check(
    files: Annotated[list[Path], typer.Argument(help="Record files or directories (.json, .jsonl, .gz).")],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="text (linter lines) or json (one object per deal).")] = Format.text,
    ruleset_option: OptionOverrides = None,
    penalty: PenaltyOption = None,
    rules: RulesOption = None,
) -> None:
    """Replay every deal card by card and report every finding.

    Exit status: 0 when no finding is an error or a renons, 1 when one is, 2 for usage or I/O errors.
    """
    from tarock.check.fast import Lines, Written
    from tarock.check.result import DealCheck, encode_line
    from tarock.check.sessions import check_stream
    from tarock.formats.reader import iter_record_files

    overrides = parse_overrides(ruleset_option, penalty, rules)
    paths = iter_record_files(_existing(files), _skip_notice)
    counts = {"ok": 0, "renons": 0, "error": 0}
    n_findings = 0
    out = sys.stdout
    json_out = out.buffer if fmt is Format.json else None  # JSON lines go out as the encoder's bytes
    lines = bytearray()  # JSON lines, written out in blocks of about 64 KiB (the fast path writes its own here)
    duplicates = 0
    try:
        for summary in check_stream(paths, overrides, out=lines):
            if isinstance(summary, (Written, Lines)):  # ok deals with no finding, their JSON lines in ``lines``
                counts["ok"] += 1 if isinstance(summary, Written) else summary.deals
                if len(lines) >= 1 << 16:
                    if json_out is not None:
                        json_out.write(lines)
                    lines.clear()
                continue
            if json_out is not None:
                encode_line(summary, lines)
                if len(lines) >= 1 << 16:
                    json_out.write(lines)
                    lines.clear()
            if isinstance(summary, DealCheck) and summary.duplicate_of is not None:
                duplicates += 1  # reported once: counted and shown with its first copy
                if json_out is None:
                    out.write(escape_controls(f"{summary.file}:{summary.line} {summary.id}: duplicate of "
                                              f"{summary.duplicate_of}, not scored again") + "\n")
                continue
            counts[summary.status] = counts.get(summary.status, 0) + 1
            n_findings += len(summary.findings)
            if json_out is not None:
                continue
            for f in summary.findings:
                where = f" trick {f.trick}" if f.trick is not None else ""
                out.write(escape_controls(f"{f.file}:{f.line} {summary.id or '-'}{where}: {f.code} "
                                          f"{readable(f.code, f.message)}") + "\n")
    finally:  # what is checked is printed, whatever stops the loop
        if json_out is not None:
            json_out.write(lines)
    total = sum(counts.values())
    again = f"; {plural(duplicates, 'duplicate')} not counted again" if duplicates else ""
    line = (f"{plural(total, 'deal')}: {counts['ok']} ok, {counts['renons']} renons, {counts['error']} error; "
            f"{plural(n_findings, 'finding')}{again}")
    typer.echo(line, err=fmt is Format.json)
    code = 1 if counts["renons"] or counts["error"] else 0
    _END_AT_ONCE[0] = True
    raise typer.Exit(code)


class SheetFormat(str, Enum):
    text = "text"
    csv = "csv"
    json = "json"


@app.command()
def score(
    files: Annotated[list[Path], typer.Argument(help="Record files or directories (.json, .jsonl, .gz).")],
    fmt: Annotated[SheetFormat, typer.Option("--format", "-f", help="text (score sheets), csv or json.")] = SheetFormat.text,
    ruleset_option: OptionOverrides = None,
    penalty: PenaltyOption = None,
    rules: RulesOption = None,
    compare: Annotated[Optional[str], typer.Option(
        "--compare", metavar="TABLE,TABLE,...",
        help="What-if: each session's totals under each rules table side by side (presets, ruleset names or "
             ".toml files), and the deals that score differently.")] = None,
) -> None:
    """Print each session's score sheet: hands as rows, players as columns, totals and radelci.

    Recorded figures that differ from the recomputed ones are shown beside them; sheet-only hands
    (``tarock import sheet``) show their recorded figures, marked where the sheet audit disputes them.
    Exit status: 0 when every recorded figure agrees, 1 when one does not (or a deal is in error), 2 for usage errors.
    """
    from tarock.formats.reader import iter_record_files, read_many
    from tarock.check.sheet import build_sheets
    from tarock.check.sheet_render import render_csv, render_text

    if compare is not None:
        _compare(files, compare, fmt, ruleset_option, penalty, rules)
    overrides = parse_overrides(ruleset_option, penalty, rules)
    sheets, bad = build_sheets(read_many(iter_record_files(_existing(files), _skip_notice)), overrides)
    if fmt is SheetFormat.json:
        for sheet in sheets:
            sys.stdout.write(_dump(sheet.to_dict()) + "\n")
    elif fmt is SheetFormat.csv:
        sys.stdout.write(render_csv(sheets))
    else:
        render_text(sheets, bad)
        from tarock.check.other_tables import explaining_tables, explanation_lines

        paths = _existing(files)
        found = explaining_tables(lambda: read_many(iter_record_files(paths)), sheets)
        for line in explanation_lines(sheets, found):
            sys.stdout.write(escape_controls(line) + "\n")
    disputed = any(row.mismatches or row.disputed or row.status == "error" for sheet in sheets for row in sheet.rows)
    raise typer.Exit(1 if disputed or bad else 0)


def _compare(files: list[Path], spec: str, fmt: Any, ruleset_option: list[str] | None, penalty: str | None,
             rules: str | None) -> None:
    """``score --compare``: the tables side by side; exit 0, 1 when a record is unreadable (as plain ``score``),
    2 for a bad table."""
    from tarock.check import sheet_compare
    from tarock.check.sheet_render import render_unreadable
    from tarock.formats.reader import iter_record_files, read_many

    if ruleset_option or penalty or rules:
        _error("--compare takes its rules from the tables it names; not with -o, --penalty or --rules")
        raise typer.Exit(2)
    specs = [part.strip() for part in spec.split(",") if part.strip()]
    if len(specs) < 2:
        _error("--compare needs at least two rules tables, separated by commas")
        raise typer.Exit(2)
    tables = [_rules_table(part) for part in specs]
    paths = _existing(files)
    result, bad = sheet_compare.compare(lambda: read_many(iter_record_files(paths, _skip_notice)), tables)
    names = [table.name for table in tables]
    if fmt is SheetFormat.json:
        sys.stdout.write(sheet_compare.render_json(result, names))
    elif fmt is SheetFormat.csv:
        sys.stdout.write(sheet_compare.render_csv(result, names))
    else:
        sheet_compare.render_text(result, [table.label for table in tables])
        render_unreadable(bad)
    raise typer.Exit(1 if bad else 0)


@app.command()
def simulate(
    out: Annotated[Path, typer.Option("--out", help="Output file: .jsonl or .jsonl.gz (ground truth written beside it).")],
    players: Annotated[int, typer.Option("--players", help="3 or 4 players.")] = 4,
    sessions: Annotated[int, typer.Option("--sessions", help="Number of sessions.")] = 10,
    deals_per_session: Annotated[int, typer.Option("--deals-per-session", help="Deals per session.")] = 20,
    seed: Annotated[int, typer.Option("--seed", help="Seed: the same arguments give byte-identical output.")] = 1,
    mistakes: Annotated[float, typer.Option("--mistakes", help="Probability that a deal gets one injected mistake.")] = 0.0,
    workers: Annotated[int, typer.Option("--workers", help="Worker processes (output does not depend on it).")] = 1,
    ruleset: Annotated[str, typer.Option("--ruleset", metavar="[slovenian|koenigrufen]", help="slovenian (3 or 4 players) or koenigrufen (4).")] = "slovenian",
    ruleset_option: OptionOverrides = None,
) -> None:
    """Play whole sessions with heuristic players and write realistic records, mistakes injected at a rate."""
    from tarock.sim.simulate import truth_path, write_simulation

    overrides = parse_overrides(ruleset_option)
    try:
        stats = write_simulation(out, players, sessions, deals_per_session, seed, mistakes, workers, ruleset,
                                 overrides)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    typer.echo(f"wrote {stats.deals:,} deals in {stats.sessions:,} sessions to {out} "
               f"({stats.mistakes:,} mistakes, truth in {truth_path(out)}); "
               f"{stats.deals_per_second:,.0f} deals/s")


def _report_counts(counts: Any, out: Path) -> None:
    """Print what a conversion or import wrote and every input it had to leave out."""
    for notice in counts.notices:
        typer.echo(escape_controls(f"notice: {notice}"), err=True)
    for f in counts.findings:
        where = f"{f.file}:{f.line}" if f.file else "-"
        typer.echo(escape_controls(f"{where}: {f.code} {readable(f.code, f.message)}"), err=True)
    records = "record" if counts.written == 1 else "records"
    typer.echo(escape_controls(f"wrote {counts.written:,} {records} to {out}; {counts.rejected:,} rejected"))


@app.command()
def convert(
    src: Annotated[Path, typer.Argument(help="Input: .trk, .json, .jsonl (optionally .gz).")],
    dst: Annotated[Path, typer.Argument(help="Output; its format is taken from its name.")],
) -> None:
    """Convert records between the .trk text format, .json and .jsonl, losslessly."""
    from tarock.formats.writer import convert as run_convert

    _existing([src])
    try:
        counts = run_convert(src, dst)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    _report_counts(counts, dst)
    raise typer.Exit(1 if counts.rejected else 0)


import_app = typer.Typer(help="Import records kept elsewhere: OpenSpiel game logs, score-sheet CSV.",
                         no_args_is_help=True)
app.add_typer(import_app, name="import")


@import_app.command("openspiel")
def import_openspiel(
    src: Annotated[Path, typer.Argument(help='JSONL of {"players", "rng_seed", "actions"} lines.')],
    out: Annotated[Path, typer.Option("--out", "-o", help="Record file to write (.jsonl, .json, .trk, .gz).")],
) -> None:
    """Replay OpenSpiel tarok games (pyspiel) and write them as records with the openspiel preset."""
    from tarock.formats.openspiel import import_openspiel as run_import

    _existing([src])
    try:
        counts = run_import(src, out)
    except (ImportError, ValueError) as exc:
        _error(exc)
        raise typer.Exit(2) from None
    _report_counts(counts, out)
    raise typer.Exit(1 if counts.rejected else 0)


@import_app.command("sheet")
def import_sheet(
    src: Annotated[Path, typer.Argument(help="Score-sheet CSV: hand, contract, declarer, one column per player.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Record file to write (.jsonl, .json, .trk, .gz).")],
) -> None:
    """Read a score sheet as recorded scores without card play, and audit its arithmetic."""
    from tarock.formats.sheet_csv import import_sheet as run_import

    _existing([src])
    counts = run_import(src, out)
    _report_counts(counts, out)
    raise typer.Exit(1 if counts.findings else 0)


StoreOption = Annotated[
    Optional[Path],
    typer.Option("--store", metavar="DIR", help="Store directory (default: $TAROCK_STORE, else data/store)."),
]


rules_app = typer.Typer(help="Rules tables: each ruleset's defaults, the named presets, house tables (.toml).",
                        no_args_is_help=True)
app.add_typer(rules_app, name="rules")


def _rules_grid(ruleset: str, tables: list[Any]) -> Any:
    """One ruleset's options as rows, ``tables`` as columns headed by their ``label`` (bold: a value that is not
    the ruleset's default), and for one table the allowed values.  Names and values are never cut: their
    columns do not wrap or shrink; the allowed values wrap."""
    from rich import box
    from rich.table import Table

    from tarock.options import _SPECS
    from tarock.rules.tables import _allowed, _toml_text
    from tarock.safe_text import escape_controls

    spec = _SPECS[ruleset]
    default = spec.default.to_dict()
    rows = [(key, [t.options.to_dict()[key] for t in tables]) for key in spec.choices]
    title = tables[0].label if len(tables) == 1 and tables[0].label != ruleset else None
    out = Table(title=ruleset if title is None else f"{ruleset}: {escape_controls(title)}",
                box=box.SIMPLE_HEAD)
    out.add_column("option", no_wrap=True, min_width=max(len(key) for key, _ in rows))
    for i, t in enumerate(tables):
        out.add_column(escape_controls(t.label), no_wrap=True,
                       min_width=max(len(_toml_text(values[i])) for _, values in rows))
    if len(tables) == 1:
        out.add_column("allowed", overflow="fold", ratio=1)
    for key, values in rows:
        cells = [f"[bold]{_toml_text(v)}[/bold]" if v != default[key] else _toml_text(v) for v in values]
        out.add_row(key, *cells, *([escape_controls(_allowed(spec.choices[key]))] if len(tables) == 1 else []))
    return out


def _rules_rows(tables: list[Any]) -> None:
    """Each ruleset's tables side by side (``_rules_grid``) where the terminal is wide enough, else one after
    the other with their allowed values: at 80 columns the side-by-side grid cut every long value to "…"
    (issue 38)."""
    from rich.console import Console
    from rich.measure import Measurement

    from tarock.options import _SPECS

    UNBOUNDED = 10_000  # columns: the grid's natural width, not the console's
    console = Console(highlight=False)
    for ruleset in _SPECS:
        mine = [t for t in tables if t.ruleset == ruleset]
        if not mine:
            continue
        grid = _rules_grid(ruleset, mine)
        needed = Measurement.get(console, console.options.update(max_width=UNBOUNDED), grid).maximum
        if len(mine) == 1 or needed <= console.width:
            console.print(grid)
            continue
        for table in mine:
            console.print(_rules_grid(ruleset, [table]))


@rules_app.command("list")
def rules_list(
    fmt: Annotated[Format, typer.Option("--format", "-f", help="text (a table per ruleset) or json.")] = Format.text,
) -> None:
    """Every rules table (each ruleset's defaults and its presets) with every option's value."""
    from tarock.rules.tables import builtin_tables

    tables = builtin_tables()
    if fmt is Format.json:
        sys.stdout.write(_dump([t.to_dict() for t in tables]) + "\n")
    else:
        _rules_rows(tables)


@rules_app.command("show")
def rules_show(
    name: Annotated[str, typer.Argument(help="A preset, a ruleset's name (its defaults) or a house table .toml file.")],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="text (a table) or json.")] = Format.text,
) -> None:
    """One rules table's options and values (those that differ from the ruleset's defaults in bold).

    Exit status: 0, or 2 for an unknown table or a house table with a bad key or value.
    """
    table = _rules_table(name)
    if fmt is Format.json:
        sys.stdout.write(_dump(table.to_dict()) + "\n")
    else:
        _rules_rows([table])


@app.command()
def ingest(
    paths: Annotated[Optional[list[Path]], typer.Argument(
        help="Record files or directories (searched recursively); none with --rescore.")] = None,
    store: StoreOption = None,
    executor: Annotated[str, typer.Option("--executor", "-e", help="local, local:N, or tcp://HOST:PORT (Dask).")] = "local",
    rescore: Annotated[bool, typer.Option("--rescore", help="Rescore every stored deal under the current rules and options.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
    shard_size: Annotated[int, typer.Option("--shard-size", help="Records per shard of a large JSONL file.")] = 20_000,
    ruleset_option: OptionOverrides = None,
    penalty: PenaltyOption = None,
    rules: RulesOption = None,
) -> None:
    """Validate, score and store record files in the store: parallel, idempotent, nothing lost.

    With --rescore and no paths, only the stored deals are scored again (docs/store.md, Rescore).
    Exit status: 0 when read = stored + rejected and no shard failed, 1 otherwise, 2 for usage errors.
    """
    from ingest.commands import ingest as run_ingest
    from ingest.commands import existing_store, print_summary, resolve_store
    from ingest.coordinator import GenerationMismatch
    from ingest.executors import ExecutorUnavailable
    from ingest.layout import StoreBusy

    overrides = parse_overrides(ruleset_option, penalty, rules)
    if not paths and not rescore:
        typer.echo("tarock: give the record files or directories to ingest (or --rescore alone to score the "
                   "stored deals again)", err=True)
        raise typer.Exit(2)
    target = resolve_store(store)
    try:
        target = target if paths else existing_store(target)
        summary = run_ingest(_existing(paths or []), target, executor, rescore=rescore, quiet=quiet,
                             ruleset_options=overrides, shard_size=shard_size)
    except (GenerationMismatch, StoreBusy, ExecutorUnavailable, ValueError) as exc:
        _error(exc)
        raise typer.Exit(2) from None
    except OSError as exc:  # a read-only store, a file named as the store
        _error(_unwritable(target, exc))
        raise typer.Exit(2) from None
    print_summary(summary)
    _derive("ratings", lambda: _rate(target, quiet, incremental=True))
    _derive("totals", lambda: _sum_up(target))
    _END_AT_ONCE[0] = True
    raise typer.Exit(summary.exit_code)


def _unwritable(store: Path, exc: OSError) -> str:
    """The line that says the store ``store`` cannot be written, and why (``exc``: the failing call's)."""
    where = f" ({exc.filename})" if exc.filename else ""
    if isinstance(exc, (FileExistsError, NotADirectoryError)):  # mkdir's errors for a file on the way
        return f"cannot write the store {store}: a file stands where a directory is needed{where}"
    return f"cannot write the store {store}: {exc.strerror or exc}{where}"


def _derive(name: str, step: Any) -> None:
    """Run ``step``, which brings a derived table of the store up to date after an ingest.  The deals are stored
    by then, so a failure (another ingest took the store, polars cannot load, memory, the disk) is one line on
    stderr, ``NAME not updated: …``, and the exit status stays the ingest's: ``tarock ratings rebuild`` or the
    next ingest brings them up to date."""
    try:
        step()
    except Exception as exc:  # noqa: BLE001 (any failure of a derived step is reported, not a traceback)
        _error(f"{name} not updated: {exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}")


ratings_app = typer.Typer(help="Player ratings: each player's skill estimated from the deals, per ruleset and "
                          "table size.",
                          no_args_is_help=True)
app.add_typer(ratings_app, name="ratings")


def _rate(store: Path, quiet: bool = False, *, incremental: bool) -> None:
    """Bring the store's derived ``ratings`` table up to date (``incremental``: only the new deals) or rebuild
    it (docs/analysis.md, Ratings), and say so in one line."""
    from analysis.ratings import rebuild, update

    done = (update if incremental else rebuild)(store)
    if not quiet:
        again = f", {done.restarted} pool(s) rated again from the start" if done.restarted else ""
        typer.echo(f"ratings: {done.deals:,} deals rated, {done.rows:,} rows in {done.seconds:.1f}s{again}")


def _sum_up(store: Path) -> None:
    """Bring the store's derived ``player_totals`` and ``pair_totals`` up to date (the Players page's table and
    pairs: docs/store.md)."""
    from analysis.totals import update

    update(store)


@ratings_app.command("rebuild")
def ratings_rebuild(store: StoreOption = None) -> None:
    """Rate every stored deal again, in date/seq order, and replace the store's ratings table.

    Exit status: 0, or 2 when there is no store or an ingest holds it.
    """
    from ingest.commands import NoStore, existing_store, resolve_store
    from ingest.layout import StoreBusy

    target = resolve_store(store)
    try:
        _rate(existing_store(target), incremental=False)
    except (NoStore, StoreBusy) as exc:
        _error(exc)
        raise typer.Exit(2) from None
    except OSError as exc:  # a read-only store
        _error(_unwritable(target, exc))
        raise typer.Exit(2) from None


class VerifyFormat(str, Enum):
    text = "text"
    json = "json"


@app.command()
def verify(
    store: StoreOption = None,
    fmt: Annotated[VerifyFormat, typer.Option("--format", "-f")] = VerifyFormat.text,
) -> None:
    """Check the store's invariants (docs/store.md, "Invariants"): one line per violation, naming its deal.

    Exit status: 0 when every invariant holds (a stale derived table is said, not a violation), 1 on any
    violation, 2 when there is no store.
    """
    from analysis.verify import verify as run_verify
    from ingest.commands import NoStore, existing_store, resolve_store

    try:
        found = run_verify(existing_store(resolve_store(store)))
    except NoStore as exc:
        _error(exc)
        raise typer.Exit(2) from None
    if fmt is VerifyFormat.json:
        typer.echo(_dump(found.as_json()))
    else:
        for violation in found.violations:
            typer.echo(escape_controls(str(violation)))
        derived = ", ".join(f"{table} {state}" for table, state in found.derived.items())
        verdict = "every invariant holds" if found.ok else f"{len(found.violations):,} violations"
        typer.echo(f"{found.deals:,} deals: {verdict}; {derived}")
        if "stale" in found.derived.values():
            typer.echo("a stale table was computed before the last change: `tarock ratings rebuild` (ratings) or "
                       "the next ingest (totals) brings it up to date")
    raise typer.Exit(0 if found.ok else 1)


class FrameFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


@app.command("sql")
def sql_command(
    query: Annotated[str, typer.Argument(help="A SQL query over the store's views (deals, results, tricks, plays, findings, …).")],
    store: StoreOption = None,
    fmt: Annotated[FrameFormat, typer.Option("--format", "-f")] = FrameFormat.table,
) -> None:
    """Run a query over the store and print the result."""
    import duckdb

    from ingest.commands import NoStore, print_query, resolve_store

    try:
        print_query(resolve_store(store), query, fmt.value)
    except (duckdb.Error, NoStore) as exc:
        _error(exc)
        raise typer.Exit(2) from None


@app.command()
def export(
    duckdb_file: Annotated[Path, typer.Option("--duckdb", help="DuckDB database file to write.")],
    store: StoreOption = None,
) -> None:
    """Write the store as one DuckDB database file with the same tables."""
    from ingest.commands import export as run_export
    from ingest.commands import print_export, resolve_store

    try:
        counts = run_export(resolve_store(store), duckdb_file)
    except (OSError, ValueError) as exc:  # NoStore, a directory, a file that cannot be written
        _error(exc)
        raise typer.Exit(2) from None
    print_export(counts, duckdb_file)


class ReportPart(str, Enum):
    rates = "rates"
    disputes = "disputes"
    misplays = "misplays"


def _folded(text: str) -> str:
    """``text`` without case, accents, underscores or spaces: "Odprti berač" and "odprti_berac" alike."""
    import unicodedata

    bare = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return "".join(ch for ch in bare.casefold() if ch.isalnum())


def contract_name(text: str) -> str:
    """The stored contract name ``text`` means: a name (``solo_tri``) or the label the dashboard shows
    (``Solo tri``, ``Berač``), in any case, with or without accents.  An unknown one is a usage error
    (exit 2) that lists the valid labels, so a typo does not print an empty table."""
    from analysis.vocabulary import CONTRACT_LADDER
    from tarock.rules.rulesets import contract_label

    known = {_folded(name): name for name in CONTRACT_LADDER}
    known.update({_folded(contract_label(name)): name for name in CONTRACT_LADDER})
    found = known.get(_folded(text))
    if found is None:
        valid = ", ".join(contract_label(name) for name in CONTRACT_LADDER)
        raise typer.BadParameter(f"unknown contract {text!r}; one of: {valid}", param_hint="--contract")
    return found


@app.command()
def report(
    store: StoreOption = None,
    by: Annotated[Optional[list[str]], typer.Option("--by", metavar="[contract|declarer|seat|ruleset|month|player|hand-feature]", help="contract, declarer, seat, ruleset or month (repeatable); or player alone: ratings ± uncertainty beside results; or hand-feature, with --feature.")] = None,
    feature: Annotated[str, typer.Option("--feature", help="With --by hand-feature: a column of the hands table (taroks, kings, voids, …).")] = "taroks",
    min_deals: Annotated[int, typer.Option("--min-deals", help="With --by hand-feature: fewest deals for a rate.")] = 30,
    ruleset: Annotated[Optional[str], typer.Option("--ruleset", metavar="[slovenian|koenigrufen]", help="slovenian or koenigrufen.")] = None,
    players: Annotated[Optional[int], typer.Option("--players", metavar="[3|4]", help="3 or 4.")] = None,
    date_from: Annotated[Optional[str], typer.Option("--from", metavar="DATE", help="First date (YYYY-MM-DD).")] = None,
    date_to: Annotated[Optional[str], typer.Option("--to", metavar="DATE", help="Last date (YYYY-MM-DD).")] = None,
    player: Annotated[Optional[str], typer.Option("--player", metavar="NAME", help="Deals this player played.")] = None,
    contract: Annotated[Optional[str], typer.Option(
        "--contract", metavar="CONTRACT",
        help="One contract, by its name or the dashboard's label (Berač, solo_tri; any case or accents).")] = None,
    fmt: Annotated[FrameFormat, typer.Option("--format", "-f")] = FrameFormat.table,
    audit: Annotated[bool, typer.Option("--audit", help="Also list the disputed scores.")] = False,
    calendar: Annotated[Optional[str], typer.Option(
        "--calendar", metavar="PLAYER", help="Print this player's net score per day as a text calendar.")] = None,
    top: Annotated[Optional[int], typer.Option(
        "--top", metavar="N", min=0, help="With --audit: list the first N disputed scores and say how many more.")]
    = None,
    what: Annotated[Optional[ReportPart], typer.Option(
        "--what", help="Print only this part: the win rates, the disputes (with -f csv and --audit, "
                       "each CSV is one table: default disputes) or the misplays that decided a game (tarock "
                       "analyse --store finds them).")] = None,
) -> None:
    """Contract win rates with 95 % Wilson intervals from the store; with --audit, the disputes.

    Exit status: 0, or 2 for usage errors (an unknown contract lists the valid ones, an unknown --calendar
    player the near names, a --from or --to that is no date) or no store.
    """
    from analysis.filters import Filters
    from analysis.report import calendar_report, report as run_report
    from ingest.commands import NoStore, existing_store, resolve_store

    try:
        source = existing_store(resolve_store(store), exported=True)
    except NoStore as exc:
        _error(exc)
        raise typer.Exit(2) from None
    try:
        filters = Filters(ruleset, players, _date_option("--from", date_from), _date_option("--to", date_to), player,
                          None if contract is None else contract_name(contract))
        if calendar is not None:
            calendar_report(source, calendar, filters)
            return
        if what is ReportPart.disputes:
            audit = True
        elif what is None and audit and fmt is FrameFormat.csv:
            what = ReportPart.disputes  # one CSV table per output (docs: README, tarock report)
        if by == ["hand-feature"]:
            from analysis.hand_rates import report_hand_feature
            return report_hand_feature(source, feature, filters, fmt.value, min_deals)
        run_report(source, by=by or ["contract"], filters=filters, fmt=fmt.value, audit=audit,
                   parts=None if what is None else (what.value,), top=top)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def _date_option(name: str, text: str | None) -> date | None:
    """The date an option gives (None when not given); ``ValueError`` naming the option when it is no date."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{name}: {text} is not a date (YYYY-MM-DD)") from None


@app.command()
def advise(
    hand: Annotated[Optional[list[str]], typer.Argument(metavar="HAND", help="The dealt cards as codes (T21 HK S10 …).")] = None,
    players: Annotated[int, typer.Option("--players", metavar="[3|4]", help="3 or 4.")] = 4,
    ruleset: Annotated[str, typer.Option("--ruleset", metavar="[slovenian|koenigrufen]")] = "slovenian",
    deal: Annotated[Optional[str], typer.Option("--deal", metavar="ID", help="A stored deal's hand (with --player).")] = None,
    player: Annotated[Optional[str], typer.Option("--player", metavar="NAME", help="Whose hand in --deal.")] = None,
    refit: Annotated[bool, typer.Option("--refit", help="Fit the model from the store again first.")] = False,
    store: StoreOption = None,
    fmt: Annotated[FrameFormat, typer.Option("--format", "-f", help="table or json.")] = FrameFormat.table,
) -> None:
    """Per contract the hand may bid: its play-outs by the simulator beside the club's estimate (win probability,
    95 % interval, expected score); with --deal, what the player bid and how it went.

    The club's estimate is the model saved beside the store (fitted from it when none is saved) shrunk toward
    the play-outs where the store holds few hands like this one (docs/analysis.md).
    Exit status: 0, or 2 for a bad hand or options, or no store.
    """
    from analysis import advise as body
    from ingest.locate import NoStore, existing_store, resolve_store  # not ingest.commands: it loads the pipeline

    try:
        source = existing_store(resolve_store(store), exported=True)
        if deal is not None:
            if hand or player is None:
                raise ValueError("give either HAND or --deal ID --player NAME")
            cards, ruleset, players = body.hand_of_deal(source, deal, player)
            outcome = body.deal_outcome(source, deal, player)
        else:
            cards = body.parse_hand(hand or [], ruleset, players)
            outcome = None
        model = body.model_for(source, refit)
        body.print_advice(body.advice(source, model, cards, ruleset, players), model, cards, fmt.value,
                          outcome=outcome)
    except NoStore as exc:
        _error(exc)
        raise typer.Exit(2) from None
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


@app.command()
def show(
    deal_id: Annotated[str, typer.Argument(metavar="DEAL_ID", help="The id of a stored deal.")],
    store: StoreOption = None,
) -> None:
    """Print one stored deal: header, hands and talon, bidding, tricks, findings and the score breakdown.

    The terminal view of the dashboard's Replay page (the same replay model, cards named as drawn there).
    Exit status: 0, or 2 when there is no store or no deal with that id.
    """
    from rich.console import Console

    from analysis.deals import deal_detail
    from analysis.store import Store
    from ingest.commands import NoStore, existing_store, resolve_store

    try:
        source = existing_store(resolve_store(store), exported=True)
    except NoStore as exc:
        _error(exc)
        raise typer.Exit(2) from None
    with Store.of(source) as opened:
        detail = deal_detail(opened, deal_id)
    if detail is None or not detail.record:
        _error(f"the store has no deal with the id {deal_id!r}")
        raise typer.Exit(2)
    _render_deal(Console(highlight=False), detail)


def _render_deal(console: Any, detail: Any) -> None:
    """``tarock show``'s body: the Replay page's model (``dashboards/replay_model.py``) drawn as rich text.
    Everything from a record is ``Text`` with its control characters escaped, never rich markup."""
    import orjson
    from rich.table import Table
    from rich.text import Text

    from dashboards.labels import contract_label, deal_status
    from dashboards.replay_model import build_replay, phases
    from tarock.findings import Finding

    def shown(text: object, style: str = "") -> Text:
        return Text(escape_controls(cards_text(str(text))), style=style)

    deal = detail.deal
    options = orjson.loads(deal["options_json"]) if deal.get("options_json") else None
    audited = [Finding(r["code"], r["message"], player=r["player"])
               for r in detail.findings.filter(detail.findings["code"] == "A_SCORE_MISMATCH").iter_rows(named=True)]
    rp = build_replay(orjson.dumps(detail.record), options, audited)
    icon, status = deal_status(rp.status, (f.code for step in rp.steps for f in step.findings))
    who = f"declarer {rp.declarer}" if rp.declarer else "no declarer"
    partner = f", partner {rp.partner}" if rp.partner else ""
    console.print(shown(f"{contract_label(rp.contract)} — {who}{partner}", "bold"))
    facts = [f"{icon} {status}", f"{len(rp.players)} players", f"deal {rp.deal_id}"]
    if deal.get("session"):
        facts.append(f"session {deal['session']}" + ("" if deal.get("seq") is None else f" #{deal['seq']}"))
    if deal.get("date"):
        facts.append(str(deal["date"]))
    facts.append(f"from {deal.get('source_file')}:{deal.get('source_line')}")
    console.print(shown(" · ".join(facts), "dim"))

    first = rp.steps[0]
    hands = Table(title="Hands", title_justify="left")
    hands.add_column("Player")
    hands.add_column("Cards")
    for seat in first.seats:
        hands.add_row(shown(seat.name), shown(" ".join(card_text(c) for c in seat.cards)))
    if first.talon:
        hands.add_row("Talon", " ".join(card_text(c) for c in first.talon))
    console.print(hands)
    for step in rp.steps[1:len(phases(rp.contract))]:  # bidding to announcements; Klop lays nothing away
        console.print(Text(step.title, style="bold"))
        for line in step.lines:
            console.print(Text("  ").append(shown(line)))
    stored_points = dict(zip(detail.tricks["trick_no"], detail.tricks["points"])) if not detail.tricks.is_empty() \
        else {}
    tricks = Table(title="Tricks", title_justify="left")
    for column in ("#", "Cards (leader first)", "Winner", "Points"):
        tricks.add_column(column, justify="right" if column in ("#", "Points") else "left")
    for step in rp.steps:
        if step.trick_no is None:
            continue
        cards = Text(", ").join(shown(f"{p.player} {card_text(p.card)}" + (" ⚠" if p.faulty else ""),
                                      "red" if p.faulty else "") for p in step.trick)
        points = str(stored_points.get(step.trick_no, ""))
        tricks.add_row(str(step.trick_no), cards, shown(step.winner or ""), points)
    console.print(tricks)
    findings = [f for step in rp.steps for f in step.findings]
    console.print(Text(f"Findings ({len(findings)})", style="bold"))
    for f in findings:
        where = f"trick {f.trick}: " if f.trick is not None else ""
        console.print(Text("  ").append(shown(f"{where}{f.code} {f.message}",
                                              "red" if f.severity in ("renons", "error") else "yellow")))
    results = detail.results
    if results.is_empty() or results["score"].is_null().all():
        console.print("No recomputed score: the record has an error.")
        return
    scores = Table(title="Scores", title_justify="left")
    for column in ("Player", "Role", "Recomputed", "Recorded", "Recorded − recomputed"):
        scores.add_column(column, justify="left" if column in ("Player", "Role") else "right")
    for row in results.iter_rows(named=True):
        recorded = row["recorded_score"]
        scores.add_row(shown(row["player"]), shown(row["role"] or ""), f"{row['score']:+d}",
                       "" if recorded is None else f"{recorded:+d}",
                       "" if recorded is None or row["score_diff"] is None else f"{row['score_diff']:+d}")
    console.print(scores)
    breakdown = Table(title="Breakdown (each listed player writes the value)", title_justify="left")
    for column in ("Line", "Detail", "Players", "Value each"):
        breakdown.add_column(column, justify="right" if column == "Value each" else "left")
    lines: dict[tuple[str, str, tuple[str, ...], int], None] = {}
    for text in results["breakdown_json"].drop_nulls():
        for line in orjson.loads(text):
            lines[(line["component"], line["detail"], tuple(line["players"]), line["value"])] = None
    for component, detail_text, players, value in lines:
        breakdown.add_row(shown(component), shown(detail_text), shown(", ".join(players)), f"{value:+d}")
    console.print(breakdown)


@app.command()
def analyse(
    files: Annotated[Optional[list[Path]], typer.Argument(help="Record files or directories (none with --store).")]
    = None,
    from_trick: Annotated[int, typer.Option("--from-trick", "-k", help="Annotate every card from this trick on.")] = 1,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="text or json (one object per deal).")] = Format.text,
    store: Annotated[Optional[Path], typer.Option(
        "--store", metavar="DIR", help="Analyse the store's deals into its card_analysis table instead.")] = None,
    where: Annotated[Optional[str], typer.Option(
        "--where", help="With --store: one SQL expression over the deals view's columns narrowing the deals.")] = None,
    executor: Annotated[str, typer.Option(
        "--executor", "-e", help="With --store: local, local:N, or tcp://HOST:PORT (Dask).")] = "local",
    limit: Annotated[Optional[float], typer.Option(
        "--limit", metavar="SECONDS", help="CPU seconds per deal: its tricks are analysed from the last one back "
        "towards --from-trick until the limit, and the report says where it stopped.")] = None,
) -> None:
    """The card points each card lost against double-dummy best play, from trick K on (default: the whole deal),
    the better cards, and a summary per player; with --store, into the store's card_analysis table.

    Exit 0 when every deal was analysed, 1 when any could not be (a Königrufen deal, a Klop, a --limit that
    stopped before the last trick: each says why), 2 on usage errors."""
    from tarock.solver.analyse import analyse_command
    from tarock.formats.reader import iter_record_files

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from tarock.solver.analyse import summarise, text_lines

    if from_trick < 1:
        raise typer.BadParameter("--from-trick counts from 1")
    if limit is not None and not limit > 0:
        raise typer.BadParameter("--limit is a number of CPU seconds above 0")
    if store is not None:
        if files:
            raise typer.BadParameter("give record files or --store, not both")
        _analyse_store(store, where, executor, from_trick, limit)
        return
    if not files:
        raise typer.BadParameter("give record files or directories, or --store")
    done: list[dict[str, Any]] = []
    failed = total = 0
    err = Console(stderr=True)
    with Progress(SpinnerColumn(), TextColumn("analysing deal {task.fields[deal]}, card"), BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=err, transient=True,
                  disable=not err.is_terminal) as progress:
        task = progress.add_task("analyse", total=None, deal=1)

        def on_card(cards: int, total: int) -> None:
            progress.update(task, completed=cards, total=total)

        reports = analyse_command(iter_record_files(_existing(files), _skip_notice), from_trick, "json", on_card,
                                  limit)
        for report in reports:
            progress.update(task, completed=0, total=None, deal=progress.tasks[0].fields["deal"] + 1)
            total += 1
            failed += "error" in report
            if fmt is Format.json:
                sys.stdout.write(_dump(report) + "\n")
                continue
            done.append(report)
            for line in text_lines(report):
                sys.stdout.write(escape_controls(line, keep="\n") + "\n")
            sys.stdout.flush()
    if fmt is Format.text and total > failed:
        _print_analysis_summary(summarise(done), total - failed)
    if failed:
        _error(f"{failed} of {plural(total, 'deal')} could not be analysed (each says why above)"
               + ("; nothing to summarise" if failed == total else ""))
        raise typer.Exit(1)


def _analyse_store(store: Path, where: str | None, executor: str, from_trick: int, limit: float | None) -> None:
    """``tarock analyse --store``: the pending deals analysed into ``card_analysis`` (ingest/card_analysis.py)."""
    import duckdb
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ingest.card_analysis import analyse_store, coverage
    from ingest.commands import existing_store
    from ingest.executors import ExecutorUnavailable
    from ingest.layout import StoreBusy

    err = Console(stderr=True)
    try:
        store_dir = existing_store(store)
        with Progress(TextColumn("analysing deals"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err, transient=True, disable=not err.is_terminal) as progress:
            task = progress.add_task("deals", total=None)
            counts = analyse_store(store_dir, where, executor, from_trick, limit=limit,
                                   progress=lambda done, total: progress.update(task, completed=done, total=total))
    except (OSError, ValueError, ExecutorUnavailable, duckdb.Error, StoreBusy) as exc:  # BadFilter: a ValueError
        _error(exc)
        raise typer.Exit(2) from None
    partly = (f" ({counts['partial']} of them from a later trick than {from_trick}: the --limit stopped them)"
              if counts["partial"] else "")
    cover = coverage(store_dir)
    sys.stdout.write(
        f"analysed {plural(counts['deals'], 'deal')}: {plural(counts['cards'], 'card')} with their point losses from "
        f"trick {from_trick}{partly} into {escape_controls(str(store_dir / 'card_analysis'))}; "
        f"{plural(counts['judged'], 'deal')} judged card by card from trick 1 into "
        f"{escape_controls(str(store_dir / 'game_analysis'))}, {plural(counts['misplays'], 'card')} that decided "
        f"the game\n"
        f"coverage of the store's {plural(cover.cards, 'card')} played: {_share(cover.exact, cover.cards)} with an "
        f"exact point loss, {_share(cover.judged, cover.cards)} judged against the win condition\n")


def _share(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a percentage a reader takes in at once."""
    return f"{100 * part / whole:.1f} %" if whole else "0 %"


def _print_analysis_summary(players: dict[str, Any], deals: int) -> None:
    """``tarock analyse``'s closing table: per player, cards played, point losses and the biggest ones (with
    the cards that would have lost nothing)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Per player, over {deals} deal{'s' if deals != 1 else ''}")
    for column in ("player", "cards", "points lost", "per card", "games decided", "biggest losses"):
        table.add_column(column, justify="left" if column in ("player", "biggest losses") else "right")
    for name, s in players.items():
        biggest = "\n".join(escape_controls(f"{b.loss}: {card_text(b.card)} in trick {b.trick} of {b.deal}"
                                            + (f" (better: {', '.join(map(card_text, b.better))})" if b.better
                                               else ""))
                            for b in s.biggest)  # each line escaped: the newlines between them are the table's
        table.add_row(escape_controls(name), str(s.cards), str(s.points_lost), f"{s.mean_loss:.2f}",
                      str(s.games_given_away), biggest or "—")
    Console().print(table)


@app.command()
def dashboard(
    store: StoreOption = None,
    port: Annotated[int, typer.Option("--port", help="Port to serve on.")] = 8501,
    host: Annotated[str, typer.Option("--host", help="Address to bind (default 127.0.0.1: this machine only; "
                                                     "0.0.0.0: every interface).")] = "127.0.0.1",
    allow_uploads: Annotated[Optional[bool], typer.Option(
        "--allow-uploads/--read-only", help="Offer the Ingest page (uploads into the store), or not; "
                                            "default: only on 127.0.0.1.")] = None,
) -> None:
    """Start the Streamlit dashboard over the store on 127.0.0.1 (``--host``: elsewhere, read-only unless
    ``--allow-uploads``; put it behind a reverse proxy that asks for a password: docs/deployment.md)."""
    from dashboards import launch
    from dashboards.pages import uploads_allowed

    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"dashboard on http://{shown}:{port} (Ctrl+C stops it)", err=True)
    if not uploads_allowed(host, allow_uploads):
        typer.echo("read-only: no Ingest page (--allow-uploads offers it). The dashboard asks no password: "
                   "serve it to others behind a reverse proxy that does (docs/deployment.md)", err=True)
    raise typer.Exit(launch.run_dashboard(store, port, host=host, allow_uploads=allow_uploads))


_END_AT_ONCE = [False]
"""Set by a command that has finished everything it writes and holds nothing open (``tarock ingest``,
``tarock check``): ``main`` then ends the process without Python's teardown."""


def _flushed() -> bool:
    """Whether stdout and stderr could be flushed (not: a closed pipe, which the usual exit then reports)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return False
    return True


def main() -> None:
    """Console-script entry point.

    The interpreter's teardown frees every module and object one by one: after ``tarock ingest`` (pyarrow,
    polars, DuckDB and pandas, their thread pools) 0.2-0.7 s of the command's wall time, after ``tarock check``
    one key and one place per loose deal (``SessionScorer.loose``), about 7 % of a 30,000-record run's CPU when it
    kept each first copy's text (docs/performance.md).  When such a command has finished (its files closed and published, its workers
    joined, the store's lock let go) the process ends with its exit status once the output is flushed.
    Every other command, and the CLI called in-process (tests), exits as usual.
    """
    _END_AT_ONCE[0] = False
    try:
        app()
    except SystemExit as done:
        if _END_AT_ONCE[0] and (done.code is None or isinstance(done.code, int)) and _flushed():
            os._exit(done.code or 0)
        raise


if __name__ == "__main__":
    main()
