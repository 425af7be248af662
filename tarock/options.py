"""Ruleset options: the decisions of RULES.md as a frozen dataclass per ruleset.

Options are validated when they are loaded; an unknown key or an impossible
value is an ``OptionError`` (the record reader turns it into ``E_PARSE``).
``options_for(ruleset, raw, overrides)`` loads either ruleset's: ``raw`` is a
record's ``options`` object (every key must be the ruleset's), ``overrides``
come from the command line and apply to every record, so a key that belongs
only to the other ruleset is skipped.  The preset ``openspiel`` sets the rules
OpenSpiel's tarok plays by.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, Mapping


class OptionError(ValueError):
    """An unknown option or an impossible option value."""


PENALTIES = ("slovenian_renons", "record_as_played", "jass_trick_forfeit", "austrian_renonce", "annul")
KOENIGRUFEN_PENALTIES = ("austrian_renonce", "record_as_played", "annul")
"""The renons policies Königrufen's zero-sum sheet implements (RULES.md §4.3)."""

Choices = tuple[Any, ...] | range
"""An option's possible values, the default first; a ``range`` for a whole number."""

_CHOICES: dict[str, Choices] = {
    "diff_rounding": ("nearest5", "none"),
    "silent_pagat_failure": (True, False),
    "mondfang_value": (21, 20),
    "mondfang_any_side": (False, True),
    "emperor_trick": (True, False),
    "forced_pagat": ("all", "negative_only", "off"),
    "radelci": (True, False),
    "penalty": PENALTIES,
    "bidding_order": ("forehand_last", "forehand_first"),
    "radelc_scope": ("declarer", "each_player"),
    "klop_radelc_double": (True, False),
}


@dataclass(frozen=True, slots=True)
class SlovenianOptions:
    """Options of the ``slovenian`` ruleset; defaults are RULES.md's decisions."""

    ruleset: ClassVar[str] = "slovenian"
    diff_rounding: str = "nearest5"
    silent_pagat_failure: bool = True
    mondfang_value: int = 21
    mondfang_any_side: bool = False
    emperor_trick: bool = True
    forced_pagat: str = "all"
    radelci: bool = True
    penalty: str = "slovenian_renons"
    bidding_order: str = "forehand_last"
    radelc_scope: str = "declarer"
    klop_radelc_double: bool = True

    def to_dict(self) -> dict[str, Any]:
        """Every option with its value."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from the defaults."""
        return _changed(self)


_KOENIGRUFEN_CHOICES: dict[str, Choices] = {
    "counting": ("1/3", "1/1"),
    "min_win_score": range(1, 107),
    "values": ("raiffeisen", "wien", "tirol", "sauwald"),
    "quapil": (False, True),
    "emperor_trick": (True, False),
    "pagat_restriction": (True, False),
    "color_discard_restriction": (False, True),
    "kontra_in_score": (True, False),
    "triccolo": (False, True),
    "trischaken_talon": ("first_six", "last_trick"),
    "kings_in_color_games": (True, False),
    "penalty": KOENIGRUFEN_PENALTIES,
}


