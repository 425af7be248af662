"""The store's tables: one Arrow schema per table, and how each is partitioned on disk.

This module is the single source of truth for column names and types: the
row builder fills exactly these columns, split by ``PARTITION_COLUMNS``,
the DuckDB views type an empty table from these schemas, and
``docs/store.md`` documents them (a test checks that every column is
documented).

Per-deal tables are hive-partitioned by ``ruleset`` and ``n_players``: the
analysis queries (win rates by ruleset, 3- vs 4-player tables) prune by them,
and they give few directories (a handful of combinations), so a shard writes
at most a few files per table.  The partition columns live in the directory
names only (``deals/ruleset=slovenian/n_players=4/part-<key>.parquet``);
readers add them back from the path with ``hive_partitioning=true``.

A field declared ``nullable=False`` never holds a null by construction (the
deal key, the counts, a trick's cards …); the writer stores such a column as
a REQUIRED Parquet column (no definition levels to write or read), and as an
optional one should a null ever reach it, so a slip costs speed, not data.
"""

from __future__ import annotations

import pyarrow as pa

from ingest.hand_features import hand_feature_sql
from tarock.rules.rulesets import ALL_COMPONENTS

PARTITION_COLUMNS = ("ruleset", "n_players")
"""Hive partition keys of the per-deal tables, outermost first."""

PARTITION_TYPES: dict[str, pa.DataType] = {"ruleset": pa.string(), "n_players": pa.int32()}
"""The types readers give the partition columns (DuckDB ``hive_types``, polars ``hive_schema``)."""

# typed as plain data types, so a list of fields of several types is a list of one type of field
_STR: pa.DataType = pa.string()
_I32: pa.DataType = pa.int32()
_I64: pa.DataType = pa.int64()
_BOOL: pa.DataType = pa.bool_()
_STRS: pa.DataType = pa.list_(pa.string())

DEAL_KEY: tuple[pa.Field, ...] = (
    pa.field("deal_id", _STR, nullable=False),
    pa.field("content_hash", _STR, nullable=False),
    pa.field("source_file", _STR, nullable=False),
    pa.field("source_line", _I64, nullable=False),
    pa.field("source_pos", _I64, nullable=False),
    pa.field("shard", _STR, nullable=False),
)
"""The columns every per-deal table starts with: which deal, and which stored copy of it.

(``shard``, ``source_pos``) identifies a stored copy exactly in a shard of one file; a group shard
(``ingest.groups``) holds several files, so there ``source_file`` is needed too.  ``source_pos`` is the
record's place in its file (``ingest.rows.source_pos``: its line and its index among the records starting on
that line), unique by construction whatever the file's shape — a ``.json`` list written on one line has all
its records on line 1, so ``source_line`` alone would join every deal of it with every other's rows.
``source_line`` is where the record starts, for people.  The views hide the copies listed in
``duplicates`` by the key (cheap to read: ``shard`` is one dictionary value per file).
"""

DEAL_ONLY_KEY = ("deal_id", "content_hash", "source_line")
"""The deal columns only ``deals`` stores: the other per-deal tables' files keep the stored copy's key
(``shard``, ``source_pos``, ``source_file``) and their views take these from the copy's ``deals`` row
(``ingest.store``).  Two hashes repeated on every child row cost about 38 MiB per 200,000 deals."""

DEALS = pa.schema([
    *DEAL_KEY,
    pa.field("players", _STRS, nullable=False),
    pa.field("session", _STR),
    pa.field("seq", _I64),
    pa.field("date", pa.date32()),
    pa.field("dealer", _STR, nullable=False),
    pa.field("forehand", _STR, nullable=False),
    pa.field("contract", _STR, nullable=False),
    pa.field("declarer", _STR),
    pa.field("partner", _STR),
    pa.field("called_king", _STR),
    pa.field("status", _STR, nullable=False),
    pa.field("won", _BOOL),
    pa.field("declarer_points", _I32),
    pa.field("opponents_points", _I32),
    pa.field("card_points_json", _STR),
    pa.field("n_tricks", _I32, nullable=False),
    pa.field("n_findings", _I32, nullable=False),
    pa.field("n_renons", _I32, nullable=False),
    pa.field("has_recorded", _BOOL, nullable=False),
    pa.field("score_mismatch", _BOOL, nullable=False),
    pa.field("options_hash", _STR, nullable=False),
    pa.field("options_json", _STR, nullable=False),
    pa.field("engine_version", _STR, nullable=False),
    pa.field("record", _STR, nullable=False),
    pa.field("ruleset", _STR),
    pa.field("n_players", _I32),
])

