"""Where the compiled kernel's names meet the reference's: the one place the correspondence is made.

The kernel (``tarock/accel/_fastplay.c``) plays by plain numbers in C structs.  It says by name what it reads
and what its answers mean: ``PLAY_RULE_FIELDS`` and ``OUTCOME_RULE_FIELDS`` (its ``Rules`` and
``OutcomeRules`` members, ``tarock/accel/kernel.h``), ``DECLARER_FACTS`` and ``KLOP_FACTS`` (the fields of its
facts tuples), ``SIDES`` and ``PAGAT_LAST`` (its codes of a side and of the Pagat in the last trick) and the
``EMPEROR_*`` modes.  This module fills the one and reads the other from the reference's own objects, by those
names:

- a play rule is a switch of the follow rules (``tarock.rules.play.FollowRules``: the contract itself in
  Slovenian, ``PlayRules`` in Königrufen), or one of the two values the ruleset's ``table_rules`` gives beside
  them: ``force_pagat`` (``legal_mask``'s argument) and ``emperor`` (``trick_winner``'s);
- an outcome rule is an attribute of the ``Contract``, a field of the options, or a named rule of the contract
  (``_CONTRACT_RULES``);
- a side is named as ``tarock.facts`` names it.

The mapping is built once per contract and options (``lane_plan``) or per follow rules (``play_rules``) and
handed to the kernel, which reads it by the same names into a struct it keeps; nothing is looked up per deal.
A name the kernel reads that the reference does not have, or a code it answers with that the reference does
not know, is a ``ProjectionError`` at load: ``tarock.accel`` then leaves the kernel unloaded, with a warning,
and the reference runs.  ``tests/accel/test_projection.py`` checks both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from types import ModuleType
from typing import Any, NamedTuple

from tarock.facts import DECLARER, OPPONENTS, Side
from tarock.options import DEFAULT_KOENIGRUFEN, DEFAULT_SLOVENIAN, SlovenianOptions
from tarock.rules import play
from tarock.rules.koenigrufen import contracts as koenigrufen
from tarock.rules.play import FollowRules
from tarock.rules.slovenian import contracts as slovenian
from tarock.rules.slovenian.contracts import CONTRACTS, Contract, mondfang_applies


class ProjectionError(LookupError):
    """The kernel reads or answers with a name the reference does not have."""


_FOLLOW_SWITCHES = frozenset(name for name, value in vars(FollowRules).items() if isinstance(value, property))
"""The switches of the follow rules, as the reference's protocol names them."""

_TABLE_RULES = ("force_pagat", "emperor")
"""What a ruleset's ``table_rules`` gives beside the follow rules, in its order: ``legal_mask``'s
``force_pagat`` and ``trick_winner``'s ``emperor``."""

_CONTRACT_RULES: Mapping[str, Callable[[Contract], Any]] = {"mondfang_applies": mondfang_applies}
"""Rules of a Slovenian contract the reference names as functions (``tarock.rules.slovenian.contracts``)."""

_CONTRACT_NAMES = frozenset(f.name for f in fields(Contract)) | frozenset(
    name for name, value in vars(Contract).items() if isinstance(value, property))
_OPTION_NAMES = frozenset(f.name for f in fields(SlovenianOptions))

_SIDE_BY_NAME: Mapping[str, Side] = {DECLARER: DECLARER, OPPONENTS: OPPONENTS}


class FactsAt(NamedTuple):
    """Where each fact the fast lane reads stands in the kernel's facts tuple (``DECLARER_FACTS``)."""

    declarer_points: int
    opponents_points: int
    valat_side: int
    trula_side: int
    kings_side: int
    pagat_last: int
    king_last: int
    mondfang: int
    lost_trick: int
    decided: int


class KlopFactsAt(NamedTuple):
    """Where each fact of a Klop stands in the kernel's Klop facts tuple (``KLOP_FACTS``)."""

    klop_points: int
    klop_tricks: int


