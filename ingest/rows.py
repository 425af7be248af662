"""Turn check objects into the rows of the store's tables, as Arrow tables per partition.

The input per deal is exactly what ``tarock check --format json`` prints
for it (``tarock.checking.Checker.check``) plus the ``Deal`` it came from
(for what the check object does not repeat: the canonical record, bidding,
announcements, called king, date).

Built for speed, since this runs for every deal: rows are gathered per
partition (``ruleset``, ``n_players``), so nothing is filtered later; small
tables as one tuple per row, transposed with ``itemgetter`` (C speed);
tricks and plays as flat columns — the cards of all tricks in one list —
from which Arrow derives the ``plays`` table and the tricks' list columns
without converting a card twice.  Repeated strings (a child row's deal
keys, cards, player names) become dictionary arrays: no string is copied
per row, and Parquet writes them dictionary-encoded without hashing.  The
Parquet files are written without the Arrow schema, so every reader sees
plain strings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import date, datetime
from functools import lru_cache
from operator import itemgetter
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.compute as pc

from ingest.schema import DEAL_KEY, PARTITION_COLUMNS, SHARD_TABLES, file_schema
from tarock import ENGINE_VERSION
from tarock.cards import CODES
from tarock.options import OptionError, options_for
from tarock.records import ReadItem, dumps
from tarock.rulesets import ALL_COMPONENTS

SEATS = {3: ("forehand", "second", "dealer"), 4: ("forehand", "second", "third", "dealer")}
"""Seat names by number of players (DESIGN.md, "Seats in reports")."""

NO_DECLARER = frozenset(("klop", "trischaken"))
"""Contracts every player plays for himself."""

ILLEGAL_SEVERITIES = frozenset(("renons", "error"))
"""A finding of these severities pinned to a play makes that play not ``legal``."""

_KEY_NAMES = [f.name for f in DEAL_KEY]

Partition = tuple[str, int]
"""(ruleset, n_players)."""

PartTables = dict[str, list[tuple[dict[str, Any], pa.Table]]]
"""Per table: (partition values, rows without the partition columns); ``rejects`` has one unpartitioned part."""


@lru_cache(maxsize=4096)
def parse_date(text: str | None) -> date | None:
    """The calendar date of a record's ISO 8601 ``date`` (a date, or a date and time)."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return datetime.fromisoformat(text).date()


def canonical_json(obj: Any) -> str:
    """Compact JSON with sorted keys: the store's text form of small objects."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS).decode()


def short_hash(text: str) -> str:
    """16 hex digits of the SHA-256 of a text."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _from_rows(schema: pa.Schema, rows: list[tuple[Any, ...]]) -> pa.Table:
    """A table from row tuples in schema order."""
    return pa.Table.from_arrays(
        [pa.array(list(map(itemgetter(j), rows)), f.type) for j, f in enumerate(schema)], schema=schema)


def _encoded(values: list[str]) -> pa.DictionaryArray:
    """Strings with few distinct values (cards, names) as a dictionary array: converted once per value."""
    distinct = list(dict.fromkeys(values))
    index = {value: i for i, value in enumerate(distinct)}
    return pa.DictionaryArray.from_arrays(pa.array(list(map(index.__getitem__, values)), pa.int32()),
                                          pa.array(distinct, pa.string()))


def _with_keys(keys: list[pa.Array], parents: pa.Array, schema: pa.Schema, columns: list[pa.Array]) -> pa.Table:
    """A child table: its deals' key columns (``keys``, in ``DEAL_KEY`` order) and then its own columns.

    The string keys are dictionary arrays over the deals' columns (indices:
    the deal of each row), so no key string is copied, and Parquet gets
    them dictionary-encoded for free.
    """
    arrays = [pa.DictionaryArray.from_arrays(parents, key) if key.type == pa.string() else key.take(parents)
              for key in keys]
    return pa.Table.from_arrays(arrays + columns, names=schema.names)


