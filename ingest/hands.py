"""The ``hands`` table: what each player was dealt, as features a bidder can count (docs/store.md).

The usual path keeps per deal one ``HandEntry`` (``entry_of_cards``, from a ``Deal``'s card ints); the bulk
path's C extension writes the very same entry as int64s into a buffer (``ingest/_bulkrows.c``: a projection
of ``entry_of_cards``, kept equal by the differential tests of tests/ingest/test_ingest_bulk.py).  Per
deal only the entry is kept — the hands, the talon and the declarer's pick as 54-bit masks
(``tarock.cards``), the declarer's seat and the called king — and every feature is computed once per
partition with numpy over those masks (``hands_columns``): popcounts against the suit masks, card values
by byte lookup.  No per-card object is made, here or on the hot path.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import or_

import numpy as np
import pyarrow as pa

from tarock.cards import CARD_BIT, CARD_POINTS, KINGS_MASK, MOND, PAGAT, SKIS, SUIT_MASKS, TAROK_MASK

HIGH_TAROKS_FROM = 15
"""``high_taroks`` counts the taroks from XV up (XV … XXI and Škis: 8 cards), the ones that win tricks."""

HandEntry = tuple[int, ...]
"""One deal's hands: (deal index in its partition, declarer seat or -1, called king or -1, talon mask or
-1, the declarer's talon pick mask or -1, then one hand mask per seat)."""

FIXED = 5
"""The fields of a ``HandEntry`` before the hand masks."""

_HIGH_MASK = TAROK_MASK & ~((1 << (HIGH_TAROKS_FROM - 1)) - 1)
_SUITS = SUIT_MASKS[1:]
"""Hearts, diamonds, spades, clubs (``tarock.cards`` order; ``hands`` names its columns the same)."""
_BYTE_POINTS = np.array([[sum(CARD_POINTS[8 * i + b] for b in range(8) if byte >> b & 1 and 8 * i + b < 54)
                          for byte in range(256)] for i in range(8)], np.int32)
"""``_BYTE_POINTS[i, b]``: the card values of the cards of byte ``i`` of a mask set in ``b``."""

PLACES = ("partner", "talon", "declarer")
"""``called_king_place``: a partner holds the called king, it lay in the talon, or the declarer holds it."""
_PLACE_NAMES = pa.array(PLACES, pa.string())


_BIT = CARD_BIT.__getitem__


def entry_of_cards(index: int, hands: Sequence[Sequence[int]], talon: Sequence[int] | None,
                   pick: Sequence[int] | None, declarer_seat: int, called_king: int | None) -> HandEntry:
    """A deal's ``HandEntry`` from card ints (a ``Deal``'s ``hands``, ``talon``, ``talon_pick``): the bits of
    the cards or'ed, since a faulty record may list a card twice."""
    return (index, declarer_seat, -1 if called_king is None else called_king,
            -1 if talon is None else reduce(or_, map(_BIT, talon), 0),
            -1 if pick is None else reduce(or_, map(_BIT, pick), 0),
            *[reduce(or_, map(_BIT, hand), 0) for hand in hands])


def _popcount(masks: np.ndarray, within: int) -> np.ndarray:
    return np.bitwise_count(masks & np.uint64(within)).astype(np.int32)


def _raw_points(masks: np.ndarray) -> np.ndarray:
    """The card values of each mask (``tarock.cards.raw_points``), by byte lookup."""
    as_bytes = masks.astype("<u8").view(np.uint8).reshape(-1, 8)
    return _BYTE_POINTS[np.arange(8), as_bytes].sum(axis=1, dtype=np.int32)


def _counted(masks: np.ndarray) -> np.ndarray:
    """Card points counted like a pile (``tarock.cards.counted_points``: raw − ⅔·cards, rounded)."""
    return ((3 * _raw_points(masks) - 2 * np.bitwise_count(masks).astype(np.int32) + 1) // 3).astype(np.int32)


def _has(masks: np.ndarray, card: int) -> pa.Array:
    return pa.array((masks >> np.uint64(card)) & np.uint64(1) == 1)


def hands_columns(entries: list[HandEntry] | np.ndarray, n_players: int
                  ) -> tuple[np.ndarray, np.ndarray, list[pa.Array]]:
    """The ``hands`` rows of a partition's entries (tuples, or their int64s in a row each): (each row's deal
    index, its seat, its own columns after ``player`` and ``seat_no`` in ``ingest.schema.HANDS`` order)."""
    table = np.asarray(entries, np.int64).reshape(-1, FIXED + n_players)
    deal = np.repeat(table[:, 0], n_players).astype(np.int32)
    seat = np.tile(np.arange(n_players, dtype=np.int32), len(table))
    masks = table[:, FIXED:].ravel().astype(np.uint64)
    declarer_seat = np.repeat(table[:, 1], n_players)
    is_declarer = declarer_seat == seat
    suits = np.stack([_popcount(masks, m) for m in _SUITS])
    taroks = _popcount(masks, TAROK_MASK)
    # what the talon brought: the declarer's row only, when the record says what they took
    pick = np.repeat(table[:, 4], n_players)
    picked = is_declarer & (pick >= 0)
    pick_masks = np.where(picked, pick, 0).astype(np.uint64)
    not_picked = ~picked
    king = np.repeat(table[:, 2], n_players)
    talon = np.repeat(table[:, 3], n_players)
    king_bit = np.where(king >= 0, np.left_shift(np.int64(1), np.maximum(king, 0)), 0)
    place = np.where((talon >= 0) & (talon & king_bit != 0), 1, np.where(masks.astype(np.int64) & king_bit != 0, 2, 0))
    place_names = _PLACE_NAMES.take(pa.array(place, pa.int64(), mask=~(is_declarer & (king >= 0))))
    return deal, seat, [
        pa.array(is_declarer),
        pa.array(masks.astype(np.int64)),
        pa.array(np.bitwise_count(masks).astype(np.int32)),
        pa.array(taroks),
        pa.array(_popcount(masks, _HIGH_MASK)),
        pa.array(_raw_points(masks & np.uint64(TAROK_MASK))),
        _has(masks, PAGAT), _has(masks, MOND), _has(masks, SKIS),
        pa.array(_popcount(masks, (1 << PAGAT) | (1 << MOND) | (1 << SKIS))),
        pa.array(_popcount(masks, KINGS_MASK)),
        *(pa.array(count) for count in suits),
        pa.array((suits == 0).sum(axis=0, dtype=np.int32)),
        pa.array((suits == 1).sum(axis=0, dtype=np.int32)),
        pa.array(_counted(masks)),
        pa.array(np.bitwise_count(pick_masks).astype(np.int32), mask=not_picked),
        pa.array(_counted(pick_masks), mask=not_picked),
        place_names,
    ]
