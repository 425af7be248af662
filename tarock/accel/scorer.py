"""The compiled scorer of a clean Slovenian deal (``tarock.accel._fastscore``): ingest's bulk path.

``score_lane`` gives what ``tarock.rules.slovenian.scoring.score_deal`` gives for a deal without offenders --
whether the declarer's side won, the scores, the radelci after the hand, each player's breakdown as the JSON
ingest stores and the breakdown's (row, component, value) triples -- straight from the compiled kernel's raw
facts tuple (``tarock.accel._fastplay.lane``), in about a microsecond instead of the ``DealFacts``,
``ScoreResult`` and ``orjson`` calls of the reference path.

The C module is a projection of the reference, ``tarock.rules.slovenian.scoring``: it holds no sentence, no
number and no order of the rules.  It names what it indexes by (its components, bonuses, announcements, kontra
targets and levels, kinds of contract, option values, sides, the facts it reads, the layout of every table it
takes), and this module builds every table by looking those names up -- in the reference's own tables
(``scoring.COMPONENTS``, ``BONUS_VALUES``, ``ANNOUNCEABLE``, ``KONTRA_TARGETS``, ``KONTRA_NAMES``,
``DIFF_ROUNDINGS``, ``RADELC_SCOPES``, the contract tables, its constants), in
``tarock.rules.rulesets.ALL_COMPONENTS`` and in the kernel's names of its facts and side codes -- and by
writing every text with the reference's own helpers: a text with a name or a number in it by scoring a probe
deal and cutting the sentence at the probe's marks.  Texts are JSON-escaped and handed to the C module in one
dict, by name.  A name the C module uses that the reference (or the kernel) does not have is a
``ProjectionError`` at import: the compiled scorer then stays off, with a ``RuntimeWarning`` (``WHY_OFF`` says
why), and ingest scores every deal with the reference.

Options are the accelerator's only when ``tarock.accel.declared.accepts`` them (every field and value
declared); the options the C module reads are then read by field name and coded by the C module's own names of
their values.  A deal the C scorer does not support comes back as None; the caller scores it with the
reference.  ``tests/accel/test_fast_score.py`` checks both agree byte for byte.

Call it through ``scorer()``: ``score_lane``, or None when the extension was not built, does not match the
reference, or the accelerator is switched off (``TAROCK_REFERENCE=1``, ``tarock.accel.reference()``).
"""

from __future__ import annotations

import importlib
import itertools
import warnings
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from types import MappingProxyType, ModuleType
from typing import Any, NamedTuple

import orjson

from tarock import accel
from tarock.accel.declared import accepts
from tarock.accel.projection import ProjectionError
from tarock.facts import DECLARER, OPPONENTS, DealFacts, Side
from tarock.options import DEFAULT_SLOVENIAN, SlovenianOptions
from tarock.rules.rulesets import ALL_COMPONENTS
from tarock.rules.slovenian import scoring

Result = tuple[bool | None, tuple[int, ...], tuple[int, ...], tuple[str, ...]]
"""(won, scores, radelci after, breakdown JSON), per player in playing order."""

Entry = Mapping[str, Any]
"""One entry of a table the C module takes, by its field names."""

_OFFENDERS_ONLY = frozenset({"penalty"})
"""Components of the reference's breakdown only a deal with offenders has: the C module scores none."""

_KINDS: Mapping[str, Callable[[str], bool]] = MappingProxyType({
    "klop": lambda name: name == "klop",  # scoring.score_deal: _score_klop
    "normal": lambda name: name in scoring.NORMAL_CONTRACTS,  # _score_normal
    "negative": lambda name: name in scoring.NEGATIVE_CONTRACTS,  # _score_higher, _higher_won's three ways
    "valat": lambda name: name in scoring.VALAT_CONTRACTS,
    "points": lambda name: name in scoring.HIGHER_CONTRACTS and name not in scoring.NEGATIVE_CONTRACTS
    and name not in scoring.VALAT_CONTRACTS,
})
"""How the reference scores a contract, by the C module's names of its kinds (``KINDS``)."""