class _PartitionRows:
    """The rows of one partition of a shard."""

    def __init__(self) -> None:
        self.deals: list[tuple[Any, ...]] = []
        self.results: list[tuple[Any, ...]] = []
        self.findings: list[tuple[Any, ...]] = []
        self.bids: list[tuple[Any, ...]] = []
        self.announcements: list[tuple[Any, ...]] = []
        # tricks, one entry per trick ...
        self.trick_deal: list[int] = []
        self.trick_no: list[int] = []
        self.leader: list[str] = []
        self.winner: list[str] = []
        self.points: list[int] = []
        self.trick_size: list[int] = []
        # ... and their plays, one entry per card
        self.cards: list[str] = []
        self.players: list[str] = []
        self.illegal: dict[int, str] = {}  # play index -> finding code

    def tables(self) -> dict[str, pa.Table]:
        deals = _from_rows(file_schema("deals"), self.deals)
        keys = [deals[name].combine_chunks() for name in _KEY_NAMES]
        out = {"deals": deals}
        for name in ("results", "findings", "bids", "announcements"):
            schema = file_schema(name)
            own = list(schema)[len(_KEY_NAMES):]
            rows: list[tuple[Any, ...]] = getattr(self, name)
            parents = pa.array(list(map(itemgetter(0), rows)), pa.int32())
            columns = [pa.array(list(map(itemgetter(j + 1), rows)), f.type) for j, f in enumerate(own)]
            out[name] = _with_keys(keys, parents, schema, columns)
        out.update(self._trick_tables(keys))
        return out

    def _trick_tables(self, keys: list[pa.Array]) -> dict[str, pa.Table]:
        """``tricks`` and ``plays``, both from the flat card and player columns."""
        offsets = [0]
        for size in self.trick_size:
            offsets.append(offsets[-1] + size)
        offset_array = pa.array(offsets, pa.int32())
        cards = _encoded(self.cards)
        players = _encoded(self.players)
        trick_deal = pa.array(self.trick_deal, pa.int32())
        trick_no = pa.array(self.trick_no, pa.int32())
        tricks = _with_keys(keys, trick_deal, file_schema("tricks"), [
            trick_no, _encoded(self.leader), _encoded(self.winner),
            pa.ListArray.from_arrays(offset_array, cards), pa.ListArray.from_arrays(offset_array, players),
            pa.array(self.points, pa.int32()),
        ])
        n = len(self.cards)
        trick_of_play = pc.list_parent_indices(pa.ListArray.from_arrays(offset_array, cards))
        position = pc.subtract(pa.array(range(n), pa.int32()), offset_array.take(trick_of_play))
        legal = [True] * n
        codes: list[str | None] = [None] * n
        for index, code in self.illegal.items():
            legal[index] = False
            codes[index] = code
        plays = _with_keys(keys, trick_deal.take(trick_of_play), file_schema("plays"), [
            trick_no.take(trick_of_play), position, players, cards,
            pa.array(legal, pa.bool_()), pa.array(codes, pa.string()),
        ])
        return {"tricks": tricks, "plays": plays}