@dataclass(frozen=True, slots=True)
class KoenigrufenOptions:
    """Options of the ``koenigrufen`` ruleset; defaults are RULES.md's decisions (seeds 000 and 003).

    ``counting`` ``1/3`` counts card points in thirds ("points and Blatt";
    a side wins with 35⅔); ``1/1`` counts raw card values (deck 106) and then
    ``min_win_score`` (raw points a side needs) is required.  ``values`` picks
    the cup's table of game values.  ``quapil``: the IIII ultimo bonus exists.
    ``emperor_trick``: Kaiserstich in positive tarock-trump games.
    ``pagat_restriction``: in negative games the Pagat only as the last
    tarock.  ``color_discard_restriction``: in colour games taroks are laid
    away first.  ``kontra_in_score``: kontras multiply the score (the money
    view; false: the cups' tournament score).  ``triccolo``: the game exists.
    ``trischaken_talon``: the talon goes one card each to the winners of the
    first six tricks, or whole to the winner of the last.
    ``kings_in_color_games``: Vier Könige counts in colour games.
    """

    ruleset: ClassVar[str] = "koenigrufen"
    counting: str = "1/3"
    min_win_score: int | None = None
    values: str = "raiffeisen"
    quapil: bool = False
    emperor_trick: bool = True
    pagat_restriction: bool = True
    color_discard_restriction: bool = False
    kontra_in_score: bool = True
    triccolo: bool = False
    trischaken_talon: str = "first_six"
    kings_in_color_games: bool = True
    penalty: str = "austrian_renonce"

    def __post_init__(self) -> None:
        if self.counting == "1/1" and self.min_win_score is None:
            raise OptionError("counting 1/1 needs min_win_score (the raw card points a side needs to win)")
        if self.counting == "1/3" and self.min_win_score is not None:
            raise OptionError("min_win_score belongs to counting 1/1; counting 1/3 wins with 35 points and 2 Blatt")

    def to_dict(self) -> dict[str, Any]:
        """Every option with its value."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from the defaults."""
        return _changed(self)


Options = SlovenianOptions | KoenigrufenOptions


PRESETS: dict[str, dict[str, Any]] = {
    "openspiel": {
        "bidding_order": "forehand_last",
        "diff_rounding": "none",
        "mondfang_value": 20,
        "mondfang_any_side": True,
        "forced_pagat": "negative_only",
        "radelci": False,
        "silent_pagat_failure": False,
    }
}


def _changed(options: Options) -> dict[str, Any]:
    default = type(options)()
    return {k: v for k, v in options.to_dict().items() if getattr(default, k) != v}


def _coerce(key: str, value: Any, choices: Choices) -> Any:
    """Accept the strings a command line gives ("true", "20") for typed options."""
    if isinstance(choices, range):
        number = value
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            number = int(value)
        if type(number) is int and number in choices:
            return number
        raise OptionError(f"option {key} cannot be {value!r}; expected a whole number from "
                          f"{choices.start} to {choices.stop - 1}")
    if value in choices and type(value) is type(choices[0]):
        return value
    if isinstance(value, str):
        low = value.strip().lower()
        for choice in choices:
            if isinstance(choice, bool) and low in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                return low in ("true", "1", "yes", "on")
            if isinstance(choice, int) and not isinstance(choice, bool) and low.lstrip("-").isdigit():
                if int(low) in choices:
                    return int(low)
            if choice == low:
                return choice
    raise OptionError(f"option {key} cannot be {value!r}; expected one of {', '.join(map(str, choices))}")


@dataclass(frozen=True, slots=True)
class _Spec:
    """How one ruleset's options load: the dataclass, each key's choices, the named presets."""

    default: Options
    choices: Mapping[str, Choices]
    presets: Mapping[str, Mapping[str, Any]]


DEFAULT_SLOVENIAN = SlovenianOptions()
DEFAULT_KOENIGRUFEN = KoenigrufenOptions()

_SPECS: dict[str, _Spec] = {
    "slovenian": _Spec(DEFAULT_SLOVENIAN, _CHOICES, PRESETS),
    "koenigrufen": _Spec(DEFAULT_KOENIGRUFEN, _KOENIGRUFEN_CHOICES, {}),
}


