"""The options the accelerator implements, declared field by field and value by value; it declines the rest.

The compiled kernel (``tarock/accel/_fastplay.c``), the fast lane (``tarock.accel.lane``), the compiled
scorer (``tarock.accel.scorer``) and ingest's bulk path (``ingest.bulk``) were written and tested against
the options below.  An options object is theirs only when every field of its class is declared here and
holds a declared value (``accepts``); any other -- a new option, a new value of an old one -- goes to the
pure-Python reference, which implements every option by definition.  So adding an option to
``tarock.options`` can never make a fast path silently ignore it: until someone declares it here (after
teaching the accelerator and its differential tests, ``tests/accel``), deals under it take the
reference's path.  docs/performance.md says which path runs where.

Each value is given by itself (compared with its type: ``True`` is not ``1``) or by a type, which admits any
value of exactly that type.

The replay alone -- the kernel's play and the fast lane, without the compiled scorer -- implements more
(``REPLAY``): options it reads in Python around the kernel's call as the reference reads them, and options no
replay reads at all (scoring's alone).  A deal under those is replayed on the accelerator and scored by the
reference (``accepts_replay``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import Any

Declared = tuple[Any, ...]
"""A field's declared values: each a value, or a type admitting every value of exactly that type."""

DECLARED: dict[str, Mapping[str, Declared]] = {
    "slovenian": {
        # the compiled scorer writes both roundings' lines (tarock/accel/scorer.py, _ROUNDINGS)
        "diff_rounding": ("nearest5", "none"),
        "silent_pagat_failure": (True, False),
        # the scorer takes the Mondfang's sentence and value from the reference per options (_mondfang_texts)
        "mondfang_value": (int,),
        # the kernel's Mondfang payers (``mondfang_any_side`` is one of its OUTCOME_RULE_FIELDS)
        "mondfang_any_side": (False, True),
        # the kernel's emperor modes and forced Pagat come from the reference (tarock/accel/projection.py)
        "emperor_trick": (True, False),
        "forced_pagat": ("all", "negative_only", "off"),
        "radelci": (True, False),
        # a clean deal has no offender, so no penalty applies; the lane declines a deal with a renons
        "penalty": ("slovenian_renons", "record_as_played", "jass_trick_forfeit", "austrian_renonce",
                    "annul"),
        # the lane checks a bidding with the reference's own check_bidding
        "bidding_order": ("forehand_last", "forehand_first"),
        "radelc_scope": ("declarer", "each_player"),
        "klop_radelc_double": (True, False),
        # the compiled scorer cancels a Klop +70's radelc; Palčka's "cancels none" is the reference's alone
        "klop_cancels_radelc": (True,),
        # the Palčka preset's rules (docs/rules.md): the accelerator implements today's defaults only; the
        # other values run on the reference
        "silent_king_ultimo_failure": (False,),
        "solo_brez_valat": (False,),
        "solo_brez_mondfang": (True,),
        "failed_mondfang_pays": (False,),
        "valat_game_kontra": (False,),
        "valat_announcer_leads": (False,),
        "klop_kontra": (False,),
        "barvni_valat_3p": (True,),
        # the session end is the ledger's (tarock.rules.sessions), which no fast path computes
        "radelc_session_value": (100, 40),
    },
    "koenigrufen": {
        # Königrufen takes no bulk path: the engine's replay plays on the kernel's ``play`` and ``seats``, with
        # the follow rules, forced Pagat and emperor mode the reference's table_rules gives (emperor_trick,
        # pagat_restriction); the simulator's clean deals take the kernel's lane and the compiled Königrufen
        # scorer (tarock/accel/kr_lane.py, kr_scorer.py), which read every option below by name and decline a
        # colour game's taroks-first stash (color_discard_restriction) to the reference
        "counting": ("1/3", "1/1"),
        "min_win_score": (None, int),
        "values": ("raiffeisen", "wien", "tirol", "sauwald"),
        "quapil": (False, True),
        "emperor_trick": (True, False),
        "pagat_restriction": (True, False),
        "color_discard_restriction": (False, True),
        "kontra_in_score": (True, False),
        "triccolo": (False, True),
        "trischaken_talon": ("first_six", "last_trick"),
        "kings_in_color_games": (True, False),
        "penalty": ("austrian_renonce", "record_as_played", "annul"),
        "valat_keeps_announced": (True, False),
        "concession_pays_announced": (True, False),
        "trischaken_ties": ("share", "earliest"),
        "trischaken_jungfrau": ("pot", "double"),
        # decided by the reference's contract checks, bidding and scoring, never by the kernel's play
        "zwiccolo": (True, False),
        "several_declarers": (True, False),
        "sechserdreier_doubles_valat": (False, True),
        "king_ultimo_by_party": (False, True),
        "valat_takes_game_kontra": (False, True),
    },
}
"""Per ruleset (the options class's ``ruleset``), each option field the accelerator implements and its
values."""

