"""The kernel's tables are filled and read by name (``tarock.accel.projection``), and a mismatch is loud.

The kernel names what it reads (``PLAY_RULE_FIELDS``, ``OUTCOME_RULE_FIELDS``) and what its answers mean
(``DECLARER_FACTS``, ``KLOP_FACTS``, ``SIDES``, ``PAGAT_LAST``, ``EMPEROR_*``).  Every name must be the
reference's; a kernel that reads or answers with one the reference does not have is not loaded
(``tarock.accel.ready`` warns and gives None), and the kernel itself refuses a mapping that lacks a name it
reads.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from tarock import accel
from tarock.accel import projection
from tarock.facts import DECLARER, OPPONENTS
from tarock.options import DEFAULT_SLOVENIAN
from tarock.rules import play
from tarock.rules.slovenian.contracts import CONTRACTS, emperor_mode, forced_pagat_applies, mondfang_applies

pytestmark = pytest.mark.skipif(accel.KERNEL is None, reason="the accelerator is not built here")


def _kernel() -> Any:
    assert accel.KERNEL is not None
    return accel.KERNEL


def _altered(**names: Any) -> SimpleNamespace:
    """The kernel, but for some of the names it exports."""
    kernel = _kernel()
    exported = {name: getattr(kernel, name) for name in dir(kernel) if not name.startswith("__")}
    return SimpleNamespace(**{**exported, **names})


def test_every_name_the_kernel_reads_is_the_references() -> None:
    kernel = _kernel()
    assert set(kernel.PLAY_RULE_FIELDS) == {"trumps", "void_tarok", "negative", "pagat_last", "pagat_scope",
                                            "pagat_emperor", "tarok_lead_last", "force_pagat", "emperor"}
    for name in kernel.OUTCOME_RULE_FIELDS:
        assert sum((name in projection._CONTRACT_NAMES, name in projection._OPTION_NAMES,
                    name in projection._CONTRACT_RULES)) == 1, name
    answers = projection.check(kernel)
    assert answers == accel.ANSWERS
    assert set(answers.sides) == {None, DECLARER, OPPONENTS}
    assert answers.pagat_last[0] is None
    assert set(answers.pagat_last[1:]) == {(side, won) for side in (DECLARER, OPPONENTS)
                                           for won in (False, True)}


def test_the_values_come_from_the_reference_by_name() -> None:
    kernel = _kernel()
    for c in CONTRACTS.values():
        for options in (DEFAULT_SLOVENIAN, replace(DEFAULT_SLOVENIAN, emperor_trick=False,
                                                   forced_pagat="negative_only", mondfang_any_side=True)):
            values = projection._play_values(kernel.PLAY_RULE_FIELDS, c, forced_pagat_applies(c, options),
                                             emperor_mode(c, options))
            values.update(projection._outcome_values(kernel.OUTCOME_RULE_FIELDS, c, options))
            assert values["trumps"] == c.trumps and values["pagat_scope"] == c.pagat_scope
            assert values["force_pagat"] == forced_pagat_applies(c, options)
            assert values["emperor"] == emperor_mode(c, options)
            assert values["is_klop"] == c.is_klop and values["talon_group"] == c.talon_group
            assert values["mondfang_applies"] == mondfang_applies(c)
            assert values["mondfang_any_side"] == options.mondfang_any_side


@pytest.mark.parametrize("change", [
    {"PLAY_RULE_FIELDS": ("no_such_rule",)},
    {"OUTCOME_RULE_FIELDS": ("is_klop", "no_such_rule")},
    {"SIDES": (None, "declarer", "the_others")},
    {"PAGAT_LAST": (None, ("nobody", True))},
    {"DECLARER_FACTS": ("declarer_points",)},
    {"KLOP_FACTS": ("klop_tricks",)},
    {"EMPEROR_ALWAYS": 7},
])
def test_a_kernel_whose_names_are_not_the_references_is_not_loaded(change: dict[str, Any]) -> None:
    altered = _altered(**change)
    with pytest.warns(RuntimeWarning, match="does not match the reference"):
        assert accel.ready(altered) is None  # type: ignore[arg-type]
    # the real kernel still loads (``ready`` re-initialises it with the same card tables)
    assert accel.ready(_kernel()) is not None


def test_the_kernel_refuses_a_mapping_without_a_name_it_reads() -> None:
    kernel = _kernel()
    with pytest.raises(KeyError, match="trumps"):
        kernel.lane_plan({})
    with pytest.raises(KeyError, match="emperor"):
        kernel.rules({name: 0 for name in kernel.PLAY_RULE_FIELDS if name != "emperor"})
    values = {name: 0 for name in kernel.PLAY_RULE_FIELDS + kernel.OUTCOME_RULE_FIELDS}
    kernel.lane_plan(values)
    with pytest.raises(TypeError, match="emperor"):
        kernel.lane_plan({**values, "emperor": "always"})
    with pytest.raises(KeyError, match="CARD_SUIT"):
        kernel.init({})
    # a plan is not a rules object, nor the other way round
    rules = kernel.rules(values)
    with pytest.raises(ValueError):
        kernel.play([0, 0, 0, 0], (), [], 0, 12, kernel.lane_plan(values))
    with pytest.raises(ValueError):
        kernel.lane((), (), (), None, ("a", "b", "c"), 16, -1, 0, False, None, None, None, rules)


def test_the_emperor_modes_are_the_references() -> None:
    kernel = _kernel()
    for name in ("EMPEROR_NEVER", "EMPEROR_ALWAYS", "EMPEROR_TAROK_LEAD"):
        assert getattr(kernel, name) == getattr(play, name)