_BOOLEAN = (False, True)
"""A yes-or-no dimension of a C table, indexed by the truth value."""

_PLAN_PARTS = frozenset({"contract", "mondfang", "options"})
"""What a plan holds besides options values (``_fastscore.PLAN``): the contract's index, the Mondfang table of
the options, the options themselves (which keep their id theirs while the plan is cached)."""

_NAME_LIMIT = 200
"""The longest name (JSON-escaped, in bytes) the C module takes: all lines of a deal fit its buffer."""
_CACHE_LIMIT = 4096

_MARKS = tuple(f"\ue000{seat}\ue000" for seat in range(4))
"""The probe deals' player names: marks no sentence holds otherwise."""
_HELD = (9173, 9281)
"""Radelci the probe deals' players hold: numbers no sentence holds otherwise."""


# --- the reference's texts --------------------------------------------------------------------------------


def _json(text: str) -> bytes:
    """``text`` as it stands inside a JSON string written by orjson (UTF-8, quotes and controls escaped)."""
    return orjson.dumps(text)[1:-1]


def _part(line: scoring.Line) -> Entry:
    """A line as a table entry of the C module: its escaped detail and its value."""
    return {"detail": _json(line.detail), "value": line.value}


def _probe(contract: str, options: SlovenianOptions, held: Sequence[int],
           **facts: Any) -> scoring.ScoreResult:
    """A probe deal of four marked players scored by the reference, the first ones holding ``held``
    radelci."""
    deal = DealFacts(_MARKS, contract, options=options, **facts)
    return scoring.score_deal(deal, dict(zip(_MARKS, held)))


def _line_of(result: scoring.ScoreResult, component: str) -> scoring.Line:
    """The one line of ``component`` in a probe deal's breakdown."""
    (line,) = (line for line in result.lines if line.component == component)
    return line


def _pieces(text: str, marks: Sequence[str], names: Sequence[str]) -> dict[str, bytes]:
    """``text`` cut at each of ``marks`` in turn, the pieces JSON-escaped, by ``names`` (the pieces' names in
    the sentence's order; a name given twice names equal pieces).  ProjectionError unless each mark is there
    once."""
    pieces: dict[str, bytes] = {}
    for i, name in enumerate(names):
        if i < len(marks):
            head, found, text = text.partition(marks[i])
            if not found:
                raise ProjectionError(f"{marks[i]!r} is not where expected in a reference sentence")
        else:
            head = text
        if any(mark in head for mark in marks):
            raise ProjectionError("a probe mark occurs twice in a reference sentence")
        piece = _json(head)
        if pieces.setdefault(name, piece) != piece:
            raise ProjectionError(f"the reference's sentence has two different {name!r} pieces")
    return pieces


def _radelc_texts() -> dict[str, dict[str, bytes]]:
    """The radelc sentences cut around names and numbers, each piece by its name (``_fastscore.TEXTS``): the
    declarer's radelc (``radelc_scope`` declarer), each doubled player's (each_player), a Klop player's."""
    tri = {"declarer": 0, "partner": 1, "card_points": (40, 30)}
    declarer = _probe("tri", replace(DEFAULT_SLOVENIAN, radelc_scope="declarer"), _HELD[:1], **tri)
    each = _probe("tri", replace(DEFAULT_SLOVENIAN, radelc_scope="each_player"), _HELD, **tri)
    klop = _probe("klop", replace(DEFAULT_SLOVENIAN, klop_radelc_double=True), _HELD[:1],
                  klop_points=(10, 20, 20, 20), klop_tricks=(1, 1, 1, 1))
    held = [str(n) for n in _HELD]
    return {
        "radelc_declarer": _pieces(_line_of(declarer, "radelc").detail, held[:1], ("head", "tail")),
        "radelc_each": _pieces(_line_of(each, "radelc").detail, (_MARKS[0], held[0], _MARKS[1], held[1]),
                               ("head", "holds", "separator", "holds", "tail")),
        "radelc_klop": _pieces(_line_of(klop, "radelc").detail, (_MARKS[0], held[0]),
                               ("head", "holds", "tail")),
    }


