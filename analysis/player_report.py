"""The players' parts of ``tarock report``: ``--by player`` (ratings beside the results) and ``--calendar``.

``player_table`` is one row per rating pool (ruleset, players at the
table) and player of it: the rating μ ± σ and its conservative value
μ − 3σ, the rated deals, and beside them the pool's results of
``analysis.players`` and share of strong dealt hands of ``analysis.luck``.
A player with no rated deal in a pool has empty rating columns there.  ``print_calendar`` draws a player's
days as a contributions calendar in the terminal: one block of 7 rows
(Monday first) × weeks per year, a green cell for a day in plus, red for a
day in minus (darker for a bigger net score), then the best and the worst
day.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from difflib import get_close_matches
from typing import TextIO

import orjson
import polars as pl
from rich.console import Console
from rich.table import Table
from rich.text import Text

from analysis.calendar import calendar
from analysis.filters import Filters, deal_where
from analysis.luck import luck
from analysis.filters import NO_FILTERS
from analysis.players import player_names, players
from analysis.ratings import current
from analysis.sql import run
from analysis.store import Store
from ingest.csv_out import frame_csv
from tarock.rules.rulesets import ruleset_label
from tarock.safe_text import escape_controls

COLUMNS = ("player", "ruleset", "n_players", "mu", "sigma", "ordinal", "games", "deals", "declared", "won",
           "win_rate", "score_per_deal", "strong_share")
"""The columns of ``--by player`` (CSV and JSON carry them as named)."""


def player_table(store: Store, filters: Filters) -> pl.DataFrame:
    """One row per rating pool and player of it (see the module docstring), best conservative rating first;
    every figure is the pool's own (a player's Königrufen deals are not in their Slovenian row)."""
    pools = run(store, _POOLS, where=deal_where(filters, "d"))
    frames = []
    for ruleset, n_players in pools.iter_rows():
        pool = replace(filters, ruleset=ruleset, players=n_players)
        results = players(store, pool).select("player", "deals", "declared", "won", "win_rate", "score_per_deal")
        rated = current(store, pool).select("player", "mu", "sigma", "ordinal", "games")
        strong = luck(store, pool).select("player", "strong_share")
        frames.append(results.join(rated, on="player", how="left").join(strong, on="player", how="left")
                      .with_columns(pl.lit(ruleset, pl.String).alias("ruleset"),
                                    pl.lit(n_players, pl.Int32).alias("n_players")).select(COLUMNS))
    if not frames:
        return pl.DataFrame(schema={c: pl.String for c in COLUMNS}).clear()
    return pl.concat(frames).sort(["ruleset", "n_players", "ordinal", "player"],
                                  descending=[False, False, True, False], nulls_last=True)


_POOLS = "SELECT DISTINCT d.ruleset, d.n_players FROM deals d WHERE {where} ORDER BY 1, 2"


def _cell(value: object) -> Text:
    return Text("" if value is None else escape_controls(str(value)))


def print_players(store: Store, filters: Filters, fmt: str, out: TextIO) -> None:
    """``--by player`` in a format of ``analysis.report.FORMATS``."""
    frame = player_table(store, filters)
    if fmt == "csv":
        out.write(frame_csv(frame))
        return
    if fmt == "json":
        out.write(orjson.dumps({"players": frame.to_dicts()}, default=str).decode() + "\n")
        return
    console = Console(file=out)
    for (ruleset, n_players), pool in frame.group_by(["ruleset", "n_players"], maintain_order=True):
        console.print(_pool_table(pool, f"{ruleset_label(str(ruleset))}, {n_players} players"))
    console.print(Text("rating: μ ± σ (a pool's mean is 25), ranked by μ − 3σ (tarock ratings rebuild; docs/analysis.md); "
                       "strong: share of strong dealt hands", style="dim"))


def _pool_table(pool: pl.DataFrame, title: str) -> Table:
    """One rating pool's players as a table that fits 80 columns."""
    table = Table(title=title)
    table.add_column("player")
    for name in ("μ ± σ", "μ − 3σ", "rated", "deals", "won/decl", "pts/deal", "strong"):
        table.add_column(name, justify="right")
    for row in pool.iter_rows(named=True):
        rated = row["mu"] is not None
        table.add_row(
            _cell(row["player"]), f"{row['mu']:.1f} ± {row['sigma']:.1f}" if rated else "",
            f"{row['ordinal']:.1f}" if rated else "", f"{row['games']:,}" if rated else "",
            f"{row['deals']:,}", f"{row['won']:,}/{row['declared']:,}",
            "" if row["score_per_deal"] is None else f"{row['score_per_deal']:.1f}",
            "" if row["strong_share"] is None else f"{100 * row['strong_share']:.0f} %")
    return table


