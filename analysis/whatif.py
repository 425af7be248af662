"""What-if over the store: the selected deals rescored under several rules tables, side by side.

The store keeps each deal's canonical record (``deals.record``), so nothing is re-ingested: the records
are read back in stored order (source file, then line), turned into deals (``tarock.formats.codec``) and
scored under each table by ``tarock.check.sheet_compare`` — the code path of ``tarock score --compare``,
with the session model of ``tarock.check.sessions`` (each session's deals in ``seq`` order, one radelci
ledger per session).

The selection is ``Filters`` plus, optionally, one session.  A deal's score can depend on the deals before
it in its session (Slovenian radelci), so every session the selection touches is scored whole and only the
selected deals are counted: a date or player filter never changes a kept deal's score.  The tables must all
be of one ruleset, and only that ruleset's deals are scored (a table applies to its own ruleset only).

Answers (polars frames):

* ``totals``: per player × table, the selected deals' scores summed (a deal in error scores nothing; a
  Slovenian session's open radelci are not charged, as in ``score --compare``);
* ``win_rates``: per contract × table, the declared contracts' wins with 95 % Wilson intervals (declared as
  in ``analysis.win_rates``: a declarer, no error, a result);
* ``differences``: per deal whose scores differ between the tables and player, the score under each table
  (one column per table, null when the deal is in error under it), the breakdown lines naming the player
  that are not the same under every table, and a link to the deal's final step in the replay under the tables.

``deal_under`` answers the same for one deal (the Replay's score step): its session rescored whole under each
table, and that deal's scores and breakdown lines per table, the lines not written the same under every table
marked (``score --compare``'s lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import polars as pl

from analysis.filters import NO_FILTERS, Filters, deal_where
from analysis.sql import TRUE, Fragment, param, run
from analysis.stats import with_rate
from analysis.store import Store
from analysis.vocabulary import CONTRACT_LADDER
from tarock.check.result import DealCheck
from tarock.check.sheet_compare import line_texts, score_all
from tarock.formats.codec import loads
from tarock.formats.items import ReadItem
from tarock.rules.rulesets import NO_DECLARER
from tarock.rules.tables import RulesTable, load_table

MAX_TABLES = 4
"""The most tables the dashboard sets side by side (the analysis itself takes any number of at least one)."""

_RECORDS = """
WITH picked AS (SELECT p.content_hash, p.session FROM deals p WHERE {where} AND {session})
SELECT d.source_file, d.source_line, d.deal_id, d.date, d.record,
       d.content_hash IN (SELECT content_hash FROM picked) AS picked
FROM deals d
WHERE d.ruleset = {ruleset}
  AND (d.content_hash IN (SELECT content_hash FROM picked)
       OR d.session IN (SELECT session FROM picked WHERE session IS NOT NULL))
ORDER BY d.source_file, d.source_line
"""

_DEAL_RECORDS = """
WITH picked AS (SELECT p.source_file, p.source_line, p.session, p.ruleset FROM deals p WHERE p.deal_id = {deal_id}
                ORDER BY p.source_file, p.source_line LIMIT 1)
SELECT d.source_file, d.source_line, d.ruleset, d.record,
       (d.source_file = k.source_file AND d.source_line = k.source_line) AS picked
FROM deals d, picked k
WHERE d.ruleset = k.ruleset
  AND ((d.source_file = k.source_file AND d.source_line = k.source_line) OR d.session = k.session)