class Answers(NamedTuple):
    """How to read the kernel's answers, worked out by name at load (``read_answers``)."""

    sides: tuple[Side | None, ...]
    """Per side code, the side (None: no side)."""
    pagat_last: tuple[tuple[Side, bool] | None, ...]
    """Per code of the Pagat in the last trick, ``DealFacts.pagat_last``."""
    facts: FactsAt
    klop_facts: KlopFactsAt


def _play_values(names: tuple[str, ...], rules: FollowRules, force_pagat: bool,
                 emperor: int) -> dict[str, Any]:
    """The play rules the kernel reads, by its names, from the follow rules and the two values beside them."""
    beside = dict(zip(_TABLE_RULES, (force_pagat, emperor)))
    values: dict[str, Any] = {}
    for name in names:
        if name in beside:
            values[name] = beside[name]
        elif name in _FOLLOW_SWITCHES:
            values[name] = getattr(rules, name)
        else:
            raise ProjectionError(f"the kernel reads a play rule {name!r} the reference does not have")
    return values


def _outcome_values(names: tuple[str, ...], contract: Contract, options: SlovenianOptions) -> dict[str, Any]:
    """The outcome rules the kernel reads, by its names: the contract's, the options' or a named contract
    rule."""
    values: dict[str, Any] = {}
    for name in names:
        found = [source for source, known in (("contract", name in _CONTRACT_NAMES),
                                              ("options", name in _OPTION_NAMES),
                                              ("rule", name in _CONTRACT_RULES)) if known]
        if len(found) != 1:
            problem = "does not have" if not found else f"has more than once ({', '.join(found)})"
            raise ProjectionError(f"the kernel reads an outcome rule {name!r} the reference {problem}")
        if found[0] == "contract":
            values[name] = getattr(contract, name)
        elif found[0] == "options":
            values[name] = getattr(options, name)
        else:
            values[name] = _CONTRACT_RULES[name](contract)
    return values


def lane_plan(kernel: ModuleType, contract: Contract, options: SlovenianOptions) -> object:
    """The kernel's plan of a Slovenian contract under ``options`` (``_fastplay.lane_plan``): what the fast
    lane plays it by, read by the kernel's names from the reference's follow rules (``table_rules``: the
    contract, forced Pagat, emperor mode), the contract, the options and the contract's named rules."""
    values = _play_values(kernel.PLAY_RULE_FIELDS, *slovenian.table_rules(contract, options))
    values.update(_outcome_values(kernel.OUTCOME_RULE_FIELDS, contract, options))
    return kernel.lane_plan(values)


_KOENIGRUFEN_OUTCOME: Mapping[str, Callable[[koenigrufen.Contract], Any]] = {
    "talon_group": lambda contract: contract.talon_group,
}
"""The outcome rules the lane reads of a Königrufen contract.  Only ``talon_group`` shapes the lane's checks
(the exchange); the others describe Slovenian facts (Klop, the beggar and valat games that stop early, the
Mondfang), which a Königrufen deal has none of: they are off, so the lane requires every trick played, and its
facts tuple is not read (``tarock.accel.kr_lane`` works the Königrufen facts out in
``tarock/accel/_krscore.c``)."""
_SLOVENIAN_ONLY = frozenset({"is_klop", "is_beggar", "is_valat", "normal", "mondfang_applies",
                             "mondfang_any_side"})


def koenigrufen_lane_plan(kernel: ModuleType, contract: koenigrufen.Contract, options: Any) -> object:
    """The kernel's lane plan of a Königrufen contract (``_fastplay.lane_plan``): the play rules from the
    reference's ``table_rules`` (follow rules, forced Pagat, emperor mode), ``talon_group`` from the contract
    and the Slovenian outcome rules off (``_KOENIGRUFEN_OUTCOME``).  ProjectionError for an outcome rule the
    kernel reads that neither names."""
    values = _play_values(kernel.PLAY_RULE_FIELDS, *koenigrufen.table_rules(contract, options))
    for name in kernel.OUTCOME_RULE_FIELDS:
        if name in _KOENIGRUFEN_OUTCOME:
            values[name] = _KOENIGRUFEN_OUTCOME[name](contract)
        elif name in _SLOVENIAN_ONLY:
            values[name] = False
        else:
            raise ProjectionError(f"the kernel reads an outcome rule {name!r} no Königrufen lane plan names")
    return kernel.lane_plan(values)


