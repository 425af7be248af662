"""The body of ``tarock report``: contract win rates (and, with ``audit``, the disputed scores), printed.

Typer-independent: the CLI parses its options into a ``Filters``, a ``by``
and a format, and calls ``report``.  Formats: ``table`` (rich tables, with
colour on a terminal; each dispute a line of figures and its explanation
indented below, so it reads at 80 columns), ``csv`` (one table: the win
rates, or with ``parts=("disputes",)`` the disputes; a CSV file holds one
table), ``json`` (one object: ``{"win_rates": [...], "disputes": [...]}``,
rows as objects).  The deals without a declarer (Klop, Trischaken) are not
in the win rates; the table says how many.  ``by="player"`` prints the
players' ratings and results instead (``analysis.player_report``), and
``calendar_report`` a player's text calendar.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TextIO

import orjson
import polars as pl
from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from analysis.audit import disputes
from analysis.filters import NO_FILTERS, Filters
from analysis.misplays import coverage as misplay_coverage
from analysis.misplays import misplays, per_player
from analysis.store import Store
from analysis.win_rates import groupings, undeclared, win_rates
from ingest.csv_out import frame_csv
from tarock.cards import cards_text
from tarock.rules.rulesets import contract_label, ruleset_label
from tarock.safe_text import escape_controls

FORMATS = ("table", "csv", "json")
PARTS = ("rates", "disputes", "misplays")
"""What a report can print: the win rates, the disputed scores, the misplays that decided a game."""


def report(source: Store | str | os.PathLike[str], by: str | Sequence[str] = "contract",
           filters: Filters = NO_FILTERS, fmt: str = "table", audit: bool = False,
           stream: TextIO | None = None, parts: Sequence[str] | None = None, top: int | None = None) -> None:
    """Print the win-rate report of a store directory or exported DuckDB file to ``stream`` (stdout).

    ``parts`` picks what is printed (``PARTS``); None means the win rates, and the disputes too with
    ``audit``.  ``by="player"`` alone prints the players' table (``parts`` and ``audit`` do not apply).  ``top``
    lists only that many disputes in the table format, and says how many more there are.  Raises ValueError for
    an unknown ``by``, ``fmt`` or part, or for a CSV of two tables (before touching the store).
    """
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    chosen = (by,) if isinstance(by, str) else tuple(by)
    if chosen == ("player",):
        from analysis.player_report import print_players  # here: it reads the ratings (pyarrow), the rest does not

        with _opened(source) as store:
            print_players(store, filters, fmt, stream or sys.stdout)
        return
    if "player" in chosen:
        raise ValueError("by player is a report of its own (ratings beside results): give it alone")
    names = groupings(by)
    shown = tuple(parts) if parts is not None else ("rates", "disputes") if audit else ("rates",)
    if not shown or any(part not in PARTS for part in shown):
        raise ValueError(f"parts must be some of {', '.join(PARTS)}, not {shown!r}")
    if fmt == "csv" and len(shown) > 1:
        raise ValueError("a CSV holds one table: print the win rates or the disputes (parts)")
    out = stream or sys.stdout
    with _opened(source) as store:
        rates = _rates(store, filters, names, fmt) if "rates" in shown else None
        disputed = disputes(store, filters) if "disputes" in shown else None
        decided = misplays(store, filters) if "misplays" in shown else None
        if fmt == "csv":
            table = next(t for t in (rates, disputed, decided) if t is not None)  # shown names one part (above)
            out.write(frame_csv(table))
        elif fmt == "json":
            _write_json(out, rates, disputed, decided)
        else:
            console = Console(file=out)
            if rates is not None:
                _print_rates(console, names, rates, undeclared(store, filters))
            if disputed is not None:
                _print_disputes(console, disputed, top)
            if decided is not None:
                _print_misplays(console, decided, per_player(store, filters), misplay_coverage(store, filters))


def _rates(store: Store, filters: Filters, names: tuple[str, ...], fmt: str) -> pl.DataFrame:
    """The win rates by ``names``; for a table also by ruleset and table size, whose columns are kept only when
    the rows are of more than one (a Tri at three and a Dva at four, or a Rufer, are not pooled unseen).  CSV
    and JSON keep the columns asked for."""
    if fmt != "table" or "ruleset" in names:
        return win_rates(store, filters, names)
    rates = win_rates(store, filters, ("ruleset", *names))
    if rates.select(pl.struct("ruleset", "n_players").n_unique()).item() > 1:
        return rates
    return rates.drop("ruleset", "n_players")


def _opened(source: Store | str | os.PathLike[str]) -> AbstractContextManager[Store]:
    """The store to read: a ``Store`` given is left open, one opened here is closed after."""
    return Store.of(source) if not isinstance(source, Store) else nullcontext(source)


def calendar_report(source: Store | str | os.PathLike[str], player: str, filters: Filters = NO_FILTERS,
                    stream: TextIO | None = None) -> None:
    """Print ``player``'s text calendar of net score per day (``tarock report --calendar PLAYER``)."""
    from analysis.player_report import print_calendar  # here, as in ``report``: the win rates need none of it

    with _opened(source) as store:
        print_calendar(store, player, filters, stream or sys.stdout)


