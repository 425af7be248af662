"""The options of Slovenian Tarok: the decisions of docs/rules.md, one field each, and the named presets.

Each field lists its possible values, the default first (``tarock.rules.choices.option``); the loader in
``tarock.options`` checks records and command lines against them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from tarock.rules.choices import OptionsBase, option

PENALTIES = ("slovenian_renons", "record_as_played", "jass_trick_forfeit", "austrian_renonce", "annul")
"""The renons policies (docs/penalties.md)."""


@dataclass(frozen=True, slots=True)
class SlovenianOptions(OptionsBase):
    """Options of the ``slovenian`` ruleset; defaults are docs/rules.md's decisions."""

    ruleset: ClassVar[str] = "slovenian"
    diff_rounding: str = option("nearest5", "none")
    silent_pagat_failure: bool = option(True, False)
    mondfang_value: int = option(21, 20)
    mondfang_any_side: bool = option(False, True)
    emperor_trick: bool = option(True, False)
    forced_pagat: str = option("all", "negative_only", "off")
    radelci: bool = option(True, False)
    penalty: str = option(*PENALTIES)
    bidding_order: str = option("forehand_last", "forehand_first")
    radelc_scope: str = option("declarer", "each_player")
    klop_radelc_double: bool = option(True, False)
    klop_cancels_radelc: bool = option(True, False)


PRESETS: Mapping[str, Mapping[str, Any]] = {
    "openspiel": {  # the rules OpenSpiel's tarok plays by (docs/openspiel.md)
        "bidding_order": "forehand_last",
        "diff_rounding": "none",
        "mondfang_value": 20,
        "mondfang_any_side": True,
        "forced_pagat": "negative_only",
        "radelci": False,
        "silent_pagat_failure": False,
    }
}
"""Named rule tables: ``-o preset=NAME`` or ``{"preset": NAME}`` in a record's options."""