_PLAY_RULES: dict[tuple[int, bool, int], tuple[FollowRules, object]] = {}
"""``play_rules``'s answers by (the follow rules' identity, forced Pagat, emperor mode), with the follow rules
(kept alive, so the id stays theirs)."""


def play_rules(kernel: ModuleType, rules: FollowRules, force_pagat: bool, emperor: int) -> object:
    """The kernel's play rules (``_fastplay.rules``, what ``_fastplay.play`` takes) of a game played by
    ``rules``, ``force_pagat`` and ``emperor`` (``tarock.game.Game.kernel_rules``).  Remembered by the follow
    rules' identity: the table rules are made once per contract and options."""
    key = (id(rules), force_pagat, emperor)
    known = _PLAY_RULES.get(key)
    if known is not None and known[0] is rules:
        return known[1]
    made = kernel.rules(_play_values(kernel.PLAY_RULE_FIELDS, rules, force_pagat, emperor))
    if len(_PLAY_RULES) >= 4096:
        _PLAY_RULES.clear()
    _PLAY_RULES[key] = (rules, made)
    return made


def _side(name: object) -> Side:
    side = _SIDE_BY_NAME.get(name) if isinstance(name, str) else None
    if side is None:
        raise ProjectionError(f"the kernel answers with a side {name!r} the reference does not have")
    return side


def _positions(names: tuple[str, ...], wanted: tuple[str, ...], what: str) -> dict[str, int]:
    missing = [name for name in wanted if name not in names]
    if missing:
        raise ProjectionError(f"the kernel's {what} lack {', '.join(missing)}")
    return {name: names.index(name) for name in wanted}


def read_answers(kernel: ModuleType) -> Answers:
    """How to read the kernel's answers, by the names it gives them (``ProjectionError`` for one the reference
    does not know)."""
    sides = tuple(None if name is None else _side(name) for name in kernel.SIDES)
    pagat_last = tuple(None if entry is None else (_side(entry[0]), bool(entry[1]))
                       for entry in kernel.PAGAT_LAST)
    facts = FactsAt(**_positions(tuple(kernel.DECLARER_FACTS), FactsAt._fields, "DECLARER_FACTS"))
    klop = KlopFactsAt(**_positions(tuple(kernel.KLOP_FACTS), KlopFactsAt._fields, "KLOP_FACTS"))
    return Answers(sides, pagat_last, facts, klop)


def check(kernel: ModuleType) -> Answers:
    """Every name the kernel reads or answers with matched against the reference's, once, at load: the
    emperor modes' codes, a lane plan of every contract and the play rules of every contract of both rulesets
    (under the default options).  Raises ``ProjectionError`` at the first mismatch; returns
    ``read_answers``."""
    for name in ("EMPEROR_NEVER", "EMPEROR_ALWAYS", "EMPEROR_TAROK_LEAD"):
        if getattr(kernel, name, None) != getattr(play, name):
            raise ProjectionError(f"the kernel's {name} is {getattr(kernel, name, None)!r}, the reference's "
                                  f"{getattr(play, name)!r}")
    for contract in CONTRACTS.values():
        lane_plan(kernel, contract, DEFAULT_SLOVENIAN)
        play_rules(kernel, *slovenian.table_rules(contract, DEFAULT_SLOVENIAN))
    for k_contract in koenigrufen.CONTRACTS.values():
        play_rules(kernel, *koenigrufen.table_rules(k_contract, DEFAULT_KOENIGRUFEN))
        koenigrufen_lane_plan(kernel, k_contract, DEFAULT_KOENIGRUFEN)
    return read_answers(kernel)