def _mondfang_entry(options: SlovenianOptions, announced: bool, kontra: int) -> Entry:
    """The Mondfang line of the owner's captured Mond (announced against them or not, kontra'd): its sentence
    cut at the owner's name, and its value.  The probe's owner is the declarer."""
    against = (("mondfang", OPPONENTS),) if announced else ()
    result = _probe("tri", options, (), declarer=0, partner=1, card_points=(40, 30), mondfang=(0,),
                    announced=against, kontra={"mondfang": kontra})
    line = _line_of(result, "mondfang")
    return {**_pieces(line.detail, _MARKS[:1], ("head", "tail")), "value": line.value}


def _klop_entry(points: int, took_trick: bool) -> Entry:
    """A Klop player's text, value and whether it is a ±70 result, as ``scoring._score_klop`` finds it."""
    tricks = int(took_trick)
    value, text, full = (scoring._KLOP_BY_POINTS.get(points) if tricks != 0 else None) \
        or scoring._klop_result(points, tricks)
    return {"detail": _json(text), "value": value, "full": full}


# --- the projection: the C module's names looked up in the reference ------------------------------------


def _known(what: str, names: Sequence[Any], known: Collection[Any]) -> None:
    """ProjectionError unless each of the C module's ``names`` is among the reference's ``known``."""
    missing = [name for name in names if name not in known]
    if missing:
        raise ProjectionError(f"the compiled scorer's {what} {missing} are not the reference's")


def _same(what: str, names: Sequence[Any], known: Collection[Any]) -> None:
    """ProjectionError unless the C module's ``names`` are the reference's ``known``, neither having more."""
    _known(what, names, known)
    extra = [name for name in known if name not in names]
    if extra:
        raise ProjectionError(f"the reference's {what} {extra} are not the compiled scorer's")


def _table(layouts: Mapping[str, tuple[Sequence[str], Sequence[str]]], name: str, entry: Callable[..., Entry],
           dimensions: Mapping[str, Sequence[Any]]) -> tuple[tuple[Any, ...], ...]:
    """The C module's table ``name`` as it lays it out (``_fastscore.TABLES``): flat over its dimensions, the
    first the slowest, each entry ``entry`` called with the dimensions' values by name, its fields in the C
    module's order."""
    axes, fields_ = layouts[name]
    unknown = [axis for axis in axes if axis not in dimensions]
    if unknown:
        raise ProjectionError(f"the compiled scorer's table {name} runs over {unknown}, which the reference "
                              "lacks")
    rows = []
    for values in itertools.product(*(dimensions[axis] for axis in axes)):
        try:
            got = entry(**dict(zip(axes, values)))
            rows.append(tuple(got[field] for field in fields_))
        except (KeyError, TypeError) as exc:
            raise ProjectionError(f"the compiled scorer's table {name} wants {exc}, which the reference "
                                  "lacks") from None
    return tuple(rows)


def _mondfang_table(layouts: Mapping[str, tuple[Sequence[str], Sequence[str]]], kontras: Sequence[int],
                    options: SlovenianOptions) -> tuple[tuple[Any, ...], ...]:
    """The Mondfang lines under ``options`` (a plan's table ``mondfang``): per announced against the owner or
    not, per kontra."""
    return _table(layouts, "mondfang", lambda announced, kontra: _mondfang_entry(options, announced, kontra),
                  {"announced": _BOOLEAN, "kontra": kontras})


