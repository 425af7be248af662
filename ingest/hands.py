"""The ``hands`` table: what each player was dealt, as features a bidder can count (docs/store.md).

The usual path keeps per deal one ``HandEntry`` (``entry_of_cards``, from a ``Deal``'s card ints); the bulk
path's C extension writes the very same entry as int64s into a buffer (``ingest/_bulkrows.c``: a projection
of ``entry_of_cards``, kept equal by the differential tests of tests/ingest/test_ingest_bulk.py).  Per
deal only the entry is kept — the hands, the talon and the declarer's pick as 54-bit masks
(``tarock.cards``), the declarer's seat and the called king — and every feature is computed once per
partition with numpy over those masks (``hands_columns``).  The counts of a hand (``taroks``, ``kings`` …)
are not stored: the views compute them from ``hand_mask`` (``ingest.schema.COMPUTED_COLUMNS``).  No
per-card object is made, here or on the hot path.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import or_

import numpy as np
import pyarrow as pa

from ingest.hand_features import counted_points
from tarock.cards import CARD_BIT

HandEntry = tuple[int, ...]
"""One deal's hands: (deal index in its partition, declarer seat or -1, called king or -1, talon mask or
-1, the declarer's talon pick mask or -1, then one hand mask per seat)."""

FIXED = 5
"""The fields of a ``HandEntry`` before the hand masks."""

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


def hands_columns(entries: list[HandEntry] | np.ndarray, n_players: int
                  ) -> tuple[np.ndarray, np.ndarray, list[pa.Array]]:
    """The ``hands`` rows of a partition's entries (tuples, or their int64s in a row each): (each row's deal
    index, its seat, its own stored columns after ``player`` and ``seat_no``, in the order of
    ``ingest.schema.file_schema("hands")``)."""
    table = np.asarray(entries, np.int64).reshape(-1, FIXED + n_players)
    deal = np.repeat(table[:, 0], n_players).astype(np.int32)
    seat = np.tile(np.arange(n_players, dtype=np.int32), len(table))
    masks = table[:, FIXED:].ravel().astype(np.uint64)
    declarer_seat = np.repeat(table[:, 1], n_players)
    is_declarer = declarer_seat == seat
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
        pa.array(np.bitwise_count(pick_masks).astype(np.int32), mask=not_picked),
        pa.array(counted_points(pick_masks), mask=not_picked),
        place_names,
    ]
