"""Ruleset options: the decisions of RULES.md as a frozen dataclass per ruleset.

Options are validated when they are loaded; an unknown key or an impossible
value is an ``OptionError`` (the record reader turns it into ``E_PARSE``).
The preset ``openspiel`` sets the rules OpenSpiel's tarok plays by.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping


class OptionError(ValueError):
    """An unknown option or an impossible option value."""


PENALTIES = ("slovenian_renons", "record_as_played", "jass_trick_forfeit", "austrian_renonce", "annul")

_CHOICES: dict[str, tuple[Any, ...]] = {
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
        default = SlovenianOptions()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}


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


def _coerce(key: str, value: Any) -> Any:
    """Accept the strings a command line gives ("true", "20") for typed options."""
    choices = _CHOICES[key]
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


def slovenian_options(
    raw: Mapping[str, Any] | None = None, overrides: Mapping[str, Any] | None = None
) -> SlovenianOptions:
    """Options from a record's ``options`` object, then command-line ``overrides`` on top."""
    values: dict[str, Any] = {}
    for source in (raw or {}, overrides or {}):
        preset = source.get("preset")
        if preset is not None:
            if preset not in PRESETS:
                raise OptionError(f"unknown option preset {preset!r}; known: {', '.join(PRESETS)}")
            values.update(PRESETS[preset])
        for key, value in source.items():
            if key == "preset":
                continue
            if key not in _CHOICES:
                raise OptionError(f"unknown option {key!r} for ruleset slovenian")
            values[key] = _coerce(key, value)
    if not values:
        return DEFAULT_SLOVENIAN
    return replace(DEFAULT_SLOVENIAN, **values)


DEFAULT_SLOVENIAN = SlovenianOptions()