@dataclass(frozen=True)
class Projection:
    """What the C module's names come to in the reference: its ``init`` dict and how to make its per-deal
    inputs."""

    init: dict[str, Any]
    """``_fastscore.init``'s argument: every table, text, constant and facts position, by the C module's
    names."""
    contracts: Mapping[str, int]
    """Each contract the C module scores, by its index in the ``contracts`` table (a plan holds it)."""
    plan: tuple[str, ...]
    """What a plan holds, in the C module's order (``PLAN``)."""
    option_values: Mapping[str, tuple[Any, ...]]
    """Per options field the C module reads, its values, each at the index a plan holds for it."""
    layouts: Mapping[str, tuple[Sequence[str], Sequence[str]]]
    """Each table's dimensions and fields (``TABLES``): the plan's Mondfang table is made per options."""
    kontras: tuple[int, ...]
    announced: tuple[str, ...]
    targets: tuple[str, ...]
    side_codes: Mapping[Side, int]


def project(module: Any, kernel: Any) -> Projection:
    """The C scorer ``module``'s names looked up in the reference and the ``kernel``'s
    (``tarock.accel._fastplay``) names of its facts; ProjectionError at the first name one of them lacks."""
    _known("components", module.COMPONENTS, scoring.COMPONENTS)
    left = [c for c in scoring.COMPONENTS if c not in module.COMPONENTS]
    _known("components it leaves to the reference", left, _OFFENDERS_ONLY)
    _same("bonuses", module.BONUSES, scoring.BONUS_VALUES)
    _same("announcements", module.ANNOUNCED, scoring.ANNOUNCEABLE)
    _same("kontra targets", module.KONTRA_TARGETS, scoring.KONTRA_TARGETS)
    kontras = tuple(module.KONTRAS)
    if kontras[:1] != (1,):
        raise ProjectionError(f"the compiled scorer's first kontra level is {kontras[:1]}, not 1 (none)")
    _known("kontra levels", kontras[1:], scoring.KONTRA_NAMES)
    _known("kinds of contract", module.KINDS, _KINDS)
    _known("diff_rounding values", module.ROUNDINGS, scoring.DIFF_ROUNDINGS)
    _known("radelc_scope values", module.SCOPES, scoring.RADELC_SCOPES)
    option_fields = {f.name for f in fields(SlovenianOptions)}
    _known("options", list(module.OPTION_VALUES), option_fields)
    _known("plan parts", [part for part in module.PLAN if part not in module.OPTION_VALUES], _PLAN_PARTS)
    sides = tuple(module.SIDES)
    if sides != tuple(kernel.SIDES) or tuple(module.PAGAT_LAST) != tuple(kernel.PAGAT_LAST):
        raise ProjectionError("the compiled scorer's side codes are not the kernel's (SIDES, PAGAT_LAST)")
    _known("sides", [side for side in sides if side is not None], (DECLARER, OPPONENTS))
    _known("facts", module.DECLARER_FACTS, kernel.DECLARER_FACTS)
    _known("Klop facts", module.KLOP_FACTS, kernel.KLOP_FACTS)
    _known("constants", module.CONSTANTS, vars(scoring))

    rules = scoring._RULES
    kind_of = {name: [kind for kind in module.KINDS if _KINDS[kind](name)] for name in rules}
    contracts = [name for name, kinds in kind_of.items() if len(kinds) == 1]
    dimensions: dict[str, Sequence[Any]] = {
        "component": module.COMPONENTS, "contract": contracts, "bonus": module.BONUSES, "kontra": kontras,
        "points": range(module.MAX_POINTS + 1), "diff_rounding": module.ROUNDINGS, "won": _BOOLEAN,
        "made": _BOOLEAN, "by_declarer": _BOOLEAN, "announced": _BOOLEAN, "took_trick": _BOOLEAN,
    }
    entries: dict[str, Callable[..., Entry]] = {
        "components": lambda component: {"name": _json(component), "index": ALL_COMPONENTS.index(component),
                                         "doubled": component in scoring.DOUBLED_BY_RADELC},
        "contracts": lambda contract: {"kind": module.KINDS.index(kind_of[contract][0]),
                                       "mondfang": rules[contract].mondfang,
                                       "award": rules[contract].award_reason is not None},
        "game": lambda contract, won, kontra: _part(scoring._game_line(rules[contract], (), won, kontra)),
        "difference": lambda points, diff_rounding, kontra: _part(
            scoring._difference_line((), points, diff_rounding, kontra)),
        "bonus": lambda bonus, by_declarer, made, announced, kontra: _part(scoring._bonus_line(
            (), bonus, DECLARER if by_declarer else OPPONENTS, made, announced, kontra)),
        "klop": _klop_entry,
    }
    layouts = {name: (tuple(axes), tuple(fields_)) for name, (axes, fields_) in module.TABLES.items()}
    _known("tables", list(layouts), [*entries, "mondfang"])
    init: dict[str, Any] = {name: _table(layouts, name, entries[name], dimensions)
                            for name in layouts if name != "mondfang"}
    _mondfang_table(layouts, kontras, DEFAULT_SLOVENIAN)  # a plan's, per options: its names checked here
    texts = _radelc_texts()
    _known("texts", list(module.TEXTS), texts)
    for name, pieces in module.TEXTS.items():
        _known(f"pieces of {name}", pieces, texts[name])
        init[name] = tuple(texts[name][piece] for piece in pieces)
    init["constants"] = {name: getattr(scoring, name) for name in module.CONSTANTS}
    init["declarer_facts"] = {"size": len(kernel.DECLARER_FACTS),
                              **{name: kernel.DECLARER_FACTS.index(name) for name in module.DECLARER_FACTS}}
    init["klop_facts"] = {"size": len(kernel.KLOP_FACTS),
                          **{name: kernel.KLOP_FACTS.index(name) for name in module.KLOP_FACTS}}
    return Projection(
        init=init,
        contracts=MappingProxyType({name: i for i, name in enumerate(contracts)}),
        plan=tuple(module.PLAN),
        option_values=MappingProxyType({name: tuple(vs) for name, vs in module.OPTION_VALUES.items()}),
        layouts=MappingProxyType(layouts),
        kontras=kontras,
        announced=tuple(module.ANNOUNCED),
        targets=tuple(module.KONTRA_TARGETS),
        side_codes=MappingProxyType({side: code for code, side in enumerate(sides) if side is not None}),
    )