REPLAY: dict[str, Mapping[str, Declared]] = {
    "slovenian": {
        # the lane reads these as the reference does (tarock/accel/lane.py): whether the table plays the
        # contract, who leads trick 1, the Mondfang's payers and the Mond's holder; the kontras are checked by
        # the reference's own ``announcements``, which the lane calls
        "barvni_valat_3p": (True, False),
        "valat_announcer_leads": (False, True),
        "solo_brez_mondfang": (True, False),
        "failed_mondfang_pays": (False, True),
        "klop_kontra": (False, True),
        "valat_game_kontra": (False, True),
        # scoring's alone (tarock/rules/slovenian/scoring.py): no replay reads them
        "klop_cancels_radelc": (bool,),
        "silent_king_ultimo_failure": (bool,),
        "solo_brez_valat": (bool,),
    },
    "koenigrufen": {},
}
"""Per ruleset, what the replay implements besides (or beyond the values of) ``DECLARED``.  Ingest's bulk path
and check's fast path replay in C without the lane's Python around the kernel, and need the compiled scorer's
plan besides (``accepts``): they take only ``DECLARED``."""

_VERDICTS: dict[int, tuple[object, bool, bool]] = {}
"""``accepts``'s and ``accepts_replay``'s answers by the options' identity, each with its options (kept alive,
so the id stays theirs)."""
_LIMIT = 4096


def accepts(options: object) -> bool:
    """Whether the accelerator implements ``options``: every dataclass field of its class is declared for
    its ruleset in ``DECLARED`` and holds a declared value.  Remembered by the options object's identity
    (hashing a frozen options object hashes every field, too slow per deal)."""
    return _verdicts(options)[1]


def accepts_replay(options: object) -> bool:
    """Whether the kernel's play and the fast lane implement ``options`` (``DECLARED`` with ``REPLAY``); the
    compiled scorer still asks ``accepts``."""
    return _verdicts(options)[2]


def _verdicts(options: object) -> tuple[object, bool, bool]:
    known = _VERDICTS.get(id(options))
    if known is not None and known[0] is options:
        return known
    verdicts = (options, not undeclared(options), not undeclared(options, replay=True))
    if len(_VERDICTS) >= _LIMIT:
        _VERDICTS.clear()
    _VERDICTS[id(options)] = verdicts
    return verdicts


def undeclared(options: object, *, replay: bool = False) -> list[str]:
    """What keeps ``options`` from the accelerator (``replay``: from its replay): each field (``name``) or value
    (``name=value``) not declared; empty when ``accepts`` (``accepts_replay``) is True."""
    if not is_dataclass(options) or isinstance(options, type):
        return [f"{type(options).__name__} is not an options dataclass"]
    ruleset = getattr(type(options), "ruleset", None)
    table = DECLARED.get(ruleset)  # type: ignore[arg-type]
    if table is None:
        return [f"ruleset {ruleset!r}"]
    if replay:
        table = {**table, **REPLAY.get(ruleset, {})}  # type: ignore[arg-type]
    out = []
    for f in fields(options):
        declared = table.get(f.name)
        value = getattr(options, f.name)
        if declared is None:
            out.append(f.name)
        elif not any(_admits(d, value) for d in declared):
            out.append(f"{f.name}={value!r}")
    return out


def forget() -> None:
    """Forget every verdict (for a test that changes ``DECLARED``)."""
    _VERDICTS.clear()


def _admits(declared: Any, value: Any) -> bool:
    if isinstance(declared, type):
        return type(value) is declared
    return type(value) is type(declared) and bool(value == declared)
