"""Turn check results into the rows of the store's tables, as Arrow tables per partition.

The input per deal is its check result (``tarock.check.result.DealCheck``,
what ``tarock check --format json`` prints for it) plus the ``Deal`` it came from
(for what the check result does not repeat: the canonical record, bidding,
announcements, called king, date).

Built for speed, since this runs for every deal.  Rows are gathered per
partition (``ruleset``, ``n_players``), so nothing is filtered later.  Per
deal only what needs Python is done: one tuple for the ``deals`` row, one
of per-player tuples for ``results``, and the tricks' fields appended to
flat lists (the cards of all tricks in one list).  What is kept is tuples
of plain values, which the garbage collector stops tracking, so a growing
shard costs it nothing.  Everything derived — parent indices, trick
numbers, positions, seats, player names, a player's ``won``, the summed
breakdown components — is computed once per partition with numpy and Arrow
compute, and each column is converted to Arrow once (tuples are transposed
by ``zip``).  A child row's deal key columns are dictionary arrays over the
deals' distinct keys (encoded once), so no key string is copied per row
and Parquet writes small dictionaries without hashing the keys again; the
cards and player names of ``tricks`` and ``plays`` are converted once for
both tables.  The Parquet files are written without the Arrow schema, so
every reader sees plain strings.

The clean deals of ingest's bulk path (``ingest.bulk``) come without a
check result: ``CleanRows`` gathers what the compiled kernel appends for
them, and a partition's two kinds of rows are merged in the order their
deals were added (``ShardRows.tables``), so the files are the same
whichever path a deal took.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import date, datetime
from functools import lru_cache
from itertools import chain
from typing import Any

import msgspec
import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc

from ingest.hands import HandEntry, entry_of_cards, hands_columns
from ingest.packed_record import pack
from ingest.schema import DEAL_KEY, DEAL_ONLY_KEY, PARTITION_COLUMNS, SHARD_TABLES, file_schema
from tarock import ENGINE_VERSION
from tarock.cards import CARD_POINTS, CODES
from tarock.check.result import CheckedFinding, DealCheck, Trick
from tarock.options import OptionError, options_for
from tarock.formats.codec import dumps
from tarock.formats.items import ReadItem
from tarock.rules.rulesets import ALL_COMPONENTS, NO_DECLARER, SEATS

ILLEGAL_SEVERITIES = frozenset(("renons", "error"))
"""A finding of these severities pinned to a play makes that play not ``legal``."""

_KEY_NAMES = [f.name for f in DEAL_KEY if f.name not in DEAL_ONLY_KEY]
"""The key columns a child table's file repeats from its deal: the stored copy's."""
_COMPONENT_INDEX = {name: j for j, name in enumerate(ALL_COMPONENTS)}
_SIDES = ("declarer", "partner", "opponent")
"""The roles whose ``won`` follows the deal's (an opponent's is its negation)."""
_DICTIONARY = pa.dictionary(pa.int32(), pa.string())
_RESULT_FIELDS = 9
"""The fields of a deal's ``results`` values: its penalty policy and eight per player (``_result_values``)."""

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


POS_SHIFT = 32
"""``source_pos`` = line << POS_SHIFT | index: room for 2**32 records starting on one line (a record takes at
least a few hundred bytes, and the gzip reader stops at 8 GiB)."""


def source_pos(line: int, index: int) -> int:
    """The stored copy's place in its file (``deals.source_pos``): its line and its index among the records
    that start on that line (``tarock.formats.items.ReadItem.index``), in one integer, unique in the file by
    construction and ordered as the records are."""
    return line << POS_SHIFT | index


POS_INDEX = (1 << POS_SHIFT) - 1
"""``source_pos & POS_INDEX``: the record's index among those starting on its line."""


def canonical_json(obj: Any) -> str:
    """Compact JSON with sorted keys: the store's text form of small objects."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS).decode()


def short_hash(text: str) -> str:
    """16 hex digits of the SHA-256 of a text."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _transposed(rows: list[tuple[Any, ...]], width: int) -> list[tuple[Any, ...]]:
    """The columns of tuples of ``width`` fields (``zip`` transposes them in one pass over the rows)."""
    return list(zip(*rows)) or [()] * width


def _from_rows(schema: pa.Schema, rows: list[tuple[Any, ...]]) -> pa.Table:
    """A table from row tuples in schema order."""
    columns = _transposed(rows, len(schema))
    return pa.Table.from_arrays([pa.array(c, f.type) for c, f in zip(columns, schema)], schema=schema)


