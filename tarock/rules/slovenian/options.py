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
    silent_king_ultimo_failure: bool = option(False, True)
    solo_brez_valat: bool = option(False, True)
    solo_brez_mondfang: bool = option(True, False)
    failed_mondfang_pays: bool = option(False, True)
    valat_game_kontra: bool = option(False, True)
    valat_announcer_leads: bool = option(False, True)
    klop_kontra: bool = option(False, True)
    barvni_valat_3p: bool = option(True, False)
    radelc_session_value: int = option(100, 40)


PRESETS: Mapping[str, Mapping[str, Any]] = {
    "openspiel": {  # the rules OpenSpiel's tarok plays by (docs/openspiel.md)
        "bidding_order": "forehand_last",
        "diff_rounding": "none",
        "mondfang_value": 20,
        "mondfang_any_side": True,
        "forced_pagat": "negative_only",
        "radelci": False,
        "silent_pagat_failure": False,
    },
    "palcka": {  # the rules the Palčka app plays, not its bugs (docs/rules.md, "The preset palcka")
        "diff_rounding": "none",
        "mondfang_any_side": True,
        "klop_radelc_double": False,
        "klop_cancels_radelc": False,
        "silent_king_ultimo_failure": True,
        "solo_brez_valat": True,
        "solo_brez_mondfang": False,
        "failed_mondfang_pays": True,
        "valat_game_kontra": True,
        "valat_announcer_leads": True,
        "klop_kontra": True,
        "barvni_valat_3p": False,
        "radelc_session_value": 40,
    },
}
"""Named rule tables: ``-o preset=NAME`` or ``{"preset": NAME}`` in a record's options."""
