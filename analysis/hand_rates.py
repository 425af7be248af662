"""How often declared contracts are won by what the declarer was dealt: ``tarock report --by hand-feature``.

One row per ruleset, number of players, contract and value of one feature of the declarer's dealt hand
(a column of the ``hands`` table, docs/store.md: ``taroks``, ``kings``, ``voids`` …), with the deals, the
wins, the win rate and its 95 % Wilson interval (``analysis.stats``).  The deals counted are those of
``analysis.win_rates`` (a declarer, no error, a result).  A group of fewer than ``min_deals`` deals keeps
its counts but gets no rate and no interval (``estimate`` false): a rate over a handful of deals reads
as evidence it is not.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

import orjson
import polars as pl
from rich.console import Console
from rich.table import Table
from rich.text import Text

from analysis.filters import NO_FILTERS, Filters, deal_where
from analysis.sql import Fragment, run
from analysis.report import FORMATS
from analysis.stats import with_rate
from analysis.store import Store
from analysis.vocabulary import contract_rank
from ingest.csv_out import frame_csv
from ingest.schema import HANDS
from tarock.safe_text import escape_controls

FEATURES: tuple[str, ...] = tuple(
    f.name for f in HANDS if f.name not in {"deal_id", "content_hash", "source_file", "source_line", "source_pos",
                                            "player", "seat_no", "declarer", "hand_mask", "ruleset",
                                            "n_players"})
"""The ``hands`` columns a report can group by (the whitelist: the only names put into its SQL)."""

MIN_DEALS = 30
"""Fewest deals in a group for a rate to be shown (``--min-deals``)."""

_QUERY = """
SELECT ruleset, n_players, contract, {feature}, count(*) AS deals, count(*) FILTER (WHERE won) AS wins
FROM (SELECT d.ruleset, d.n_players, d.contract, h.{feature} AS {feature}, d.won
      FROM deals d JOIN stored.hands h ON h.shard = d.shard AND h.source_file = d.source_file
          AND h.source_pos = d.source_pos AND h.declarer
      WHERE {where})
GROUP BY ruleset, n_players, contract, {feature}
ORDER BY ruleset, n_players, {order}, {feature}
"""


def feature_name(feature: str) -> str:
    """``feature`` when it is a column of ``FEATURES``, else ValueError naming the valid ones."""
    if feature not in FEATURES:
        raise ValueError(f"feature must be one of {', '.join(FEATURES)}; got {feature!r}")
    return feature


def hand_feature_rates(store: Store, feature: str, filters: Filters = NO_FILTERS,
                       min_deals: int = MIN_DEALS) -> pl.DataFrame:
    """Deals, wins, and (from ``min_deals`` deals on) the win rate with its 95 % Wilson interval, per
    ruleset, number of players, contract and value of the declarer's ``feature``; ``estimate`` says which
    rows have a rate."""
    name = feature_name(feature)
    if min_deals < 1:
        raise ValueError(f"min_deals must be at least 1, not {min_deals}")
    frame = run(store, _QUERY, feature=Fragment(name), where=deal_where(filters, declared=True),
                order=contract_rank("contract"))
    rated = with_rate(frame, "wins", "deals", "win_rate")
    enough = pl.col("deals") >= min_deals
    return rated.with_columns(
        *(pl.when(enough).then(pl.col(c)).otherwise(None).alias(c) for c in ("win_rate", "ci_low", "ci_high")),
        enough.alias("estimate"))


def report_hand_feature(source: Store | str | os.PathLike[str], feature: str, filters: Filters = NO_FILTERS,
                        fmt: str = "table", min_deals: int = MIN_DEALS, stream: TextIO | None = None) -> None:
    """Print ``hand_feature_rates`` as ``tarock report`` prints its win rates (``analysis.report.FORMATS``:
    a rich table, CSV, or JSON ``{"hand_feature_rates": [...]}``)."""
    feature_name(feature)
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    out = stream or sys.stdout
    with Store.opened(source) as store:
        rates = hand_feature_rates(store, feature, filters, min_deals)
    if fmt == "csv":
        out.write(frame_csv(rates))
    elif fmt == "json":
        out.write(orjson.dumps({"hand_feature_rates": rates.to_dicts()}).decode() + "\n")
    else:
        _print(Console(file=out), feature, rates, min_deals)


def _percent(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f} %"


def _print(console: Console, feature: str, rates: pl.DataFrame, min_deals: int) -> None:
    table = Table(title=f"Win rates of declared contracts by the declarer's {feature.replace('_', ' ')}")
    for column in ("ruleset", "players", "contract", feature.replace("_", " ")):
        table.add_column(column)
    for column in ("deals", "wins", "win rate", "95 % interval"):
        table.add_column(column, justify="right")
    for row in rates.iter_rows(named=True):
        interval = f"{_percent(row['ci_low'])} – {_percent(row['ci_high'])}" if row["estimate"] else "too few deals"
        table.add_row(Text(row["ruleset"]), str(row["n_players"]), Text(escape_controls(row["contract"])),
                      str(row[feature]), f"{row['deals']:,}", f"{row['wins']:,}", _percent(row["win_rate"]),
                      interval)
    table.caption = (f"A group of fewer than {min_deals} deals gets no rate. Hands come from the `hands` table"
                     " (`tarock ingest --rescore` builds it for an older store).")
    console.print(table)