def _encoded(values: list[str]) -> pa.Array:
    """Strings with few distinct values (cards, names) as a dictionary array: each value converted once."""
    return pa.array(values, _DICTIONARY)


class _Keys:
    """The deal key columns of a partition's deals, ready to repeat for child rows."""

    def __init__(self, deals: pa.Table) -> None:
        self._columns: list[tuple[np.ndarray | None, pa.Array]] = []
        """Per key column: the indices of a dictionary-encoded one (None: all distinct, in deal order), and
        its dictionary; or, for one that is not a string, its values as numpy and the column."""
        for name in _KEY_NAMES:
            column = deals[name].combine_chunks()
            if column.type != pa.string():
                self._columns.append((column.to_numpy(), column))
                continue
            encoded = pc.dictionary_encode(column)
            assert isinstance(encoded, pa.DictionaryArray)  # an array's encoding is one array
            distinct = len(encoded.dictionary) == len(column)  # then the indices are 0, 1, 2 …
            self._columns.append((None if distinct else encoded.indices.to_numpy(), encoded.dictionary))

    def table(self, parents: np.ndarray, schema: pa.Schema, columns: list[pa.Array]) -> pa.Table:
        """A child table: the key columns of each row's deal (``parents``), then its own ``columns``.

        The string keys are dictionary arrays over the deals' distinct
        values, so no key string is copied, and Parquet gets them
        dictionary-encoded for free.
        """
        parents = np.asarray(parents, np.int32)
        keys: list[pa.Array] = []
        for indices, values in self._columns:
            if values.type != pa.string():
                assert indices is not None  # a column that is not a string keeps its values (``__init__``)
                keys.append(pa.array(indices[parents]))
            else:
                keys.append(pa.DictionaryArray.from_arrays(parents if indices is None else indices[parents], values,
                                                           safe=False))  # indices of these very values
        return pa.Table.from_arrays(keys + columns, names=schema.names)


def _stored_form(deals: pa.Table) -> pa.Table:
    """``deals`` as the files hold it (docs/store.md, "What the files leave to the views"): the records packed
    (``ingest.packed_record``)."""
    at = deals.schema.get_field_index("record_packed")  # holding the records' text until here
    return deals.set_column(at, deals.schema.field(at), pack(deals.column(at)))


