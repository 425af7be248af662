"""Loading ruleset options: a record's ``options`` object and the command line's overrides, validated.

Each ruleset declares its options in its own package (``tarock.rules.slovenian.options``,
``tarock.rules.koenigrufen.options``: a frozen dataclass whose fields name their possible values, and the
named presets).  ``options_for(ruleset, raw, overrides)`` loads either ruleset's: ``raw`` is a record's
``options`` object (every key must be the ruleset's), ``overrides`` come from the command line and apply to
every record, so a key that belongs only to the other ruleset is skipped — unless the overrides name their
ruleset (``SCOPE``: ``{"ruleset": "koenigrufen", ...}``, what a rules table gives, ``tarock.rules.tables``):
then they apply, strictly, to that ruleset's records only.  An unknown key or an impossible value is an
``OptionError`` (the record reader turns it into ``E_PARSE``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from tarock.rules import choices as _choices
from tarock.rules.choices import Choices, OptionError
from tarock.rules.koenigrufen import options as _koenigrufen
from tarock.rules.koenigrufen.options import KoenigrufenOptions
from tarock.rules.slovenian import options as _slovenian
from tarock.rules.slovenian.options import PENALTIES, SlovenianOptions

__all__ = ["Choices", "KoenigrufenOptions", "OptionError", "Options", "PENALTIES", "SCOPE", "SlovenianOptions",
           "check_overrides", "koenigrufen_options", "options_for", "slovenian_options"]

Options = SlovenianOptions | KoenigrufenOptions
"""The options of either ruleset."""


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
    "slovenian": _Spec(DEFAULT_SLOVENIAN, _choices.choices_of(SlovenianOptions), _slovenian.PRESETS),
    "koenigrufen": _Spec(DEFAULT_KOENIGRUFEN, _choices.choices_of(KoenigrufenOptions), _koenigrufen.PRESETS),
}


SCOPE = "ruleset"
"""The overrides' key naming the one ruleset they apply to (a rules table's); without it they apply to every
record, each key to the rulesets that have it."""


def _values(ruleset: str, source: Mapping[str, Any], strict: bool) -> dict[str, Any]:
    """The option values ``source`` sets for ``ruleset`` (presets expanded first).

    Not ``strict`` (command-line overrides): keys and presets of another ruleset are skipped; overrides scoped
    to a ruleset (``SCOPE``) set nothing for another and are strict for their own.
    """
    if not strict and SCOPE in source:
        if source[SCOPE] != ruleset:
            return {}
        source = {k: v for k, v in source.items() if k != SCOPE}
        strict = True
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
    """Raise OptionError unless every override is a valid option (or preset) of at least one ruleset (of the
    ruleset named by ``SCOPE``, when the overrides name one)."""
    if SCOPE in overrides:
        scope = overrides[SCOPE]
        if scope not in _SPECS:
            raise OptionError(f"unknown ruleset {scope!r}; known: {', '.join(_SPECS)}")
        _resolve(scope, None, overrides)
        return
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