_WEEKDAYS = ("Mon", "", "Wed", "", "Fri", "", "Sun")
_PLUS = ("#9be9a8", "#40c463", "#30a14e", "#216e39")
_MINUS = ("#ffc1c0", "#ff7b72", "#da3633", "#8e1519")


def _shade(net: int, scale: float) -> str:
    """The cell colour of a day's net score: four shades of green (plus) or red (minus), by size."""
    level = min(3, int(abs(net) / scale * 4)) if scale > 0 else 0
    return (_PLUS if net >= 0 else _MINUS)[level]


def _day(ordinal: int) -> dt.date | None:
    """The date of a proleptic ordinal, or None past what ``datetime.date`` holds: the weeks around 0001-01-01
    and 9999-12-31 (a date a record may carry) run into days before year 1 and after year 9999."""
    return dt.date.fromordinal(ordinal) if 1 <= ordinal <= dt.date.max.toordinal() else None


def _known(store: Store, player: str) -> None:
    """Nothing when a stored deal has ``player``; else ``ValueError`` with the players of a near name."""
    names = player_names(store, NO_FILTERS)["player"].to_list()
    if player in names:
        return
    near = get_close_matches(player, names, n=3, cutoff=0.6)
    raise ValueError(f"no player named {player} in the store"
                     + (f"; near names: {', '.join(near)}" if near else f" ({len(names):,} players)"))


def print_calendar(store: Store, player: str, filters: Filters, out: TextIO) -> None:
    """A text contributions calendar of ``player``'s net score per day (see the module docstring).

    A name no stored deal has raises ``ValueError`` naming the players with a near name: an empty calendar
    would read as a player who never scored."""
    days = calendar(store, player, filters)
    console = Console(file=out)
    if days.is_empty():
        _known(store, player)
        console.print(Text(f"No dated, scored deals of {escape_controls(player)} in this selection."))
        return
    by_date = {row["date"]: row for row in days.iter_rows(named=True)}
    scale = float(days["net"].abs().max() or 0)  # type: ignore[arg-type]
    title = Text(f"{escape_controls(player)}: net score per day", style="bold")
    console.print(title)
    for year in sorted({d.year for d in by_date}):
        first = dt.date(year, 1, 1)
        start = first.toordinal() - first.weekday()  # the Monday of the year's first week, as an ordinal
        weeks = (dt.date(year, 12, 31).toordinal() - start) // 7 + 1
        months = Text("     ")
        for week in range(weeks):
            sunday = _day(start + 7 * week + 6)
            label = sunday.strftime("%b")[0] if sunday and sunday.day <= 7 and sunday.year == year else " "
            months.append(label)
        console.print(Text(str(year), style="bold"))
        console.print(months)
        for weekday in range(7):
            line = Text(f"{_WEEKDAYS[weekday]:<4} ")
            for week in range(weeks):
                day = _day(start + 7 * week + weekday)
                row = by_date.get(day)
                if day is None or day.year != year:
                    line.append(" ")
                elif row is None:
                    line.append("·", style="grey50")
                else:
                    line.append("■", style=_shade(row["net"], scale))
            console.print(line)
    total = int(days["net"].sum())
    best = days.sort(["net", "date"], descending=[True, False]).row(0, named=True)
    worst = days.sort(["net", "date"]).row(0, named=True)
    console.print(Text(f"{days.height:,} days, {int(days['deals'].sum()):,} deals, net {total:+,}"))
    for word, row in (("best", best), ("worst", worst)):
        deal = row["best_deal"] if word == "best" else row["worst_deal"]
        console.print(Text(f"{word} day {row['date']}: {row['net']:+,} over {row['deals']:,} deals "
                           f"(its {word} deal {escape_controls(str(deal))}, "
                           f"{row['best' if word == 'best' else 'worst']:+,})"))
