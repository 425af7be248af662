"""What-if over the store: the selected deals rescored under several rules tables, side by side.

The store keeps each deal's canonical record (``deals.record``), so nothing is re-ingested.  A store
directory is rescored the way ``ingest --rescore`` does it, into a generation beside the current one
(``ingest.rescore_beside``: shards on the executors, the bulk path and the compiled scorer where the table is
the accelerator's, kept until the next ingest), and the answers are read with SQL from that generation's
``deals`` and ``results``.  An exported DuckDB file (or a store the process may not write to) is scored in
this process instead: the records are read back in stored order (source file, then line), turned into deals
(``tarock.formats.codec``) and scored under each table by ``tarock.check.sheet_compare`` — the code path of
``tarock score --compare``.  Both score with the session model of ``tarock.check.sessions`` (each session's
deals in ``seq`` order, one radelci ledger per session) and give the same frames (``tests/analysis``).

The selection is ``Filters`` plus, optionally, one session.  A deal's score can depend on the deals before
it in its session (Slovenian radelci), so every session the selection touches is scored whole and only the
selected deals are counted: a date or player filter never changes a kept deal's score.  The tables must all
be of one ruleset, and only that ruleset's deals are scored (a table applies to its own ruleset only).

Answers (polars frames):

* ``totals``: per player × table, the selected deals' scores summed (a deal in error scores nothing; a
  Slovenian session's open radelci are not charged, as in ``score --compare``);
* ``win_rates``: per contract × number of players × table, the declared contracts' wins with 95 % Wilson intervals (declared as
  in ``analysis.win_rates``: a declarer, no error, a result);
* ``differences``: per deal whose scores differ between the tables and player, the score under each table
  (one column per table, null when the deal is in error under it), the breakdown lines naming the player
  that are not the same under every table, and a link to the deal's final step in the replay under the tables;
  in stored order (source file and line), each deal's players in seat order.

``deal_under`` answers the same for one deal (the Replay's score step): its session rescored whole under each
table, and that deal's scores and breakdown lines per table, the lines not written the same under every table
marked (``score --compare``'s lines).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import duckdb
import orjson
import polars as pl

from analysis.filters import NO_FILTERS, Filters, deal_where
from analysis.sql import TRUE, Fragment, compose, param, run
from analysis.stats import with_rate
from analysis.store import Store
from analysis.vocabulary import CONTRACT_LADDER
from ingest.layout import StoreBusy, StoreLayout
from ingest.rescore_beside import rescore_beside
from ingest.store import attach_generation, open_store, stored_schema
from tarock.check.result import DealCheck
from tarock.check.sheet_compare import line_texts, score_all
from tarock.formats.codec import loads
from tarock.formats.items import ReadItem
from tarock.rules.rulesets import NO_DECLARER
from tarock.options import options_for
from tarock.rules.tables import RulesTable, builtin_tables, load_table

MAX_TABLES = 4
"""The most tables the dashboard sets side by side (the analysis itself takes any number of at least one)."""

_RECORDS = """
WITH picked AS (SELECT p.content_hash, p.session FROM deals p WHERE {where} AND {session})
SELECT d.source_file, d.source_pos, d.content_hash, d.deal_id, d.session, d.seq, d.date, d.contract, d.record,
       d.content_hash IN (SELECT content_hash FROM picked) AS picked
FROM deals d
WHERE d.ruleset = {ruleset}
  AND (d.content_hash IN (SELECT content_hash FROM picked)
       OR d.session IN (SELECT session FROM picked WHERE session IS NOT NULL))
ORDER BY d.source_file, d.source_pos
"""

_PICKED = """
SELECT p.content_hash, p.deal_id, p.session, p.seq, p.date, p.contract, p.source_file, p.source_pos
FROM deals p WHERE {where} AND {session} AND p.ruleset = {ruleset}
"""

_SCORED = """
SELECT count(*) FROM deals d
WHERE d.ruleset = {ruleset}
  AND (d.content_hash IN (SELECT content_hash FROM picked)
       OR d.session IN (SELECT session FROM picked WHERE session IS NOT NULL))