def _owned_by(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(group, rank) of each row of consecutive groups of ``counts`` rows: its group, its 0-based place."""
    starts = np.zeros(len(counts), np.int64)
    np.cumsum(counts[:-1], out=starts[1:])
    parent = np.repeat(np.arange(len(counts), dtype=np.int32), counts)
    rank = (np.arange(len(parent), dtype=np.int64) - starts[parent]).astype(np.int32)
    return parent, rank


class _PartitionRows:
    """The rows of one partition of a shard: per-deal values and flat per-trick and per-card columns."""

    def __init__(self, n_players: int) -> None:
        self.n_players = n_players
        self.no_values = (None,) * n_players
        """A per-player field that is null for every player."""
        self.deals: list[tuple[Any, ...]] = []
        self.results: list[tuple[Any, ...]] = []
        """Per deal: (penalty, then one tuple per field with a value per player; see ``_result_values``)."""
        self.component_row: list[int] = []
        self.component: list[int] = []
        self.component_value: list[int] = []
        """The breakdown lines of each scored player: ``results`` row, ``ALL_COMPONENTS`` index, value."""
        self.findings: list[tuple[Any, ...]] = []
        self.bids: list[tuple[Any, ...]] = []
        self.announcements: list[tuple[Any, ...]] = []
        self.hands: list[HandEntry] = []
        """The dealt hands of the deals whose record gives them (``ingest.hands``)."""
        # tricks, one entry per trick ...
        self.leader: list[str] = []
        self.winner: list[str] = []
        self.points: list[int] = []
        self.trick_size: list[int] = []
        # ... and their plays, one entry per card
        self.cards: list[str] = []
        self.players: list[str] = []
        self.illegal: dict[int, str] = {}  # play index -> finding code

    def add_tricks(self, tricks: list[Trick], illegal: dict[tuple[int, int], str] | None) -> None:
        """A deal's tricks, and which of its plays are not legal; on an error nothing is added."""
        leader, winner, points, sizes, all_cards, all_players = (
            self.leader, self.winner, self.points, self.trick_size, self.cards, self.players)
        first_trick, first_play = len(leader), len(all_cards)
        try:
            for trick in tricks:
                leader.append(trick["leader"])
                winner.append(trick["winner"])
                points.append(trick["points"])
                cards = trick["cards"]
                sizes.append(len(cards))
                all_cards += cards
                all_players += trick["players"]
        except BaseException:
            for column in (leader, winner, points, sizes):
                del column[first_trick:]
            del all_cards[first_play:]
            del all_players[first_play:]
            raise
        if illegal:
            sizes = self.trick_size[first_trick:]
            for (trick_no, position), code in illegal.items():
                if 1 <= trick_no <= len(sizes) and 0 <= position < sizes[trick_no - 1]:
                    self.illegal[first_play + sum(sizes[:trick_no - 1]) + position] = code

    def tables(self) -> dict[str, pa.Table]:
        """The partition's tables, by name (without the partition columns)."""
        deals = _stored_form(self._deals_table())
        keys = _Keys(deals)
        out = {"deals": deals, "results": self._results_table(keys, deals)}
        for name in ("findings", "bids", "announcements"):
            schema = file_schema(name)
            own = list(schema)[len(_KEY_NAMES):]
            parents, *columns = _transposed(getattr(self, name), 1 + len(own))
            out[name] = keys.table(np.array(parents, np.int32), schema,
                                   [pa.array(c, f.type) for c, f in zip(columns, own)])
        out.update(self._trick_tables(keys, deals["n_tricks"].to_numpy()))
        out["hands"] = self._hands_table(keys, deals)
        return out

    def _hands_table(self, keys: _Keys, deals: pa.Table) -> pa.Table:
        """``hands``: one row per player of each deal with hands, its features computed per column."""
        parents, seats, columns = hands_columns(self._hand_entries(), self.n_players)
        players = deals["players"].combine_chunks()
        assert isinstance(players, pa.ListArray)  # the deals' ``players`` column is a list of names
        names = players.flatten().take(pa.array(parents.astype(np.int64) * self.n_players + seats))
        return keys.table(parents, file_schema("hands"), [names, pa.array(seats), *columns])

    def _hand_entries(self) -> list[HandEntry] | np.ndarray:
        return self.hands

    def _results_table(self, keys: _Keys, deals: pa.Table) -> pa.Table:
        """``results``: the per-player values, with the seats, names and ``won`` derived per column."""
        n, n_deals = self.n_players, len(self.deals)
        parents = np.repeat(np.arange(n_deals, dtype=np.int32), n)
        seat_no = np.tile(np.arange(n, dtype=np.int32), n_deals)
        seats = SEATS.get(n, ())
        penalty, role, score, recorded, diff, unpenalised, before, after, breakdown = self._per_player()
        role_array = pa.array(role, pa.string())
        won = deals["won"].combine_chunks().take(parents)
        player_won = pc.if_else(pc.is_in(role_array, value_set=pa.array(_SIDES)),
                                pc.if_else(pc.equal(role_array, pa.scalar("opponent")), pc.invert(won), won),
                                pa.scalar(None, pa.bool_()))
        score_array = pa.array(score, pa.int32())
        width = len(ALL_COMPONENTS)
        cells = np.asarray(self.component, np.int64) * (n * n_deals) + np.asarray(self.component_row, np.int64)
        # summed per (component, row), component-major so each component's column is one contiguous run
        sums = np.bincount(cells, np.asarray(self.component_value, np.float64), width * n * n_deals)
        components = sums.astype(np.int32).reshape(width, n * n_deals)
        unscored = score_array.is_null().to_numpy(zero_copy_only=False) if score_array.null_count else None
        players = deals["players"].combine_chunks()
        assert isinstance(players, pa.ListArray)  # the deals' ``players`` column is a list of names
        return keys.table(parents, file_schema("results"), [
            players.flatten(),
            pa.array([seats[s] if s < len(seats) else None for s in range(n)], pa.string()).take(seat_no),
            pa.array(seat_no),
            role_array,
            score_array,
            *(pa.array(column, pa.int32()) for column in (recorded, diff, unpenalised, before, after)),
            pa.array(penalty, pa.string()).take(parents),
            player_won,
            pa.array(breakdown, pa.string()),
            *(pa.array(components[j], pa.int32(), mask=unscored) for j in range(width)),
        ])

    def _deals_table(self) -> pa.Table:
        return _from_rows(file_schema("deals"), self.deals)

    def _per_player(self) -> tuple[list[Any], ...]:
        """The ``results`` values as columns: the penalty per deal, then role, score, recorded score,
        score diff, unpenalised, radelci before and after, breakdown JSON, per player of each deal."""
        penalty, *per_player = _transposed(self.results, _RESULT_FIELDS)
        return (list(penalty), *(list(chain.from_iterable(column)) for column in per_player))

    def _trick_tables(self, keys: _Keys, tricks_per_deal: np.ndarray) -> dict[str, pa.Table]:
        """``tricks`` and ``plays``, both from the flat card and player columns."""
        trick_deal, trick_index = _owned_by(tricks_per_deal)
        trick_no = trick_index + 1
        sizes = np.array(self.trick_size, np.int32)
        offsets = np.zeros(len(sizes) + 1, np.int32)
        np.cumsum(sizes, out=offsets[1:])
        offset_array = pa.array(offsets, pa.int32())
        cards = _encoded(self.cards)
        players = _encoded(self.players)
        tricks = keys.table(trick_deal, file_schema("tricks"), [
            pa.array(trick_no), _encoded(self.leader), _encoded(self.winner),
            pa.ListArray.from_arrays(offset_array, cards), pa.ListArray.from_arrays(offset_array, players),
            pa.array(self.points, pa.int32()),
        ])
        trick_of_play, position = _owned_by(sizes)
        legal = np.ones(len(self.cards), np.bool_)
        if self.illegal:
            legal[list(self.illegal)] = False
            codes: list[str | None] = [None] * len(self.cards)
            for index, code in self.illegal.items():
                codes[index] = code
            code_array = pa.array(codes, pa.string())
        else:
            code_array = pa.nulls(len(self.cards), pa.string())
        plays = keys.table(trick_deal[trick_of_play], file_schema("plays"), [
            pa.array(trick_no[trick_of_play]), pa.array(position), players, cards, pa.array(legal),
            code_array,
        ])
        return {"tricks": tricks, "plays": plays}


class CleanRows(_PartitionRows):
    """The rows of a partition's clean deals, as ingest's bulk path (``ingest.bulk``) gathers them.

    A ``deals`` row holds only what differs between clean deals (``ROW``):
    the columns every clean deal of a shard shares, and the players and
    seats (from the deal's roster), are made per column.  The ``results``
    values are flat per-player columns (a clean deal has no penalty, and a
    score sheet only when it says what was recomputed).  The tricks come as
    the bulk path writes them (``ingest._bulkrows.add_clean``: per trick its
    cards, the seats that played them and the winner's seat, a byte each)
    and the breakdown lines as the fast scorer writes them (int32 triples:
    ``results`` row, component, value), so a clean deal costs no Python
    object per trick or card; names and codes are looked up per column.
    """

    ROW = ("deal_id", "content_hash", "source_line", "source_pos", "session", "seq", "date", "contract", "declarer",
           "partner", "called_king", "won", "declarer_points", "opponents_points", "card_points_json", "n_tricks",
           "has_recorded", "options_hash", "options_json", "record")
    """The ``deals`` columns of a clean deal's row, in its order (the record's text may be UTF-8 bytes): the
    order ``ingest._bulkrows`` writes (its ``DEAL_ROW``, which ``ingest.bulk`` checks)."""

    def __init__(self, n_players: int, file: str, shard_key: str) -> None:
        super().__init__(n_players)
        self._shared = {"source_file": file, "shard": shard_key, "status": "ok", "n_findings": 0, "n_renons": 0,
                        "score_mismatch": False, "engine_version": ENGINE_VERSION}
        """The ``deals`` columns every clean deal of the shard shares."""
        self.trick_bytes = bytearray()
        self.component_bytes = bytearray()
        self.hand_bytes = bytearray()
        """Per deal its ``hands`` entry (``ingest.hands.HandEntry``) as native int64s."""
        self._rosters: dict[tuple[str, ...], int] = {}
        self._roster_of: list[int] = []
        self._roles: list[str | None] = []
        self._scores: list[int] = []
        self._before: list[int] = []
        self._after: list[int] = []
        self._breakdown: list[str] = []
        self._recorded: list[int | None] = []
        self._diff: list[int | None] = []

    def columns(self) -> dict[str, Any]:
        """Where the bulk path appends a clean deal's values, by the names ``ingest._bulkrows.add_clean`` reads
        them (``CONTEXT_FIELDS``): the tricks', hands' and breakdown lines' buffers, its ``deals`` row
        (``ROW``), per player the ``results`` columns of the same name, the index of its roster, and the
        rosters by their players."""
        return {"trick_bytes": self.trick_bytes, "component_bytes": self.component_bytes,
                "hand_bytes": self.hand_bytes, "deals": self.deals,
                "role": self._roles, "score": self._scores, "radelci_before": self._before,
                "radelci_after": self._after, "breakdown_json": self._breakdown, "recorded_score": self._recorded,
                "score_diff": self._diff, "roster_of": self._roster_of, "rosters": self._rosters}

    def _hand_entries(self) -> np.ndarray:
        return np.frombuffer(self.hand_bytes, np.int64)

    def _per_player(self) -> tuple[list[Any], ...]:
        return (["none"] * len(self.deals), self._roles, self._scores, self._recorded, self._diff,
                [None] * len(self._scores), self._before, self._after, self._breakdown)

    def tables(self) -> dict[str, pa.Table]:
        triples = np.frombuffer(self.component_bytes, "<i4").reshape(-1, 3)
        self.component_row, self.component, self.component_value = triples.T  # type: ignore[assignment]
        self._names = self._names_of_rosters()
        return super().tables()

    def _names_of_rosters(self) -> tuple[pa.Array, np.ndarray, np.ndarray]:
        """Every player name of the partition's deals, each deal's roster (an index into the next), and per
        roster the indices of its players' names (``_names``, for the deals and the trick tables)."""
        names = list(dict.fromkeys(chain.from_iterable(self._rosters)))
        index = {name: i for i, name in enumerate(names)}
        roster_names = np.array([[index[p] for p in roster] for roster in self._rosters], np.int32)
        return (pa.array(names, pa.string()), np.array(self._roster_of, np.int32),
                roster_names.reshape(-1, self.n_players))

    def _deals_table(self) -> pa.Table:
        n, count = self.n_players, len(self.deals)
        schema = file_schema("deals")
        own = dict(zip(self.ROW, _transposed(self.deals, len(self.ROW))))
        names, roster, roster_names = self._names
        seats = roster_names[roster]
        offsets = pa.array(np.arange(0, count * n + 1, n, dtype=np.int32), pa.int32())
        players = pa.ListArray.from_arrays(offsets, names.take(pa.array(seats.ravel())))
        made = {"players": players, "dealer": names.take(pa.array(seats[:, -1])),
                "forehand": names.take(pa.array(seats[:, 0]))}
        columns = []
        own["record_packed"] = own.pop("record")  # the text, packed by ``_stored_form``
        for field in schema:
            if field.name in made:
                columns.append(made[field.name])
            elif field.name in own:
                columns.append(pa.array(own[field.name], field.type))
            else:
                columns.append(pa.repeat(pa.scalar(self._shared[field.name], field.type), count))
        return pa.Table.from_arrays(columns, schema=schema)

    def _trick_tables(self, keys: _Keys, tricks_per_deal: np.ndarray) -> dict[str, pa.Table]:
        n = self.n_players
        raw = np.frombuffer(self.trick_bytes, np.uint8).reshape(-1, 2 * n + 1)
        cards, seats, winners = raw[:, :n], raw[:, n:2 * n], raw[:, 2 * n]
        trick_deal, trick_index = _owned_by(tricks_per_deal)
        trick_no = trick_index + 1
        name_dictionary, roster_of, roster_names = self._names
        roster = roster_of[trick_deal]

        def named(seat_columns: np.ndarray) -> pa.DictionaryArray:
            at = roster_names[roster.reshape(-1, 1), seat_columns.reshape(len(roster), -1)].ravel()
            return pa.DictionaryArray.from_arrays(pa.array(at, pa.int32()), name_dictionary, safe=False)

        codes = pa.array(cards.ravel().astype(np.int32), pa.int32())
        card_array = pa.DictionaryArray.from_arrays(codes, _CODE_DICTIONARY, safe=False)  # the kernel writes only cards
        players = named(seats)
        offsets = pa.array(np.arange(0, len(raw) * n + 1, n, dtype=np.int32), pa.int32())
        tricks = keys.table(trick_deal, file_schema("tricks"), [
            pa.array(trick_no), named(seats[:, 0]), named(winners),
            pa.ListArray.from_arrays(offsets, card_array), pa.ListArray.from_arrays(offsets, players),
            pa.array(_RAW_POINTS[cards].sum(axis=1, dtype=np.int32)),
        ])
        plays = keys.table(np.repeat(trick_deal, n), file_schema("plays"), [
            pa.array(np.repeat(trick_no, n)), pa.array(np.tile(np.arange(n, dtype=np.int32), len(raw))), players,
            card_array, pa.array(np.ones(len(raw) * n, np.bool_)), pa.nulls(len(raw) * n, pa.string()),
        ])
        return {"tricks": tricks, "plays": plays}


_CODE_DICTIONARY = pa.array(CODES, pa.string())
_RAW_POINTS = np.array(CARD_POINTS, np.int32)
"""Each card's raw points: a trick's ``points`` (``tarock.check.summary``)."""


def _finding_rows(i: int, findings: list[CheckedFinding]
                  ) -> tuple[list[tuple[Any, ...]], dict[tuple[int, int], str]]:
    """A deal's ``findings`` rows, and the code of the first illegal finding at each (trick, position)."""
    illegal: dict[tuple[int, int], str] = {}
    rows = []
    for idx, f in enumerate(findings):
        if f.severity in ILLEGAL_SEVERITIES and f.trick is not None and f.position is not None:
            illegal.setdefault((f.trick, f.position), f.code)
        rows.append((i, idx, f.code, f.severity, f.trick, f.position, f.player, f.card, f.message, f.file,
                     f.line))
    return rows, illegal


class ShardRows:
    """The rows of one shard's tables, gathered deal by deal.

    ``overrides`` are the ruleset options given to the ingest (on top of
    each record's own), used for the ``options_json`` of each deal.
    """

    def __init__(self, shard_key: str, overrides: Mapping[str, Any] | None = None) -> None:
        self.shard_key = shard_key
        self.overrides = dict(overrides or {})
        self._counts = {"ok": 0, "renons": 0, "error": 0}
        self._parts: dict[Partition, _PartitionRows] = {}
        self._clean: dict[Partition, CleanRows] = {}
        self._positions: list[int] = []
        """The ``source_pos`` of every deal added, in the order added (the rows' order in the files)."""
        self._rejects: list[tuple[Any, ...]] = []
        """The items read that are not records, in the order read (flushed with each batch: ``take_batch``)."""
        self._late: list[tuple[Any, ...]] = []
        """The records rejected while checking them (rare), kept to the end of the shard: after every item
        rejected when read, whatever the batches."""
        self._read_rejected = 0
        """Items rejected when read, in batches already taken."""
        self._clean_taken = 0
        """Clean deals of the bulk path in batches already taken."""
        self._options: dict[tuple[str, bytes], tuple[str, str]] = {}

    @property
    def counts(self) -> dict[str, int]:
        """Deals by status (every clean deal of the bulk path is ``ok``)."""
        clean = self._clean_taken + sum(len(part.deals) for part in self._clean.values())
        return {**self._counts, "ok": self._counts["ok"] + clean}

    @property
    def rejected(self) -> int:
        """Items rejected so far, when read or when checked."""
        return self._read_rejected + len(self._rejects) + len(self._late)

    @property
    def read_rejected(self) -> int:
        """Items rejected so far when read (items that are not records)."""
        return self._read_rejected + len(self._rejects)

    @property
    def batch_deals(self) -> int:
        """Deals added since the last ``take_batch``."""
        return len(self._positions)

    def add_reject(self, file: str, line: int, reason: str, raw: str | None, late: bool = False) -> None:
        """An input item that is not a record; ``late``: a record that could not be checked (or stored),
        written after every item rejected when read."""
        (self._late if late else self._rejects).append((file, line, reason, raw, self.shard_key))

    def forget_rejects(self) -> None:
        """Drop the rejects gathered so far (a first pass over a shard that is read again)."""
        self._rejects = []
        self._read_rejected = 0

    def effective_options(self, ruleset: str, raw: Mapping[str, Any]) -> tuple[str, str]:
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

    def add_deal(self, item: ReadItem, check: DealCheck) -> None:
        """One record and its check result: a ``deals`` row and its child rows.

        Everything that can fail is computed before anything is added (and
        ``add_tricks`` undoes itself), so an exception leaves the shard's
        rows as they were (the caller rejects the record instead).
        """
        deal = item.deal
        assert deal is not None
        players = check.players
        key = (deal.ruleset, len(players))
        part = self._parts.get(key) or _PartitionRows(len(players))
        i = len(part.deals)
        record = dumps(deal) if item.text is None else item.text  # the reader's canonical text, when it kept it
        findings = check.findings
        card_points = check.card_points
        status = check.status
        options_json, options_hash = self.effective_options(deal.ruleset, deal.options)
        pos = source_pos(item.line, item.index)
        if findings:
            finding_rows, illegal = _finding_rows(i, findings)
            renons = sum(f.severity == "renons" for f in findings)
            mismatch = any(f.code == "A_SCORE_MISMATCH" for f in findings)
        else:
            finding_rows, illegal, renons, mismatch = [], None, 0, False
        declarer_side = opponents = None  # two sides' card points (Klop and Trischaken: per player)
        if card_points is not None and "declarer_side" in card_points:
            declarer_side, opponents = card_points["declarer_side"], card_points["opponents"]
        deal_row = (
            check.id, hashlib.sha256(record.encode()).hexdigest(), item.file, item.line, pos, self.shard_key,
            tuple(players), deal.session, deal.seq, parse_date(deal.date), players[-1], players[0],
            check.contract, check.declarer, check.partner,
            None if deal.called_king is None else CODES[deal.called_king], status, check.won,
            declarer_side, opponents,
            None if card_points is None else canonical_json(card_points), len(check.tricks), len(findings),
            renons, deal.recorded is not None, mismatch, options_hash, options_json, ENGINE_VERSION, record,
        )
        results, components = _result_values(check, part.no_values, i * len(players))
        bids = [(i, idx, player, bid) for idx, (player, bid) in enumerate(deal.bidding or ())]
        announcements = [(i, idx, a.player, a.bonus, a.kontra, a.level, a.against)
                         for idx, a in enumerate(deal.announcements)]
        hand_entry = None if deal.hands is None or len(deal.hands) != len(players) else entry_of_cards(
            i, deal.hands, deal.talon, deal.talon_pick,
            players.index(check.declarer) if check.declarer in players else -1, deal.called_king)
        part.add_tricks(check.tricks, illegal)
        # every row is built and the tricks are in: add the rest (nothing below can fail)
        self._parts[key] = part
        self._positions.append(pos)
        self._counts[status] = self._counts.get(status, 0) + 1
        part.deals.append(deal_row)
        part.results.append(results)
        if components:
            part.component_row.extend(components[0])
            part.component.extend(components[1])
            part.component_value.extend(components[2])
        part.findings.extend(finding_rows)
        part.bids.extend(bids)
        part.announcements.extend(announcements)
        if hand_entry is not None:
            part.hands.append(hand_entry)

    def clean_part(self, ruleset: str, n_players: int, file: str) -> CleanRows:
        """Where ingest's bulk path puts the rows of clean deals of this partition, read from ``file`` (see
        ``CleanRows``); ``added`` tells it of each one."""
        part = self._clean.get((ruleset, n_players))
        if part is None:
            part = self._clean[ruleset, n_players] = CleanRows(n_players, file, self.shard_key)
        return part

    @property
    def added_positions(self) -> list[int]:
        """Where the bulk path appends the ``source_pos`` of each deal it adds to a ``clean_part``."""
        return self._positions

    def take_batch(self, last: bool) -> PartTables:
        """The tables of the rows added since the last batch (``tables``; the late rejects only with the
        ``last``), and a fresh start for the next: the counts go on.  The bulk path must start a new batch
        too (``ingest.bulk.BulkPath.new_batch``): its partitions are new objects."""
        tables = self.tables(late=last)
        self._clean_taken += sum(len(part.deals) for part in self._clean.values())
        self._read_rejected += len(self._rejects)
        self._parts = {}
        self._clean = {}
        del self._positions[:]  # the very list the bulk path appends to
        self._rejects = []
        if last:
            self._late = []
        return tables

    def tables(self, late: bool = True) -> PartTables:
        """Every table of the shard, split by partition (see ``PartTables``), rows in the order added; the
        rejects when read, then (``late``) those when checked."""
        out: PartTables = {name: [] for name in SHARD_TABLES}
        for key in sorted(set(self._parts) | set(self._clean)):
            values = dict(zip(PARTITION_COLUMNS, key))
            made = [part.tables() for part in (self._parts.get(key), self._clean.get(key))
                    if part is not None and part.deals]
            if not made:  # the bulk path prepared for this partition and took none of its deals
                continue
            tables = made[0] if len(made) == 1 else _merged(made[0], made[1], np.array(self._positions, np.int64))
            for name, table in tables.items():
                out[name].append((values, table))
        out["rejects"].append(({}, _from_rows(file_schema("rejects"), self._rejects + self._late if late
                                             else self._rejects)))
        return out


class RowsError(ValueError):
    """A record whose rows the store's columns cannot hold (a value past its type, text Arrow refuses, …)."""


class CheckedShardRows(ShardRows):
    """``ShardRows`` that turns each deal's rows into Arrow tables as it is added, so a record the store
    cannot hold raises ``RowsError`` from ``add_deal`` (its caller rejects that record) instead of failing
    ``tables()`` and with it every deal of the shard.

    Slower (every deal is converted twice), so ingest uses it only to redo a shard whose ``tables()``
    failed (``ingest.pipeline.process_shard``), on the usual path (no bulk path: its rows are the C
    extension's to build).
    """

    def add_deal(self, item: ReadItem, check: DealCheck) -> None:
        alone = ShardRows(self.shard_key, self.overrides)
        alone.add_deal(item, check)
        try:
            alone.tables()
        except Exception as exc:  # noqa: BLE001 (whatever Arrow raises on it)
            raise RowsError(f"the store cannot hold this record's rows: {type(exc).__name__}: {exc}") from exc
        super().add_deal(item, check)


def _merged(first: dict[str, pa.Table], second: dict[str, pa.Table], positions: np.ndarray
            ) -> dict[str, pa.Table]:
    """Two sets of tables of one file's deals merged into the order the deals were added (``positions``: their
    ``source_pos`` in that order), each deal's rows kept in their order.

    The bulk path's deals and the others' are each gathered in that order;
    merged, every row goes to its deal's place (a stable sort by it keeps a
    deal's own rows in order).
    """
    by_pos = np.argsort(positions)

    def sorted_by_place(table: pa.Table) -> pa.Table:
        at = table["source_pos"].to_numpy()
        return table.take(np.argsort(by_pos[np.searchsorted(positions, at, sorter=by_pos)], kind="stable"))

    return {name: sorted_by_place(pa.concat_tables([table, second[name]])) for name, table in first.items()}


_ENCODER = msgspec.json.Encoder()


def _result_values(check: DealCheck, none: tuple[None, ...], first_row: int
                   ) -> tuple[tuple[Any, ...], tuple[list[int], list[int], list[int]] | None]:
    """A deal's ``results`` values, and its breakdown lines per ``results`` row (None: not scored).

    The values: (penalty policy, then per player: role, score, recorded
    score, score diff, unpenalised, radelci before, radelci after,
    breakdown JSON).  The lines are (row, component index, value) columns,
    rows numbered from ``first_row`` (the deal's first ``results`` row).
    """
    players = check.players
    scores = check.scores
    recorded = check.recorded
    before, after, unpenalised = check.radelci_before, check.radelci_after, check.unpenalised
    declarer, partner = check.declarer, check.partner
    role: tuple[str | None, ...]
    if declarer is None:
        role = ("klop",) * len(players) if check.contract in NO_DECLARER else none
    else:
        declarers = check.declarers or [declarer]  # Königrufen: several play one negative game
        role = tuple(["declarer" if player in declarers else "partner" if player == partner else "opponent"
                      for player in players])
    score: tuple[int | None, ...]
    diff: tuple[int | None, ...]
    breakdown_json: tuple[str | None, ...]
    components: tuple[list[int], list[int], list[int]] | None
    if scores is None:
        score = diff = breakdown_json = none
        components = None
    else:
        scored = tuple(map(scores.__getitem__, players))
        score = scored
        diff = none if recorded is None else tuple(
            recorded.get(player, 0) - value for player, value in zip(players, scored))
        breakdown = check.breakdown or ()
        per_player = [[line for line in breakdown if player in line.players] for player in players]
        # as text: encoded bytes each hold a buffer of some kilobytes, too much to keep for every player
        breakdown_json = tuple([_ENCODER.encode(lines).decode() for lines in per_player])
        rows: list[int] = []
        index: list[int] = []
        values: list[int] = []
        for row, lines in enumerate(per_player, first_row):
            for line in lines:
                rows.append(row)
                index.append(_COMPONENT_INDEX[line.component])
                values.append(line.value)
        components = rows, index, values
    result = (check.penalty, role, score, none if recorded is None else tuple(map(recorded.get, players)),
              diff, none if unpenalised is None else tuple(map(unpenalised.get, players)),
              none if before is None else tuple(map(before.get, players)),
              none if after is None else tuple(map(after.get, players)), breakdown_json)
    return result, components