class _Loaded(NamedTuple):
    module: ModuleType | None
    projection: Projection | None
    why_off: str | None


def _load() -> _Loaded:
    """The C module loaded with the reference's tables, and its projection; or why not."""
    try:
        module = importlib.import_module("tarock.accel._fastscore")
    except ImportError:
        return _Loaded(None, None, "tarock.accel._fastscore was not built")
    if accel.KERNEL is None:
        return _Loaded(None, None, "the kernel (tarock.accel) is not loaded")
    try:
        projection = project(module, accel.KERNEL)
        module.init(projection.init)
    except (ProjectionError, AttributeError, ValueError, TypeError) as exc:
        warnings.warn(f"tarock.accel.scorer: the compiled scorer does not match the reference ({exc}); deals "
                      "are scored by the reference (rebuild with `pip install -e .`)", RuntimeWarning,
                      stacklevel=2)
        return _Loaded(None, None, str(exc))
    return _Loaded(module, projection, None)


_KERNEL, _PROJECTION, WHY_OFF = _load()
"""``WHY_OFF``: why the compiled scorer is off (not built, no kernel, a name the reference lacks), or None."""
BUILT: bool = _KERNEL is not None
"""Whether the C scorer was built, matched the reference and was loaded at import (``scorer()`` also heeds
``tarock.accel``)."""
_score = _KERNEL.score if _KERNEL is not None else None