"""

_DEAL_RECORDS = """
WITH picked AS (SELECT p.source_file, p.source_pos, p.session, p.ruleset FROM deals p WHERE p.deal_id = {deal_id}
                ORDER BY p.source_file, p.source_pos LIMIT 1)
SELECT d.source_file, d.source_pos, d.ruleset, d.record,
       (d.source_file = k.source_file AND d.source_pos = k.source_pos) AS picked
FROM deals d, picked k
WHERE d.ruleset = k.ruleset
  AND ((d.source_file = k.source_file AND d.source_pos = k.source_pos) OR d.session = k.session)
ORDER BY d.source_file, d.source_pos
"""


@dataclass(frozen=True, slots=True)
class WhatIf:
    """The selected deals under each table (see the module's docstring for the frames)."""

    tables: tuple[str, ...]
    deals: int  # the selected deals scored
    scored: int  # every deal scored (the selected ones' whole sessions)
    totals: pl.DataFrame  # player, table, deals, total
    win_rates: pl.DataFrame  # contract, n_players, table, deals, wins, win_rate, ci_low, ci_high
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


@dataclass(frozen=True)
class UsualTables:
    """The tables a comparison opens on: ``own``, the built-in table most of the ruleset's stored deals were
    played under, and ``nearest``, the named preset with the fewest options set differently (``differ``, their
    names)."""

    own: str
    nearest: str
    differ: tuple[str, ...]


def usual_tables(store: Store, ruleset: str) -> UsualTables:
    """The club's own table and the nearest other one: the What-if page's default comparison (issue 38: it
    opened on the OpenSpiel preset whatever the club played).  The deals' most used options name a table when
    they are equal to one's; otherwise, or in an empty store, the ruleset's own (a table of no overrides: each
    deal rescored under its own options, so never the ``nearest``: beside a preset the deals were played under
    it would change nothing)."""
    rows = store.query("SELECT options_json, count(*) AS n FROM deals WHERE ruleset = $ruleset "
                       "GROUP BY ALL ORDER BY n DESC, options_json NULLS FIRST LIMIT 1", {"ruleset": ruleset})
    raw = orjson.loads(rows["options_json"][0]) if rows.height and rows["options_json"][0] else None
    played = options_for(ruleset, raw).to_dict()
    tables = [t for t in builtin_tables() if t.ruleset == ruleset]
    own = next((t for t in tables if t.options.to_dict() == played), tables[0])

    def differ(table: RulesTable) -> tuple[str, ...]:
        options = table.options.to_dict()
        return tuple(key for key, value in own.options.to_dict().items() if options[key] != value)

    nearest = min((t for t in tables if t is not own and t.source != "defaults"), key=lambda t: len(differ(t)))
    return UsualTables(own.name, nearest.name, differ(nearest))


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
    (source_file, source_pos, content_hash, deal_id, session, seq, date, contract, record, picked)."""
    return run(store, _RECORDS, where=deal_where(filters, "p"), session=_session(session),
               ruleset=param("w_ruleset", ruleset))


def _session(session: str | None) -> Fragment:
    return TRUE if session is None else Fragment("p.session = $w_session", {"w_session": session})


def whatif(store: Store, tables: Sequence[str | RulesTable], filters: Filters = NO_FILTERS,
           session: str | None = None, *, executor: str = "local", write: bool = True) -> WhatIf:
    """The deals ``filters`` and ``session`` select, rescored under each of ``tables`` (names or files).

    A store directory is rescored beside its current generation on ``executor`` (``ingest.executors``);
    an exported file, a store that cannot take the rescore now (another ingest holds it, or it may not be
    written), or one the caller may not write (``write`` False: a read-only dashboard), in this process.
    """
    resolved = resolve(tables)
    names = tuple(t.name for t in resolved)
    if len(set(names)) != len(names):
        raise ValueError("a table is named twice")
    if write and not store.is_file:
        try:
            return _beside(store, resolved, filters, session, executor)
        except (StoreBusy, PermissionError, OSError):
            pass  # scored here instead: the same answer, only slower
    return _in_process(store, resolved, filters, session)


@dataclass(frozen=True, slots=True)
class _Scored:
    """One table's answer for the selected deals, the shape both ways of scoring give."""

    scores: pl.DataFrame
    """key (the deal's content hash), player, seat, score (null: the deal is in error under the table)."""
    declared: pl.DataFrame
    """contract, n_players, won: one row per selected deal that counts for the contracts' win rates
    (``_DECLARED``)."""
    lines: Callable[[list[str]], dict[tuple[str, str], list[str]]]
    """The breakdown lines (``score --compare``'s text) of these deals, per (key, player): the lines naming
    the player."""


_SCORES_SCHEMA: dict[str, Any] = {"key": pl.String, "player": pl.String, "seat": pl.Int32, "score": pl.Int64}
_DECLARED_SCHEMA: dict[str, Any] = {"contract": pl.String, "n_players": pl.Int32, "won": pl.Boolean}
_INFO_COLUMNS = ("key", "deal_id", "session", "seq", "date", "contract")


def _in_process(store: Store, tables: list[RulesTable], filters: Filters, session: str | None) -> WhatIf:
    """``whatif`` scored in this process from the stored records (``score --compare``'s code path)."""
    rows = records(store, tables[0].ruleset, filters, session)
    keys = dict(enumerate(rows["content_hash"], 1))
    picked = {row for row, k in enumerate(rows["picked"], 1) if k}
    info = rows.filter(pl.col("picked")).select(pl.col("content_hash").alias("key"), *_INFO_COLUMNS[1:])
    runs = _score_rows(rows, tables)
    scored = [_scored_checks([c for c in run if c.line in picked], keys) for run in runs]
    return _answer(tuple(t.name for t in tables), info, len(runs[0]), scored)


def _scored_checks(checks: list[DealCheck], keys: dict[int, str]) -> _Scored:
    """A table's answer from the selected deals' check results (``_in_process``), told apart by their rows
    (``_score_rows``)."""
    by_key = {keys[c.line or 0]: c for c in checks}
    scores = pl.DataFrame(
        [(key, p, seat, None if (s := _score(c)) is None else s.get(p, 0))
         for key, c in by_key.items() for seat, p in enumerate(c.players)],
        schema=_SCORES_SCHEMA, orient="row")
    declared = pl.DataFrame([(c.contract, len(c.players), bool(c.won)) for c in checks if _declared(c)],
                            schema=_DECLARED_SCHEMA, orient="row")

    def lines(wanted: list[str]) -> dict[tuple[str, str], list[str]]:
        return {(key, p): line_texts(by_key[key], p) for key in wanted for p in by_key[key].players}

    return _Scored(scores, declared, lines)


def _beside(store: Store, tables: list[RulesTable], filters: Filters, session: str | None,
            executor: str) -> WhatIf:
    """``whatif`` read from the generations the store's deals were rescored into (``ingest.rescore_beside``)."""
    generations = [rescore_beside(store.source, t.overrides, executor) for t in tables]
    current = StoreLayout.at(store.source).read_current()
    con = open_store(store.source)
    try:
        schemas = []
        for i, generation in enumerate(generations):
            schema = "main" if generation == current else f"w{i}"
            if schema != "main":
                attach_generation(con, store.source, generation, schema)
            schemas.append(schema)
        ruleset = param("w_ruleset", tables[0].ruleset)
        picked = compose(_PICKED, where=deal_where(filters, "p"), session=_session(session), ruleset=ruleset)
        con.execute(f"CREATE TEMP TABLE picked AS {picked.sql}", picked.params or None)
        info = con.sql("SELECT content_hash AS key, deal_id, session, seq, date, contract FROM picked "
                       "ORDER BY source_file, source_pos").pl()
        counted = compose(_SCORED, ruleset=ruleset)
        n_scored = con.execute(counted.sql, counted.params).fetchall()[0][0]
        scored = [_scored_generation(con, schema) for schema in schemas]
        return _answer(tuple(t.name for t in tables), info, n_scored, scored)
    finally:
        con.close()


def _scored_generation(con: duckdb.DuckDBPyConnection, schema: str) -> _Scored:
    """A table's answer read from the generation whose views are in ``schema`` (``_beside``)."""
    stored = stored_schema(schema)
    scores = con.sql(f"""
        SELECT d.content_hash AS key, r.player, r.seat_no AS seat,
               CAST(CASE WHEN d.status <> 'error' THEN r.score END AS BIGINT) AS score
        FROM {stored}.results r
        JOIN {schema}.deals d
          ON d.shard = r.shard AND d.source_file = r.source_file AND d.source_pos = r.source_pos
        WHERE d.content_hash IN (SELECT content_hash FROM picked)
    """).pl().cast(_SCORES_SCHEMA)
    declared = con.sql(f"""
        SELECT d.contract, d.n_players, d.won FROM {schema}.deals d
        WHERE d.content_hash IN (SELECT content_hash FROM picked) AND {_DECLARED}
    """, params={"no_declarer": sorted(NO_DECLARER)}).pl().cast(_DECLARED_SCHEMA)

    def lines(wanted: list[str]) -> dict[tuple[str, str], list[str]]:
        con.execute("CREATE OR REPLACE TEMP TABLE wanted AS SELECT unnest($keys::VARCHAR[]) AS key", {"keys": wanted})
        rows = con.sql(f"""
            SELECT d.content_hash, r.player, r.breakdown_json FROM {stored}.results r
            JOIN {schema}.deals d
              ON d.shard = r.shard AND d.source_file = r.source_file AND d.source_pos = r.source_pos
            WHERE d.content_hash IN (SELECT key FROM wanted)
        """).fetchall()
        return {(key, p): [_line_text(line) for line in orjson.loads(text)] if text else []
                for key, p, text in rows}

    return _Scored(scores, declared, lines)


_DECLARED = ("d.declarer IS NOT NULL AND d.status <> 'error' AND d.won IS NOT NULL "
             "AND NOT list_contains($no_declarer, d.contract)")
"""A deal that counts for its contract's win rate, as ``_declared`` says of a check result."""


def _line_text(line: dict[str, Any]) -> str:
    """A stored breakdown line (``results.breakdown_json``) as ``line_texts`` writes it."""
    return f"{', '.join(line['players'])} {line['component']} {line['value']:+d}: {line['detail']}"


def _answer(names: tuple[str, ...], info: pl.DataFrame, n_scored: int, scored: list[_Scored]) -> WhatIf:
    return WhatIf(names, info.height, n_scored, _totals(scored, names), _win_rates(scored, names),
                  _differences(scored, names, info))


def _score_rows(rows: pl.DataFrame, tables: list[RulesTable]) -> list[list[DealCheck]]:
    """The stored records of ``rows`` (source_file, record) scored under each table; each check's ``line`` is its
    record's row in ``rows`` (from 1), which tells apart the records of a file whatever its shape."""
    items = [ReadItem(file, row, loads(text), None, None)
             for row, (file, text) in enumerate(zip(rows["source_file"], rows["record"]), 1)]
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
    place = next(row for row, picked in enumerate(rows["picked"], 1) if picked)
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


def _pick(checks: list[DealCheck], place: int, deal_id: str) -> DealCheck:
    """The check of the stored copy in row ``place`` (``_score_rows``; else the first one of ``deal_id``: a copy
    left out)."""
    for c in checks:
        if c.line == place:
            return c
    for c in checks:
        if c.id == deal_id:
            return c
    raise ValueError(f"deal {deal_id} was not scored")


def _score(check: DealCheck) -> dict[str, int] | None:
    return check.scores if check.status != "error" else None


def _totals(scored: list[_Scored], names: tuple[str, ...]) -> pl.DataFrame:
    """Per player and table: the selected deals they sat in, and their scores summed (a deal in error: 0)."""
    frames = [s.scores.group_by("player").agg(pl.len().cast(pl.Int64).alias("deals"),
                                              pl.col("score").fill_null(0).sum().cast(pl.Int64).alias("total"))
              .with_columns(pl.lit(name).alias("table"), pl.lit(i, dtype=pl.Int32).alias("_t"))
              for i, (name, s) in enumerate(zip(names, scored))]
    return pl.concat(frames).sort("player", "_t").select("player", "table", "deals", "total")


def _declared(check: DealCheck) -> bool:
    return (check.declarer is not None and check.status != "error" and check.won is not None
            and check.contract not in NO_DECLARER)


def _win_rates(scored: list[_Scored], names: tuple[str, ...]) -> pl.DataFrame:
    frames = [s.declared.group_by("contract", "n_players").agg(pl.len().cast(pl.Int64).alias("deals"),
                                                  pl.col("won").sum().cast(pl.Int64).alias("wins"))
              .with_columns(pl.lit(name).alias("table"), pl.lit(i, dtype=pl.Int32).alias("_t"))
              for i, (name, s) in enumerate(zip(names, scored))]
    ladder = {c: i for i, c in enumerate(CONTRACT_LADDER)}
    frame = (pl.concat(frames)
             .with_columns(pl.col("contract").replace_strict(ladder, default=len(ladder), return_dtype=pl.Int32)
                           .alias("_c"))
             .sort("n_players", "_c", "_t").select("contract", "n_players", "table", "deals", "wins"))
    return with_rate(frame, "wins", "deals", "win_rate")


def _differences(scored: list[_Scored], names: tuple[str, ...], info: pl.DataFrame) -> pl.DataFrame:
    """Every (deal, player) whose score or breakdown lines differ between the tables, of the deals whose scores
    differ; in ``info``'s order (stored order), players in seat order."""
    wide = scored[0].scores.rename({"score": "s0"})
    for i, s in enumerate(scored[1:], 1):
        wide = wide.join(s.scores.select("key", "player", pl.col("score").alias(f"s{i}")), on=["key", "player"],
                         how="left")
    figures = [f"s{i}" for i in range(len(scored))]
    differs = pl.any_horizontal([pl.col(f).ne_missing(pl.col("s0")) for f in figures[1:]] or [pl.lit(False)])
    order = info.select("key").with_row_index("_order")
    candidates = (wide.filter(differs.any().over("key")).join(order, on="key").sort("_order", "seat"))
    wanted = candidates["key"].unique(maintain_order=True).to_list()
    texts_by_table = [s.lines(wanted) for s in scored] if wanted else []
    kept: list[tuple[Any, ...]] = []
    lines: list[str] = []
    for key, player, *values in candidates.select("key", "player", *figures).rows():
        texts = [by.get((key, player), []) for by in texts_by_table]
        common = set(texts[0]).intersection(*texts[1:])
        if len(set(values)) == 1 and all(set(t) <= common for t in texts):
            continue  # this player's score and lines are the same under every table
        kept.append((key, player, *values))
        lines.append("; ".join(f"[{name}] {t}" for name, ts in zip(names, texts) for t in ts if t not in common))
    rows = pl.DataFrame(kept, schema={"key": pl.String, "player": pl.String,
                                      **{name: pl.Int64 for name in names}}, orient="row")
    frame = (rows.with_columns(pl.Series("lines", lines, dtype=pl.String))
             .join(info, on="key", how="left", maintain_order="left")
             .select("deal_id", "session", "seq", "date", "contract", "player", *names, "lines"))
    return frame.with_columns(pl.col("deal_id").map_elements(lambda d: replay_link(d, names), return_dtype=pl.String)
                              .alias("replay"))