def _values(ruleset: str, source: Mapping[str, Any], strict: bool) -> dict[str, Any]:
    """The option values ``source`` sets for ``ruleset`` (presets expanded first).

    Not ``strict`` (command-line overrides): keys and presets of another ruleset are skipped.
    """
    spec = _SPECS[ruleset]
    values: dict[str, Any] = {}
    preset = source.get("preset")
    if preset is not None:
        if preset in spec.presets:
            values.update(spec.presets[preset])
        elif strict or not any(preset in other.presets for other in _SPECS.values()):
            known = ", ".join(spec.presets) or "none"
            raise OptionError(f"unknown option preset {preset!r} for ruleset {ruleset}; known: {known}")
    for key, value in source.items():
        if key == "preset":
            continue
        if key in spec.choices:
            values[key] = _coerce(key, value, spec.choices[key])
        elif strict or not any(key in other.choices for other in _SPECS.values()):
            raise OptionError(f"unknown option {key!r} for ruleset {ruleset}")
    return values


def options_for(ruleset: str, raw: Mapping[str, Any] | None = None,
                overrides: Mapping[str, Any] | None = None) -> Options:
    """A ruleset's options from a record's ``options`` object, then command-line ``overrides`` on top."""
    if ruleset not in _SPECS:
        raise OptionError(f"ruleset {ruleset!r} has no options")
    if not raw and not overrides:  # most records: the defaults, at no cost
        return _SPECS[ruleset].default
    try:
        key = (ruleset, _items(raw), _items(overrides))
        known = _RESOLVED.get(key)
    except TypeError:  # an unhashable value: resolved (and refused) below
        key, known = None, None
    if known is not None:
        return known
    options = _resolve(ruleset, raw, overrides)
    if key is not None:
        if len(_RESOLVED) >= 4096:
            _RESOLVED.clear()
        _RESOLVED[key] = options
    return options


_RESOLVED: dict[tuple[Any, ...], Options] = {}
"""Options already resolved, by ruleset and the record's and the command line's items: records of one
file or club repeat the same few."""


def _items(source: Mapping[str, Any] | None) -> tuple[tuple[str, type, Any], ...]:
    """A mapping's items with each value's type (``True`` and ``1`` are equal keys, not equal options)."""
    if not source:
        return ()
    values = source.values()
    return tuple(zip(source.keys(), map(type, values), values))


def _resolve(ruleset: str, raw: Mapping[str, Any] | None, overrides: Mapping[str, Any] | None) -> Options:
    values = _values(ruleset, raw or {}, strict=True)
    values.update(_values(ruleset, overrides or {}, strict=False))
    default = _SPECS[ruleset].default
    if not values:
        return default
    try:
        return replace(default, **values)
    except TypeError as exc:  # a value of the wrong type for a field (e.g. an unhashable preset)
        raise OptionError(str(exc)) from None


def check_overrides(overrides: Mapping[str, Any]) -> None:
    """Raise OptionError unless every override is a valid option (or preset) of at least one ruleset."""
    for key, value in overrides.items():
        owners = [name for name, spec in _SPECS.items()
                  if (value in spec.presets if key == "preset" else key in spec.choices)]
        if not owners:
            raise OptionError(f"unknown option preset {value!r}" if key == "preset" else f"unknown option {key!r}")
        errors = []
        for name in owners:
            try:
                _values(name, {key: value}, strict=True)
            except OptionError as exc:
                errors.append(exc)
        if len(errors) == len(owners):
            raise errors[0]


def slovenian_options(
    raw: Mapping[str, Any] | None = None, overrides: Mapping[str, Any] | None = None
) -> SlovenianOptions:
    """Options from a record's ``options`` object, then command-line ``overrides`` on top (both strict)."""
    values = _values("slovenian", raw or {}, strict=True)
    values.update(_values("slovenian", overrides or {}, strict=True))
    if not values:
        return DEFAULT_SLOVENIAN
    return replace(DEFAULT_SLOVENIAN, **values)


def koenigrufen_options(
    raw: Mapping[str, Any] | None = None, overrides: Mapping[str, Any] | None = None
) -> KoenigrufenOptions:
    """Königrufen options from a record's ``options`` object, then ``overrides`` on top."""
    options = options_for("koenigrufen", raw, overrides)
    assert isinstance(options, KoenigrufenOptions)
    return options