def _write_json(out: TextIO, rates: pl.DataFrame | None, disputed: pl.DataFrame | None,
                decided: pl.DataFrame | None) -> None:
    body: dict[str, object] = {}
    if rates is not None:
        body["win_rates"] = rates.to_dicts()
    if disputed is not None:
        body["disputes"] = disputed.to_dicts()
    if decided is not None:
        body["misplays"] = decided.to_dicts()
    out.write(orjson.dumps(body).decode() + "\n")


def _percent(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f} %"


def _cell(value: object) -> Text:
    """A value from the store for the terminal: control characters escaped, never read as rich markup."""
    return Text("" if value is None else escape_controls(str(value)))


def _signed(value: object) -> str:
    """A score as the score sheet writes it; a figure not recorded is blank (no difference against it)."""
    return "not recorded" if value is None else f"{value:+d}" if isinstance(value, int) else str(value)


_LABELS = {"contract": contract_label}
"""How a table's cells of these columns are written for people (the dashboard's names; CSV and JSON keep ids)."""


def _print_rates(console: Console, names: tuple[str, ...], rates: pl.DataFrame, apart: pl.DataFrame) -> None:
    if "ruleset" in rates.columns:  # one narrow column: "Königrufen, 4"
        rates = rates.with_columns(pl.format("{}, {}", pl.col("ruleset").map_elements(
            ruleset_label, return_dtype=pl.String), "n_players").alias("ruleset")).drop("n_players")
    groups = [c for c in rates.columns if c not in ("deals", "wins", "win_rate", "ci_low", "ci_high")]
    table = Table(title=f"Win rates of declared contracts by {' × '.join(names)}")
    for column in groups:
        table.add_column("ruleset, players" if column == "ruleset" else column.replace("_", " "))
    for column in ("deals", "wins", "win rate", "95 % interval"):
        table.add_column(column, justify="right", no_wrap=column == "95 % interval")
    for row in rates.iter_rows(named=True):
        interval = f"{_percent(row['ci_low'])} – {_percent(row['ci_high'])}"
        table.add_row(*(_cell(_LABELS.get(c, str)(row[c]) if row[c] is not None else None) for c in groups),
                      f"{row['deals']:,}",
                      f"{row['wins']:,}", _percent(row["win_rate"]), interval)
    if not apart.is_empty():
        table.caption = _cell("Not counted (no declarer): " + ", ".join(
            f"{contract_label(row['contract'])} {row['deals']:,}" for row in apart.iter_rows(named=True)))
    console.print(table)


def _print_disputes(console: Console, disputed: pl.DataFrame, top: int | None = None) -> None:
    """Each disputed score as one line of figures (deal, player, recorded, recomputed) and its explanation
    indented below it: a table with the explanation as a column wraps it over 4-5 lines at 80 columns.  With
    ``top``, the first ``top`` and a line saying how many more (the demo cut the list after 4 of 53 without a
    word, issue 38)."""
    console.print(Text(f"Disputed scores ({disputed.height:,})", style="bold"))
    for row in disputed.head(disputed.height if top is None else top).iter_rows(named=True):
        head = Text("• ")
        head.append(_cell(row["deal_id"]))
        head.append("  ")
        player = _cell(row["player"])
        player.stylize("bold")
        head.append(player)
        head.append(f"  recorded {_signed(row['recorded_score'])}, recomputed {_signed(row['score'])}")
        console.print(head)
        console.print(Padding(_cell(cards_text(row["message"])), (0, 0, 0, 4)))
    if top is not None and disputed.height > top:
        more = disputed.height - top
        console.print(f"… and {more:,} more disputed score{'s' * (more != 1)} (tarock report --audit lists them "
                      "all; the Audit page of the dashboard too)", markup=False)



def _print_misplays(console: Console, decided: pl.DataFrame, players: pl.DataFrame,
                    covered: tuple[int, int]) -> None:
    """The misplays that decided a game: how many deals were judged, each player's count, then each misplay's deal
    (contract, won or lost) with its sentence indented below."""
    deals, judged = covered
    console.print(Text(f"Misplays that decided the game ({decided.height:,}; {judged:,} of {deals:,} deals judged "
                       "card by card from trick 1 by tarock analyse --store)", style="bold"))
    if players.is_empty():
        return
    table = Table(title="Per player")
    for column in ("player", "deals judged", "cards judged", "misplays", "per 100 deals"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for row in players.iter_rows(named=True):
        table.add_row(_cell(row["player"]), f"{row['deals']:,}", f"{row['cards']:,}", f"{row['misplays']:,}",
                      f"{row['per_100']:.1f}")
    console.print(table)
    for row in decided.iter_rows(named=True):
        where = f"{row['session']}, hand {row['seq']}" if row["session"] and row["seq"] is not None else row["deal_id"]
        head = Text("• ")
        head.append(_cell(where))
        head.append(f"  {contract_label(row['contract'])}, " + ("won" if row["won"] else "lost"))
        console.print(head)
        console.print(Padding(_cell(row["message"]), (0, 0, 0, 4)))