RESULTS = pa.schema([
    *DEAL_KEY,
    pa.field("player", _STR, nullable=False),
    pa.field("seat", _STR),
    pa.field("seat_no", _I32, nullable=False),
    pa.field("role", _STR),
    pa.field("score", _I32),
    pa.field("recorded_score", _I32),
    pa.field("score_diff", _I32),
    pa.field("unpenalised", _I32),
    pa.field("radelci_before", _I32),
    pa.field("radelci_after", _I32),
    pa.field("penalty_policy", _STR),
    pa.field("won", _BOOL),
    pa.field("breakdown_json", _STR),
    *(pa.field(component, _I32) for component in ALL_COMPONENTS),
    pa.field("ruleset", _STR),
    pa.field("n_players", _I32),
])

TRICKS = pa.schema([
    *DEAL_KEY,
    pa.field("trick_no", _I32, nullable=False),
    pa.field("leader", _STR, nullable=False),
    pa.field("winner", _STR, nullable=False),
    pa.field("cards", _STRS, nullable=False),
    pa.field("players", _STRS, nullable=False),
    pa.field("points", _I32, nullable=False),
    pa.field("ruleset", _STR),
    pa.field("n_players", _I32),
])

PLAYS = pa.schema([
    *DEAL_KEY,
    pa.field("trick_no", _I32, nullable=False),
    pa.field("position", _I32, nullable=False),
    pa.field("player", _STR, nullable=False),
    pa.field("card", _STR, nullable=False),
    pa.field("legal", _BOOL, nullable=False),
    pa.field("code", _STR),
    pa.field("ruleset", _STR),
    pa.field("n_players", _I32),
])

FINDINGS = pa.schema([
    *DEAL_KEY,
    pa.field("idx", _I32),
    pa.field("code", _STR),
    pa.field("severity", _STR),
    pa.field("trick", _I32),
    pa.field("position", _I32),
    pa.field("player", _STR),
    pa.field("card", _STR),
    pa.field("message", _STR),
    pa.field("file", _STR),
    pa.field("line", _I64),
    pa.field("ruleset", _STR),
    pa.field("n_players", _I32),
])

BIDS = pa.schema([
    *DEAL_KEY,
    pa.field("idx", _I32),
    pa.field("player", _STR),
    pa.field("bid", _STR),
    pa.field("ruleset", _STR),
    pa.field("n_players", _I32),
])

ANNOUNCEMENTS = pa.schema([
    *DEAL_KEY,
    pa.field("idx", _I32),
    pa.field("player", _STR),
    pa.field("bonus", _STR),
    pa.field("kontra", _STR),
    pa.field("level", _I32),
    pa.field("against", _STR),
    pa.field("ruleset", _STR),
    pa.field("n_players", _I32),
])

HANDS = pa.schema([
    *DEAL_KEY,
    pa.field("player", _STR, nullable=False),
    pa.field("seat_no", _I32, nullable=False),
    pa.field("declarer", _BOOL, nullable=False),
    pa.field("hand_mask", _I64, nullable=False),
    pa.field("n_cards", _I32, nullable=False),
    pa.field("taroks", _I32, nullable=False),
    pa.field("high_taroks", _I32, nullable=False),
    pa.field("tarok_points", _I32, nullable=False),
    pa.field("pagat", _BOOL, nullable=False),
    pa.field("mond", _BOOL, nullable=False),
    pa.field("skis", _BOOL, nullable=False),
    pa.field("trula_cards", _I32, nullable=False),
    pa.field("kings", _I32, nullable=False),
    pa.field("hearts", _I32, nullable=False),
    pa.field("diamonds", _I32, nullable=False),
    pa.field("spades", _I32, nullable=False),
    pa.field("clubs", _I32, nullable=False),
    pa.field("voids", _I32, nullable=False),
    pa.field("singletons", _I32, nullable=False),
    pa.field("card_points", _I32, nullable=False),
    pa.field("talon_taken", _I32),
    pa.field("talon_points", _I32),
    pa.field("called_king_place", _STR),
    pa.field("ruleset", _STR),
    pa.field("n_players", _I32),
])
"""One row per player of a deal whose record gives the hands: what was dealt (``ingest.hands``)."""

UNPACK_RECORD = "tarock_record"
"""The SQL function (``ingest.packed_record.unpack``, registered on every connection of ``ingest.store``) that
gives a ``record`` back from its ``record_packed``."""