# What each deal reads, as module globals (empty when the C scorer is off: then nothing calls them).
_ANNOUNCED: tuple[str, ...] = _PROJECTION.announced if _PROJECTION else ()
_KONTRA_TARGETS: tuple[str, ...] = _PROJECTION.targets if _PROJECTION else ()
_KONTRA_INDEX: Mapping[int, int] = {k: i for i, k in enumerate(_PROJECTION.kontras)} if _PROJECTION else {}
_SIDE_CODES: Mapping[Side, int] = _PROJECTION.side_codes if _PROJECTION else {}
_NOBODY = (0,) * len(_ANNOUNCED)
"""The announcer codes of a deal without announcements."""


# --- per options, roster, announcements: worked out once ------------------------------------------------


def _code(values: tuple[Any, ...], value: Any) -> int | None:
    """The index of ``value`` among an option's ``values`` (compared with its type: ``True`` is not ``1``)."""
    for i, known in enumerate(values):
        if type(known) is type(value) and known == value:
            return i
    return None


_PLANS: dict[tuple[str, int], tuple[Any, ...]] = {}
"""The C module's plan of a contract under some options, by (contract, id(options)); a plan holds its options,
so no other object takes that id while it is here."""


def _new_plan(contract: str, options: SlovenianOptions) -> tuple[Any, ...] | None:
    """What the C module needs of a contract and the options (``_fastscore.PLAN``, each options field read by
    its name), or None for what it does not support: a contract it does not score, options the accelerator
    does not declare (``tarock.accel.declared``) or holding a value the C module has no name for."""
    p = _PROJECTION
    if p is None or contract not in p.contracts or not isinstance(options, SlovenianOptions) \
            or not accepts(options):
        return None
    plan: list[Any] = []
    for part in p.plan:
        if part == "contract":
            plan.append(p.contracts[contract])
        elif part == "mondfang":
            plan.append(_mondfang_table(p.layouts, p.kontras, options))
        elif part == "options":
            plan.append(options)
        else:
            code = _code(p.option_values[part], getattr(options, part))
            if code is None:
                return None
            plan.append(code)
    if len(_PLANS) >= _CACHE_LIMIT:
        _PLANS.clear()
    made = tuple(plan)
    _PLANS[contract, id(options)] = made
    return made


_ROSTERS: dict[tuple[str, ...], tuple[bytes, ...]] = {}


def _new_roster(players: tuple[str, ...]) -> tuple[bytes, ...] | None:
    """The players' names JSON-escaped, or None for a roster the C module does not take (not 3 or 4
    distinct names, a name orjson refuses or longer than ``_NAME_LIMIT`` escaped)."""
    if len(players) not in (3, 4) or not all(isinstance(p, str) for p in players) \
            or len(set(players)) != len(players):
        return None
    try:
        names = tuple(map(_json, players))
    except orjson.JSONEncodeError:  # a lone surrogate
        return None
    if max(map(len, names)) > _NAME_LIMIT:
        return None
    if len(_ROSTERS) >= _CACHE_LIMIT:
        _ROSTERS.clear()
    _ROSTERS[players] = names
    return names


_ANNOUNCERS: dict[tuple[tuple[str, Side], ...], tuple[int, ...] | None] = {}


def _announcer_codes(announced: tuple[tuple[str, Side], ...]) -> tuple[int, ...] | None:
    """Per announcement the C module reads (``_fastscore.ANNOUNCED``), the sides that announced it
    (``scoring._announcers``: in order, each once), two bits a side (its code, ``_fastscore.SIDES``); None
    when a side is neither."""
    if announced in _ANNOUNCERS:
        return _ANNOUNCERS[announced]
    by_bonus = scoring._announcers(announced)
    sides = [by_bonus.get(bonus, ()) for bonus in _ANNOUNCED]
    codes = None
    if all(side in _SIDE_CODES for of_bonus in sides for side in of_bonus):
        codes = tuple(sum(_SIDE_CODES[side] << 2 * i for i, side in enumerate(of_bonus))
                      for of_bonus in sides)
    if len(_ANNOUNCERS) >= _CACHE_LIMIT:
        _ANNOUNCERS.clear()
    _ANNOUNCERS[announced] = codes
    return codes


