"""The compiled hot path (``tarock.accel._fastplay``), when it was built, matches the reference and is not
switched off.

The package's build compiles ``tarock/accel/_fastplay.c`` when it can (``setup.py``: an optional
extension); without a compiler the build still succeeds and everything runs on the pure-Python
engine, which stays the reference either way.  ``TAROCK_REFERENCE=1`` in the environment, or
``reference()`` in code, switches the accelerator off, so a test or a doubting user can compare
the two.

The kernel is a projection of the reference, never a second rulebook: at load it gets the card tables of
``tarock.cards`` by name, and every name it reads or answers with is matched against the reference's
(``tarock.accel.projection``); a mismatch leaves it unloaded, with a warning.  It implements only the options
``tarock.accel.declared`` declares: every caller asks ``accepts(options)`` (the replay alone:
``accepts_replay``) first, and a deal under any other options goes to the reference.
"""

from __future__ import annotations

import os
import warnings
from contextlib import contextmanager
from types import ModuleType
from typing import Iterator

from tarock import cards
from tarock.accel.declared import accepts, accepts_replay
from tarock.accel.projection import Answers, ProjectionError, check
from tarock.accel.projection import lane_plan as _lane_plan
from tarock.accel.projection import play_rules as _play_rules
from tarock.options import SlovenianOptions
from tarock.rules.play import FollowRules
from tarock.rules.slovenian.contracts import Contract

__all__ = ["ANSWERS", "BUILT", "KERNEL", "SOLVER", "accepts", "accepts_replay", "lane_plan", "play_rules", "ready",
           "reference"]


def ready(module: ModuleType) -> tuple[ModuleType, Answers] | None:
    """``module`` (the compiled kernel) with the card tables loaded and its names matched against the
    reference's, with how to read its answers; None, with a ``RuntimeWarning``, when they do not all match."""
    try:
        module.init(vars(cards))
        return module, check(module)
    except (ProjectionError, KeyError, TypeError, ValueError, OverflowError) as exc:
        warnings.warn(f"tarock.accel: the compiled kernel does not match the reference ({exc}); the "
                      "pure-Python reference runs instead (rebuild with `pip install -e .`)", RuntimeWarning,
                      stacklevel=2)
        return None


def _load() -> tuple[ModuleType, Answers] | None:
    if os.environ.get("TAROCK_REFERENCE", "") not in ("", "0"):
        return None
    try:
        from tarock.accel import _fastplay  # type: ignore[attr-defined]  # compiled: no stub
    except ImportError:
        return None
    return ready(_fastplay)


_LOADED = _load()

KERNEL: ModuleType | None = None if _LOADED is None else _LOADED[0]
"""The accelerator module, or None: the engine reads it at every call."""

ANSWERS: Answers | None = None if _LOADED is None else _LOADED[1]
"""How to read the kernel's answers (``tarock.accel.projection.Answers``), when it was loaded."""



def _load_solver() -> ModuleType | None:
    if _LOADED is None:
        return None
    try:
        from tarock.accel import _solver  # type: ignore[attr-defined]  # compiled: no stub
    except ImportError:
        return None
    return _solver


SOLVER: ModuleType | None = _load_solver()
"""The double-dummy solver's compiled core (``tarock/accel/_solver.c``, playing by the kernel's legality through
its capsule), or None; ``tarock.solver.search`` uses it while ``KERNEL`` is set and ``accepts`` the options."""

BUILT: bool = KERNEL is not None
"""Whether the accelerator was built and loaded at import (whatever ``reference()`` does later)."""


def play_rules(rules: FollowRules, force_pagat: bool, emperor: int) -> object:
    """The kernel's play rules of a game (what ``KERNEL.play`` takes): ``tarock.accel.projection.play_rules``.
    Only while the kernel is loaded."""
    assert _LOADED is not None
    return _play_rules(_LOADED[0], rules, force_pagat, emperor)


def lane_plan(contract: Contract, options: SlovenianOptions) -> object:
    """The kernel's plan of a contract under ``options`` (what ``KERNEL.lane`` takes):
    ``tarock.accel.projection.lane_plan``.  Only while the kernel is loaded."""
    assert _LOADED is not None
    return _lane_plan(_LOADED[0], contract, options)


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