class ShardRows:
    """The rows of one shard's tables, gathered deal by deal.

    ``overrides`` are the ruleset options given to the ingest (on top of
    each record's own), used for the ``options_json`` of each deal.
    """

    def __init__(self, shard_key: str, overrides: Mapping[str, Any] | None = None) -> None:
        self.shard_key = shard_key
        self.overrides = dict(overrides or {})
        self.counts = {"ok": 0, "renons": 0, "error": 0}
        self._parts: dict[Partition, _PartitionRows] = {}
        self._rejects: list[tuple[Any, ...]] = []
        self._options: dict[tuple[str, bytes], tuple[str, str]] = {}

    @property
    def rejected(self) -> int:
        return len(self._rejects)

    def add_reject(self, file: str, line: int, reason: str, raw: str | None) -> None:
        """An input item that is not a record (or could not be checked)."""
        self._rejects.append((file, line, reason, raw, self.shard_key))

    def _effective_options(self, ruleset: str, raw: Mapping[str, Any]) -> tuple[str, str]:
        """(options_json, options_hash) of a deal: its options with the overrides, where not the defaults."""
        key = (ruleset, orjson.dumps(dict(raw), option=orjson.OPT_SORT_KEYS) if raw else b"")
        hit = self._options.get(key)
        if hit is None:
            effective: dict[str, Any] = {**raw, **self.overrides}
            try:
                effective = options_for(ruleset, raw, self.overrides).changed()
            except OptionError:
                pass
            text = canonical_json(effective)
            hit = self._options[key] = (text, short_hash(text))
        return hit

    def add_deal(self, item: ReadItem, check: dict[str, Any]) -> None:
        """One record and its check object: a ``deals`` row and its child rows.

        All rows are built before any is added, so an exception leaves the
        shard's rows as they were (the caller rejects the record instead).
        """
        deal = item.deal
        assert deal is not None
        players = check["players"]
        key = (deal.ruleset, len(players))
        part = self._parts.get(key) or _PartitionRows()
        i = len(part.deals)
        record = dumps(deal)
        findings = check["findings"]
        card_points = check["card_points"]
        status = check["status"]
        options_json, options_hash = self._effective_options(deal.ruleset, deal.options)
        illegal: dict[tuple[int, int], str] = {}
        finding_rows = []
        for idx, f in enumerate(findings):
            if f["severity"] in ILLEGAL_SEVERITIES and f["trick"] is not None and f["position"] is not None:
                illegal.setdefault((f["trick"], f["position"]), f["code"])
            finding_rows.append((i, idx, f["code"], f["severity"], f["trick"], f["position"], f["player"], f["card"],
                                 f["message"], f["file"], f["line"]))
        sides = card_points is not None and "declarer_side" in card_points
        deal_row = (
            check["id"], hashlib.sha256(record.encode()).hexdigest(), item.file, item.line, self.shard_key,
            players, deal.session, deal.seq, parse_date(deal.date), players[-1], players[0], check["contract"],
            check["declarer"], check["partner"], None if deal.called_king is None else CODES[deal.called_king],
            status, check["won"], card_points["declarer_side"] if sides else None,
            card_points["opponents"] if sides else None, None if card_points is None else canonical_json(card_points),
            len(check["tricks"]), len(findings), sum(f["severity"] == "renons" for f in findings),
            deal.recorded is not None, any(f["code"] == "A_SCORE_MISMATCH" for f in findings), options_hash,
            options_json, ENGINE_VERSION, record,
        )
        result_rows = self._result_rows(i, check)
        tricks = check["tricks"]
        trick_cards = [t["cards"] for t in tricks]
        trick_players = [t["players"] for t in tricks]
        trick_columns = ([t["leader"] for t in tricks], [t["winner"] for t in tricks], [t["points"] for t in tricks])
        sizes = [len(cards) for cards in trick_cards]
        # every row is built: add them
        self._parts[key] = part
        self.counts[status] = self.counts.get(status, 0) + 1
        part.deals.append(deal_row)
        part.findings.extend(finding_rows)
        part.results.extend(result_rows)
        part.bids.extend((i, idx, player, bid) for idx, (player, bid) in enumerate(deal.bidding or ()))
        part.announcements.extend((i, idx, a.player, a.bonus, a.kontra, a.level, a.against)
                                  for idx, a in enumerate(deal.announcements))
        first_play = len(part.cards)
        for cards, who in zip(trick_cards, trick_players):
            part.cards.extend(cards)
            part.players.extend(who)
        part.trick_size.extend(sizes)
        part.leader.extend(trick_columns[0])
        part.winner.extend(trick_columns[1])
        part.points.extend(trick_columns[2])
        part.trick_deal.extend([i] * len(tricks))
        part.trick_no.extend(range(1, len(tricks) + 1))
        for (trick_no, position), code in illegal.items():
            if 1 <= trick_no <= len(sizes) and 0 <= position < sizes[trick_no - 1]:
                part.illegal[first_play + sum(sizes[:trick_no - 1]) + position] = code

    @staticmethod
    def _result_rows(i: int, check: dict[str, Any]) -> list[tuple[Any, ...]]:
        """The ``results`` rows of a deal: one per player, with the breakdown summed per component."""
        players = check["players"]
        scores = check["scores"]
        recorded = check["recorded"]
        breakdown = check["breakdown"] or ()
        before, after, unpenalised = check["radelci_before"], check["radelci_after"], check["unpenalised"]
        declarer, partner, won = check["declarer"], check["partner"], check["won"]
        declarers = check.get("declarers") or [declarer]  # Königrufen: several play one negative game
        klop = declarer is None and check["contract"] in NO_DECLARER
        seats = SEATS.get(len(players), ())
        rows = []
        for seat_no, player in enumerate(players):
            if klop:
                role: str | None = "klop"
            elif declarer is None:
                role = None
            else:
                role = "declarer" if player in declarers else "partner" if player == partner else "opponent"
            lines = [line for line in breakdown if player in line["players"]]
            if scores is None:
                score = diff = None
                components: list[int | None] = [None] * len(ALL_COMPONENTS)
            else:
                score = scores[player]
                diff = None if recorded is None else recorded.get(player, 0) - score
                sums = dict.fromkeys(ALL_COMPONENTS, 0)
                for line in lines:
                    sums[line["component"]] += line["value"]
                components = list(sums.values())
            player_won = None if won is None or role not in ("declarer", "partner", "opponent") else (
                won if role != "opponent" else not won)
            rows.append((
                i, player, seats[seat_no] if seat_no < len(seats) else None, seat_no, role, score,
                None if recorded is None else recorded.get(player), diff,
                None if unpenalised is None else unpenalised.get(player),
                None if before is None else before.get(player), None if after is None else after.get(player),
                check["penalty"], player_won, None if scores is None else orjson.dumps(lines).decode(),
                *components,
            ))
        return rows

    def tables(self) -> PartTables:
        """Every table of the shard, split by partition (see ``PartTables``)."""
        out: PartTables = {name: [] for name in SHARD_TABLES}
        for (ruleset, n_players), part in sorted(self._parts.items()):
            values = dict(zip(PARTITION_COLUMNS, (ruleset, n_players)))
            for name, table in part.tables().items():
                out[name].append((values, table))
        out["rejects"].append(({}, _from_rows(file_schema("rejects"), self._rejects)))
        return out