def extra_of(announced: tuple[tuple[str, Side], ...],
             kontra: Mapping[str, int] | None) -> tuple[int, ...] | None:
    """The announcer codes and kontra indices the C module reads (``score``'s ``extra``: per ``ANNOUNCED``,
    then per ``KONTRA_TARGETS``), or None for a kontra it does not take."""
    codes = _announcer_codes(announced) if announced else _NOBODY
    if codes is None:
        return None
    indices = []
    for target in _KONTRA_TARGETS:
        k = kontra.get(target, 1) if kontra else 1
        if type(k) is not int or k not in _KONTRA_INDEX:
            return None
        indices.append(_KONTRA_INDEX[k])
    return codes + tuple(indices)


# --- the entry point ----------------------------------------------------------------------------------------


def score_lane(contract: str, players: tuple[str, ...], declarer: int | None, partner: int | None,
               options: SlovenianOptions, facts: tuple[Any, ...], before: tuple[int, ...], first_row: int,
               components: bytearray, announced: tuple[tuple[str, Side], ...] = (),
               kontra: Mapping[str, int] | None = None) -> Result | None:
    """A clean deal scored as ``scoring.score_deal`` scores it, or None when the C scorer does not support it.

    ``facts`` is ``tarock.accel._fastplay.lane``'s raw facts tuple, ``before`` the radelci each player holds,
    ``announced`` and ``kontra`` the deal's valid announcements and kontras (``DealFacts``'s).  Returns
    (won, scores, radelci after, breakdown JSON), per player in ``players`` order: the breakdown JSON is
    ``orjson.dumps`` of the player's lines as dicts (players, component, detail, value), byte for byte.
    Appends to ``components``, per line and player listed in it in breakdown order, three little-endian
    int32: ``first_row`` + the player's seat, the line's index in ``ALL_COMPONENTS``, its value; nothing
    when it returns None.  None for: another number of players than 3 or 4, names not distinct or very long,
    options the accelerator does not declare, a kontra other than 2, 4, 8, 16, facts outside the kernel's
    ranges, a line value beyond int32.  Only through ``scorer()``.
    """
    plan = _PLANS.get((contract, id(options))) or _new_plan(contract, options)
    roster = _ROSTERS.get(players) or _new_roster(players)
    if plan is None or roster is None:
        return None
    extra = None
    if announced or kontra:
        extra = extra_of(announced, kontra)
        if extra is None:
            return None
    return _score(plan, roster, declarer, partner, facts, before, first_row, components,  # type: ignore[misc]
                  extra)


def plan_of(contract: str, options: SlovenianOptions) -> tuple[Any, ...] | None:
    """``score_prepared``'s plan of a contract under ``options``, or None when the C scorer does not take
    them."""
    return _PLANS.get((contract, id(options))) or _new_plan(contract, options)


def roster_of(players: tuple[str, ...]) -> tuple[bytes, ...] | None:
    """``score_prepared``'s roster of the players, or None when the C scorer does not take them."""
    return _ROSTERS.get(players) or _new_roster(players)


def prepared() -> Callable[..., Result | None] | None:
    """The C scorer itself, for a caller that keeps ``plan_of`` and ``roster_of``: ``score(plan, roster,
    declarer, partner, facts, before, first_row, components, extra)`` is ``score_lane`` without its lookups
    (``extra``: ``extra_of`` the announcements and kontras, or None); None as for ``scorer``.  A tenth
    argument, true, adds a fifth item to the result: the JSON list of every line of the breakdown (bytes),
    as a check result encodes its ``breakdown`` (``tarock check``'s fast path, ``tarock.check.fast``)."""
    return _score if BUILT and accel.KERNEL is not None else None


def scorer() -> Callable[..., Result | None] | None:
    """``score_lane`` when the C scorer is built, matches the reference and the accelerator is on, else None
    (score with the reference)."""
    return score_lane if BUILT and accel.KERNEL is not None else None
