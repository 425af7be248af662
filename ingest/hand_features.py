"""What a dealt hand holds, counted the way a bidder counts it: numpy over 54-bit hand masks (``tarock.cards``).

The one definition of the ``hands`` table's per-hand columns (docs/store.md): the store's views compute them
from the stored ``hand_mask`` by the SQL of ``hand_feature_sql``, the hand model for a typed hand
(``analysis.hand_model``) by numpy (``hand_features``) — the same masks and arithmetic, kept equal by
tests/ingest/test_hand_features.py.  numpy only: counting one typed hand needs no Arrow, polars or DuckDB.
"""

from __future__ import annotations

import numpy as np

from tarock.cards import CARD_POINTS, KINGS_MASK, MOND, N_CARDS, PAGAT, SKIS, SUIT_MASKS, TAROK_MASK

HIGH_TAROKS_FROM = 15
"""``high_taroks`` counts the taroks from XV up (XV … XXI and Škis: 8 cards), the ones that win tricks."""

_HIGH_MASK = TAROK_MASK & ~((1 << (HIGH_TAROKS_FROM - 1)) - 1)
_TRULA_MASK = (1 << PAGAT) | (1 << MOND) | (1 << SKIS)
_SUITS = (("hearts", SUIT_MASKS[1]), ("diamonds", SUIT_MASKS[2]), ("spades", SUIT_MASKS[3]), ("clubs", SUIT_MASKS[4]))
"""The plain suits in ``tarock.cards`` order, by the names of their ``hands`` columns."""
_BYTE_POINTS = np.array([[sum(CARD_POINTS[8 * i + b] for b in range(8) if byte >> b & 1 and 8 * i + b < N_CARDS)
                          for byte in range(256)] for i in range(8)], np.int32)
"""``_BYTE_POINTS[i, b]``: the card values of the cards of byte ``i`` of a mask set in ``b``."""


def _popcount(masks: np.ndarray, within: int) -> np.ndarray:
    return np.bitwise_count(masks & np.uint64(within)).astype(np.int32)


def raw_points(masks: np.ndarray) -> np.ndarray:
    """The card values of each mask (``tarock.cards.raw_points``), by byte lookup."""
    as_bytes = masks.astype("<u8").view(np.uint8).reshape(-1, 8)
    return _BYTE_POINTS[np.arange(8), as_bytes].sum(axis=1, dtype=np.int32)


def counted_points(masks: np.ndarray) -> np.ndarray:
    """Card points counted like a pile (``tarock.cards.counted_points``: raw − ⅔·cards, rounded)."""
    return ((3 * raw_points(masks) - 2 * np.bitwise_count(masks).astype(np.int32) + 1) // 3).astype(np.int32)


def _has(masks: np.ndarray, card: int) -> np.ndarray:
    return np.asarray((masks >> np.uint64(card)) & np.uint64(1) == 1)


def hand_features(masks: np.ndarray) -> dict[str, np.ndarray]:
    """Per hand mask (``uint64``): the ``hands`` columns from ``n_cards`` to ``card_points``, in that table's
    order, by column name."""
    suits = {name: _popcount(masks, mask) for name, mask in _SUITS}
    lengths = np.stack(list(suits.values()))
    return {
        "n_cards": np.bitwise_count(masks).astype(np.int32),
        "taroks": _popcount(masks, TAROK_MASK),
        "high_taroks": _popcount(masks, _HIGH_MASK),
        "tarok_points": raw_points(masks & np.uint64(TAROK_MASK)),
        "pagat": _has(masks, PAGAT), "mond": _has(masks, MOND), "skis": _has(masks, SKIS),
        "trula_cards": _popcount(masks, _TRULA_MASK),
        "kings": _popcount(masks, KINGS_MASK),
        **suits,
        "voids": (lengths == 0).sum(axis=0, dtype=np.int32),
        "singletons": (lengths == 1).sum(axis=0, dtype=np.int32),
        "card_points": counted_points(masks),
    }


_POINT_MASKS = {value: sum(1 << c for c in range(N_CARDS) if CARD_POINTS[c] == value) for value in set(CARD_POINTS)}
"""The cards of each card value, as masks: a mask's raw points are the values times their bit counts."""


def _sql_count(mask: str, within: int) -> str:
    return f"bit_count({mask} & {within})::INTEGER"


def _sql_raw_points(mask: str, within: int) -> str:
    return "(" + " + ".join(f"{value} * {_sql_count(mask, cards & within)}"
                            for value, cards in sorted(_POINT_MASKS.items()) if cards & within) + ")"


def hand_feature_sql(mask: str) -> dict[str, str]:
    """The columns of ``hand_features`` as DuckDB SQL over a BIGINT hand mask column ``mask``, typed as the
    ``hands`` table declares them (INTEGER counts, BOOLEAN cards held), in that table's order."""
    full = (1 << N_CARDS) - 1
    suits = {name: _sql_count(mask, suit) for name, suit in _SUITS}
    return {
        "n_cards": f"bit_count({mask})::INTEGER",
        "taroks": _sql_count(mask, TAROK_MASK),
        "high_taroks": _sql_count(mask, _HIGH_MASK),
        "tarok_points": f"{_sql_raw_points(mask, TAROK_MASK)}::INTEGER",
        "pagat": f"(({mask} >> {PAGAT}) & 1) = 1", "mond": f"(({mask} >> {MOND}) & 1) = 1",
        "skis": f"(({mask} >> {SKIS}) & 1) = 1",
        "trula_cards": _sql_count(mask, _TRULA_MASK),
        "kings": _sql_count(mask, KINGS_MASK),
        **suits,
        "voids": "(" + " + ".join(f"({count} = 0)::INTEGER" for count in suits.values()) + ")",
        "singletons": "(" + " + ".join(f"({count} = 1)::INTEGER" for count in suits.values()) + ")",
        # counted like a pile: (3·raw − 2·n + 1) // 3, as ``counted_points`` (both are never negative)
        "card_points": f"((3 * {_sql_raw_points(mask, full)} - 2 * bit_count({mask}) + 1) // 3)::INTEGER",
    }