PACKED_COLUMNS: dict[str, dict[str, tuple[pa.Field, str]]] = {
    "deals": {"record": (pa.field("record_packed", pa.binary(), nullable=False), UNPACK_RECORD)},
}
"""Per table, the columns the files hold in another form: the stored field, and the SQL function that gives
the view's column back from it.  ``record`` is stored as ``record_packed`` (``ingest.packed_record``: a
skeleton of the text and its cards range-coded), about 39 bytes a deal compressed instead of 170."""

COMPUTED_COLUMNS: dict[str, dict[str, str]] = {"hands": hand_feature_sql("hand_mask")}
"""Per table, the columns the views compute from the stored ones (SQL over the file's columns), kept out of
the files: a hand's counts are bit counts of its ``hand_mask`` (``ingest.hand_features``), as cheap for
DuckDB to compute as to read, and storing them cost 5.3 MiB per 200,000 deals."""

REJECTS = pa.schema([
    pa.field("file", _STR),
    pa.field("line", _I64),
    pa.field("reason", _STR),
    pa.field("raw", _STR),
    pa.field("shard", _STR),
])

DUPLICATES = pa.schema([
    pa.field("content_hash", _STR),
    pa.field("source_file", _STR),
    pa.field("source_line", _I64),
    pa.field("source_pos", _I64),
    pa.field("shard", _STR),
    pa.field("kept_file", _STR),
    pa.field("kept_line", _I64),
    pa.field("kept_shard", _STR),
])

INGEST_RUNS = pa.schema([
    pa.field("run_id", _STR),
    pa.field("started_at", pa.timestamp("us", tz="UTC")),
    pa.field("finished_at", pa.timestamp("us", tz="UTC")),
    pa.field("seconds", pa.float64()),
    pa.field("generation", _STR),
    pa.field("rescore", _BOOL),
    pa.field("files", _I64),
    pa.field("shards", _I64),
    pa.field("shards_skipped", _I64),
    pa.field("shards_failed", _I64),
    pa.field("read", _I64),
    pa.field("stored", _I64),
    pa.field("rejected", _I64),
    pa.field("deduplicated", _I64),
    pa.field("ok", _I64),
    pa.field("renons", _I64),
    pa.field("error", _I64),
    pa.field("groups", _I64),
    pa.field("sessions_rescored", _I64),
    pa.field("engine_version", _STR),
    pa.field("options_json", _STR),
    pa.field("executor", _STR),
])

RATINGS = pa.schema([
    pa.field("ruleset", _STR, nullable=False),
    pa.field("n_players", _I32, nullable=False),
    pa.field("deal_index", _I32, nullable=False),
    pa.field("deal_id", _STR, nullable=False),
    pa.field("date", pa.date32()),
    pa.field("contract", _STR),
    pa.field("player", _STR, nullable=False),
    pa.field("games", _I32, nullable=False),
    pa.field("mu", pa.float32(), nullable=False),
    pa.field("sigma", pa.float32(), nullable=False),
    pa.field("taroks", pa.int8()),
    pa.field("kings", pa.int8()),
    pa.field("latest", _BOOL, nullable=False),
])
"""A derived table: each player's rating after every rated deal (``analysis/ratings.py`` keeps it from
``deals``, ``results`` and ``hands`` in ``<generation>/ratings/ratings.parquet``; docs/analysis.md, Ratings).
Only what the pages read, in small types: a deal's filters apply to its own ``date`` and ``contract``."""

PLAYER_TOTALS = pa.schema([
    pa.field("ruleset", _STR, nullable=False),
    pa.field("n_players", _I32, nullable=False),
    pa.field("player", _STR, nullable=False),
    pa.field("deals", _I64, nullable=False),
    pa.field("declared", _I64, nullable=False),
    pa.field("won", _I64, nullable=False),
    pa.field("scored", _I64, nullable=False),
    pa.field("score_sum", _I64),
    pa.field("radelci", _I64, nullable=False),
    pa.field("renons", _I64, nullable=False),
])
"""A derived table: per ruleset, table size and player, the sums the Players page's table is made of
(``analysis/totals.py`` keeps it in ``<generation>/player_totals/player_totals.parquet``, valid for the store
content it was computed from; docs/store.md)."""

PAIR_TOTALS = pa.schema([
    pa.field("ruleset", _STR, nullable=False),
    pa.field("n_players", _I32, nullable=False),
    pa.field("player_a", _STR, nullable=False),
    pa.field("player_b", _STR, nullable=False),
    pa.field("deals", _I64, nullable=False),
    pa.field("wins", _I64, nullable=False),
    pa.field("scored", _I64, nullable=False),
    pa.field("score_sum", _I64),
])
"""A derived table: per ruleset, table size and declarer-partner pair, the sums the Players page's pairs are
made of (``analysis/totals.py`` keeps it in ``<generation>/pair_totals/pair_totals.parquet``, valid for
the store content it was computed from; docs/store.md)."""

