"""The compiled hot path (``tarock.accel._fastplay``), when it was built and is not switched off.

The package's build compiles ``tarock/accel/_fastplay.c`` when it can (``setup.py``: an optional
extension); without a compiler the build still succeeds and everything runs on the pure-Python
engine, which stays the reference either way.  ``TAROCK_REFERENCE=1`` in the environment, or
``reference()`` in code, switches the accelerator off, so a test or a doubting user can compare
the two.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from types import ModuleType
from typing import Iterator

from tarock.cards import (
    ABOVE,
    CODES,
    CARD_POINTS,
    CARD_SUIT,
    MOND,
    PAGAT,
    PLAIN_MASK,
    SKIS,
    SUIT_MASKS,
    TAROK,
    TAROK_MASK,
)


def _load() -> ModuleType | None:
    if os.environ.get("TAROCK_REFERENCE", "") not in ("", "0"):
        return None
    try:
        from tarock.accel import _fastplay
    except ImportError:
        return None
    _fastplay.init(CARD_SUIT, CARD_POINTS, SUIT_MASKS, ABOVE, TAROK_MASK, PLAIN_MASK, PAGAT, MOND, SKIS, TAROK,
                   CODES)
    return _fastplay


KERNEL: ModuleType | None = _load()
"""The accelerator module, or None: the engine reads it at every call."""

BUILT: bool = KERNEL is not None
"""Whether the accelerator was built and loaded at import (whatever ``reference()`` does later)."""


@contextmanager
def reference() -> Iterator[None]:
    """Run the block on the pure-Python reference engine."""
    global KERNEL
    saved = KERNEL
    KERNEL = None
    try:
        yield
    finally:
        KERNEL = saved