ORDER BY d.source_file, d.source_line
"""


@dataclass(frozen=True, slots=True)
class WhatIf:
    """The selected deals under each table (see the module's docstring for the frames)."""

    tables: tuple[str, ...]
    deals: int  # the selected deals scored
    scored: int  # every deal scored (the selected ones' whole sessions)
    totals: pl.DataFrame  # player, table, deals, total
    win_rates: pl.DataFrame  # contract, table, deals, wins, win_rate, ci_low, ci_high
    differences: pl.DataFrame  # deal_id, session, seq, date, contract, player, <one column per table>, lines, replay


@dataclass(frozen=True, slots=True)
class DealUnder:
    """One deal rescored under each table, within its session (``deal_under``)."""

    deal_id: str
    ruleset: str
    tables: tuple[str, ...]
    scores: pl.DataFrame  # player, <one column per table> (null: the deal is in error under that table)
    lines: pl.DataFrame  # table, component, detail, players, value, text (as score --compare writes it), differs


def replay_link(deal_id: str, tables: Sequence[str] = ()) -> str:
    """The dashboard's replay of ``deal_id`` at its last step (the score), under ``tables`` when given."""
    query = {"deal": deal_id, "step": "end", **({"tables": ",".join(tables)} if tables else {})}
    return "/replay?" + urlencode(query, safe=",")


def resolve(tables: Sequence[str | RulesTable]) -> list[RulesTable]:
    """Each table by name (a preset, a ruleset's defaults) or ``.toml`` file; ValueError unless one ruleset."""
    resolved = [t if isinstance(t, RulesTable) else load_table(t) for t in tables]
    if not resolved:
        raise ValueError("a what-if needs at least one rules table")
    rulesets = {t.ruleset for t in resolved}
    if len(rulesets) != 1:
        raise ValueError(f"the tables of a what-if must be of one ruleset, not {', '.join(sorted(rulesets))}")
    return resolved


def records(store: Store, ruleset: str, filters: Filters = NO_FILTERS, session: str | None = None) -> pl.DataFrame:
    """The records to score, in stored order: the selected deals of ``ruleset`` and the rest of their sessions
    (source_file, source_line, deal_id, date, record, picked)."""
    in_session = TRUE if session is None else Fragment("p.session = $w_session", {"w_session": session})
    return run(store, _RECORDS, where=deal_where(filters, "p"), session=in_session,
               ruleset=param("w_ruleset", ruleset))


def whatif(store: Store, tables: Sequence[str | RulesTable], filters: Filters = NO_FILTERS,
           session: str | None = None) -> WhatIf:
    """The deals ``filters`` and ``session`` select, rescored under each of ``tables`` (names or files)."""
    resolved = resolve(tables)
    names = tuple(t.name for t in resolved)
    if len(set(names)) != len(names):
        raise ValueError("a table is named twice")
    rows = records(store, resolved[0].ruleset, filters, session)
    runs = _score_rows(rows, resolved)
    keys = {(f, ln): (picked, d) for f, ln, picked, d in zip(rows["source_file"], rows["source_line"],
                                                             rows["picked"], rows["date"])}
    kept = [[c for c in run if keys[(c.file or "", c.line or 0)][0]] for run in runs]
    for run_ in kept[1:]:
        if [c.id for c in run_] != [c.id for c in kept[0]]:
            raise ValueError("the tables scored the deals in different orders")
    dates = {(c.file, c.line): keys[(c.file or "", c.line or 0)][1] for c in kept[0]}
    return WhatIf(names, len(kept[0]), len(runs[0]), _totals(kept, names), _win_rates(kept, names),
                  _differences(kept, names, dates))


def _score_rows(rows: pl.DataFrame, tables: list[RulesTable]) -> list[list[DealCheck]]:
    """The stored records of ``rows`` (source_file, source_line, record) scored under each table."""
    items = [ReadItem(file, line, loads(text), None, None)
             for file, line, text in zip(rows["source_file"], rows["source_line"], rows["record"])]
    return [score_all(lambda: items, table) for table in tables]


def deal_under(store: Store, deal_id: str, tables: Sequence[str | RulesTable]) -> DealUnder | None:
    """The deal ``deal_id`` (its first stored copy, as the replay shows it) rescored under each of ``tables``,
    its whole session scored in stored order; None when the store has no such deal.  ValueError when a
    table is not of the deal's ruleset."""
    resolved = resolve(tables)
    names = tuple(t.name for t in resolved)
    if len(set(names)) != len(names):
        raise ValueError("a table is named twice")
    rows = run(store, _DEAL_RECORDS, deal_id=param("w_deal", deal_id))
    if rows.is_empty():
        return None
    ruleset = rows["ruleset"][0]
    if resolved[0].ruleset != ruleset:
        raise ValueError(f"deal {deal_id} is a {ruleset} deal; the tables are {resolved[0].ruleset} tables")
    place = next((f, ln) for f, ln, picked in rows.select("source_file", "source_line", "picked").rows() if picked)
    checks = [_pick(checks, place, deal_id) for checks in _score_rows(rows, resolved)]
    players = list(dict.fromkeys(p for c in checks for p in c.players))
    scores = pl.DataFrame({"player": players}, schema={"player": pl.String}).with_columns(
        pl.Series(name, [None if (s := _score(c)) is None else s.get(p, 0) for p in players], dtype=pl.Int64)
        for name, c in zip(names, checks))
    texts = [line_texts(c) for c in checks]
    common = set(texts[0]).intersection(*texts[1:])
    lines = [{"table": name, "component": ln.component, "detail": ln.detail, "players": ", ".join(ln.players),
              "value": ln.value, "text": text, "differs": text not in common}
             for name, c, ts in zip(names, checks, texts) for ln, text in zip(c.breakdown or (), ts)]
    schema: dict[str, Any] = {"table": pl.String, "component": pl.String, "detail": pl.String,
                              "players": pl.String, "value": pl.Int64, "text": pl.String, "differs": pl.Boolean}
    return DealUnder(deal_id, ruleset, names, scores, pl.DataFrame(lines, schema=schema))


def _pick(checks: list[DealCheck], place: tuple[str, int], deal_id: str) -> DealCheck:
    """The check of the stored copy at ``place`` (else the first one of ``deal_id``: a copy left out)."""
    for c in checks:
        if (c.file, c.line) == place:
            return c
    for c in checks:
        if c.id == deal_id:
            return c
    raise ValueError(f"deal {deal_id} was not scored")


def _score(check: DealCheck) -> dict[str, int] | None:
    return check.scores if check.status != "error" else None


def _totals(runs: list[list[DealCheck]], names: tuple[str, ...]) -> pl.DataFrame:
    rows: dict[tuple[str, str], list[int]] = {}
    for name, checks in zip(names, runs):
        for c in checks:
            score = _score(c) or {}
            for p in c.players:
                cell = rows.setdefault((p, name), [0, 0])
                cell[0] += 1
                cell[1] += score.get(p, 0)
    frame = pl.DataFrame({"player": [p for p, _ in rows], "table": [t for _, t in rows],
                          "deals": [v[0] for v in rows.values()], "total": [v[1] for v in rows.values()]},
                         schema={"player": pl.String, "table": pl.String, "deals": pl.Int64, "total": pl.Int64})
    order = {name: i for i, name in enumerate(names)}
    return (frame.with_columns(pl.col("table").replace_strict(order, return_dtype=pl.Int32).alias("_t"))
            .sort("player", "_t").drop("_t"))


def _declared(check: DealCheck) -> bool:
    return (check.declarer is not None and check.status != "error" and check.won is not None
            and check.contract not in NO_DECLARER)


def _win_rates(runs: list[list[DealCheck]], names: tuple[str, ...]) -> pl.DataFrame:
    counts: dict[tuple[str, str], list[int]] = {}
    for name, checks in zip(names, runs):
        for c in checks:
            if _declared(c):
                cell = counts.setdefault((c.contract, name), [0, 0])
                cell[0] += 1
                cell[1] += bool(c.won)
    frame = pl.DataFrame({"contract": [c for c, _ in counts], "table": [t for _, t in counts],
                          "deals": [v[0] for v in counts.values()], "wins": [v[1] for v in counts.values()]},
                         schema={"contract": pl.String, "table": pl.String, "deals": pl.Int64, "wins": pl.Int64})
    ladder = {c: i for i, c in enumerate(CONTRACT_LADDER)}
    order = {name: i for i, name in enumerate(names)}
    frame = frame.with_columns(
        pl.col("contract").replace_strict(ladder, default=len(ladder), return_dtype=pl.Int32).alias("_c"),
        pl.col("table").replace_strict(order, return_dtype=pl.Int32).alias("_t")).sort("_c", "_t").drop("_c", "_t")
    return with_rate(frame, "wins", "deals", "win_rate")


def _differences(runs: list[list[DealCheck]], names: tuple[str, ...],
                 dates: dict[tuple[str | None, int | None], Any]) -> pl.DataFrame:
    columns: dict[str, list[Any]] = {k: [] for k in ("deal_id", "session", "seq", "date", "contract", "player")}
    scores: list[list[int | None]] = [[] for _ in names]
    lines: list[str] = []
    for checks in zip(*runs):
        per_table = [_score(c) for c in checks]
        if all(s == per_table[0] for s in per_table[1:]):
            continue
        first = checks[0]
        for p in first.players:
            figures = [None if s is None else s.get(p, 0) for s in per_table]
            texts = [line_texts(c, p) for c in checks]
            common = set(texts[0]).intersection(*texts[1:])
            if len(set(figures)) == 1 and all(set(t) <= common for t in texts):
                continue  # this player's score and lines are the same under every table
            for key, value in (("deal_id", first.id), ("session", first.session), ("seq", first.seq),
                               ("date", dates.get((first.file, first.line))), ("contract", first.contract),
                               ("player", p)):
                columns[key].append(value)
            for column, figure in zip(scores, figures):
                column.append(figure)
            lines.append("; ".join(f"[{name}] {t}" for name, ts in zip(names, texts) for t in ts if t not in common))
    schema: dict[str, Any] = {"deal_id": pl.String, "session": pl.String, "seq": pl.Int64, "date": pl.Date,
                              "contract": pl.String, "player": pl.String}
    frame = pl.DataFrame(columns, schema=schema)
    frame = frame.with_columns(*(pl.Series(name, col, dtype=pl.Int64) for name, col in zip(names, scores)),
                               pl.Series("lines", lines, dtype=pl.String))
    return frame.with_columns(pl.col("deal_id").map_elements(lambda d: replay_link(d, names), return_dtype=pl.String)
                              .alias("replay"))