CARD_ANALYSIS = pa.schema([
    pa.field("deal_id", _STR, nullable=False),
    pa.field("trick", _I32, nullable=False),
    pa.field("order", _I32, nullable=False),
    pa.field("player", _STR, nullable=False),
    pa.field("card", _STR, nullable=False),
    pa.field("best_cards", _STRS, nullable=False),
    pa.field("best_points", _I32, nullable=False),
    pa.field("played_points", _I32, nullable=False),
    pa.field("point_loss", _I32, nullable=False),
    pa.field("solver_version", _STR, nullable=False),
    pa.field("ruleset", _STR),
    pa.field("n_players", _I32),
])
"""Derived by ``tarock analyse --store`` (ingest/card_analysis.py): each card's double-dummy point loss."""

GAME_ANALYSIS = pa.schema([
    pa.field("deal_id", _STR, nullable=False),
    pa.field("trick", _I32, nullable=False),
    pa.field("order", _I32, nullable=False),
    pa.field("player", _STR, nullable=False),
    pa.field("card", _STR, nullable=False),
    pa.field("declarer_side", pa.bool_(), nullable=False),
    pa.field("declarer_could_win", pa.bool_(), nullable=False),
    pa.field("declarer_can_win", pa.bool_(), nullable=False),
    pa.field("decided", pa.bool_(), nullable=False),
    pa.field("kept", _STRS, nullable=False),
    pa.field("solver_version", _STR, nullable=False),
    pa.field("ruleset", _STR),
    pa.field("n_players", _I32),
])
"""Derived by ``tarock analyse --store`` (ingest/card_analysis.py): every card from trick 1 against the contract's
win condition (``tarock.solver.decisive``); ``decided`` marks the misplays ``M_GAME_LOST``, ``kept`` the cards that
would have kept the game."""

ANALYSIS_TABLES: dict[str, pa.Schema] = {"card_analysis": CARD_ANALYSIS, "game_analysis": GAME_ANALYSIS}
"""Tables computed from the stored deals by a solver, kept beside the generations in ``<store>/<table>/`` (a
rescore changes no card's double-dummy value) and hive-partitioned by ``PARTITION_COLUMNS`` like the per-deal
tables."""

SHARD_TABLES: dict[str, pa.Schema] = {
    "findings": FINDINGS,
    "bids": BIDS,
    "announcements": ANNOUNCEMENTS,
    "tricks": TRICKS,
    "plays": PLAYS,
    "results": RESULTS,
    "hands": HANDS,
    "rejects": REJECTS,
    "deals": DEALS,
}
"""The tables a shard writes, in the order its files are published: ``deals`` last (see writer)."""

DEAL_TABLES = tuple(name for name in SHARD_TABLES if name != "rejects")
"""Tables with one or more rows per stored deal copy, partitioned by ``PARTITION_COLUMNS`` and deduplicated."""

DERIVED_TABLES: dict[str, pa.Schema] = {"ratings": RATINGS, "player_totals": PLAYER_TOTALS,
                                        "pair_totals": PAIR_TOTALS}
"""Tables computed from the others after an ingest, one file per generation (``StoreLayout.derived_path``)."""

TABLES: dict[str, pa.Schema] = {**SHARD_TABLES, "duplicates": DUPLICATES, "ingest_runs": INGEST_RUNS,
                                **DERIVED_TABLES, **ANALYSIS_TABLES}
"""Every table a store exposes."""


def file_schema(table: str) -> pa.Schema:
    """The columns stored inside a table's Parquet files: the partition columns live in the path, the
    ``COMPUTED_COLUMNS`` in the views, the ``PACKED_COLUMNS`` in their stored form, a child table's
    ``DEAL_ONLY_KEY`` in ``deals``."""
    schema = TABLES[table]
    if table not in DEAL_TABLES and table not in ANALYSIS_TABLES:
        return schema
    computed, packed = COMPUTED_COLUMNS.get(table, {}), PACKED_COLUMNS.get(table, {})
    joined = DEAL_ONLY_KEY if table in DEAL_TABLES and table != "deals" else ()
    return pa.schema([packed[f.name][0] if f.name in packed else f for f in schema
                      if f.name not in PARTITION_COLUMNS and f.name not in computed and f.name not in joined])
