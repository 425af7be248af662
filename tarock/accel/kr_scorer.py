"""The compiled scorer of a clean Königrufen deal (``tarock.accel._krscore``): the simulator's check.

``score`` gives what ``tarock.rules.koenigrufen.replay.outcome`` and ``scoring.score_deal`` give for a deal
without offenders -- whether the declarer won, each player's total and the breakdown's (player, component,
value) lines in the reference's order -- from the cards as the kernel replayed them, in a few microseconds
instead of the ``KoenigrufenFacts`` and ``ScoreResult`` (whose sentences the simulator never writes).

The C module holds no number of the rules.  It names what it indexes by (``BONUSES``, ``TARGETS``, ``KINDS``,
``TALONS``, ``TIES``, ``JUNGFRAU``, ``GIFTS``, ``SIDES``, ``PLAN_FIELDS``) and this module fills every table
by those names from the reference: the bonuses' values (``scoring.BONUS_VALUES``), the components' order
(``scoring.COMPONENTS``), the birds (``contracts.BIRDS``), the Trull and the kings (``tarock.cards``); per
contract and options (``plan``) the game value, the winning score, the counted bonuses, the valat's values and
each card's score in the table's counting, all through the reference's own functions, and the options the C
module reads by their field names.  A name the C module uses that the reference does not have is a
``ProjectionError`` at import: the compiled scorer stays off (``WHY_OFF``), with a ``RuntimeWarning``, and the
reference scores every deal.

Options are the scorer's only when ``tarock.accel.declared.accepts`` them.  ``tests/accel/test_kr_score.py``
checks the two agree on simulated deals under every declared value of every option.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Mapping
from typing import Any, NamedTuple

from tarock import accel, cards
from tarock.accel.declared import DECLARED, accepts
from tarock.accel.projection import ProjectionError
from tarock.facts import DECLARER, OPPONENTS, Side
from tarock.options import DEFAULT_KOENIGRUFEN, KoenigrufenOptions
from tarock.rules.koenigrufen import contracts, scoring

Result = tuple[bool | None, tuple[int, ...], tuple[tuple[int, str, int], ...]]
"""(won, each seat's total, the breakdown's (seat, component, value) lines)."""

_NAMED_RULES: Mapping[str, str] = {
    # rules scoring.py writes inline for one contract, by name: _game_item's lost Sechserdreier, _valat_item's
    # sechserdreier_doubles_valat
    "lost_double": "sechserdreier",
    "valat_double": "sechserdreier",
}


class Tables(NamedTuple):
    """What the C module indexes by, worked out once at load."""

    bonuses: tuple[str, ...]
    targets: tuple[str, ...]
    sides: dict[Side, int]
    components: tuple[str, ...]
    """Each component index the C module answers with, its name (``scoring.COMPONENTS``)."""


def _index(names: tuple[Any, ...], value: Any, what: str) -> int:
    if value not in names:
        raise ProjectionError(f"the compiled Königrufen scorer has no {what} {value!r}")
    return names.index(value)


def project(module: Any) -> tuple[dict[str, Any], Tables]:
    """``init``'s tables from the reference, by the C module's names, and how to read its answers."""
    bonuses, targets = tuple(module.BONUSES), tuple(module.TARGETS)
    for name in contracts.BONUS_ORDER:
        _index(bonuses, name, "bonus")
    unknown = [b for b in bonuses if b not in contracts.BONUS_ORDER]
    if unknown or set(targets) - set(bonuses) != {"game"} \
            or set(targets) - {"game"} - set(scoring.COMPONENTS):
        raise ProjectionError(f"the compiled Königrufen scorer names bonuses the reference lacks: {unknown}")
    sides = {DECLARER: _index(tuple(module.SIDES), DECLARER, "side"),
             OPPONENTS: _index(tuple(module.SIDES), OPPONENTS, "side")}
    for talon in (contracts.HALF, contracts.SIX, contracts.CLOSED, contracts.NONE, contracts.GIFTS):
        _index(tuple(module.TALONS), talon, "talon")
    for option, names in (("trischaken_ties", module.TIES), ("trischaken_jungfrau", module.JUNGFRAU),
                          ("trischaken_talon", module.GIFTS)):
        for value in DECLARED["koenigrufen"][option]:  # every value a plan may be asked to code
            _index(tuple(names), value, option)
    plain = [b for b in bonuses if b != "valat"]
    init = {
        "silent": [scoring.BONUS_VALUES[b][0] if b in plain else 0 for b in bonuses],
        "full": [scoring.BONUS_VALUES[b][1] if b in plain else 0 for b in bonuses],
        "components": [scoring.COMPONENTS.index(t) for t in targets],
        "bird_cards": [contracts.BIRDS[b][0] if b in contracts.BIRDS else -1 for b in bonuses],
        "bird_tricks": [contracts.BIRDS[b][1] if b in contracts.BIRDS else 0 for b in bonuses],
        "trull_mask": cards.TRULA_MASK,
        "kings_mask": cards.KINGS_MASK,
    }
    return init, Tables(bonuses, targets, sides, tuple(scoring.COMPONENTS))


def plan_values(module: Any, contract: contracts.Contract, options: KoenigrufenOptions) -> dict[str, Any]:
    """The C module's plan of ``contract`` under ``options``, by its ``PLAN_FIELDS``: from the contract table,
    the options and the reference's functions (``game_value``, ``win_score``, ``counted_bonuses``,
    ``card_score``, ``scoring.VALAT_VALUES``)."""
    per_game, silent, full = scoring.VALAT_VALUES[options.values]
    kind = "trischaken" if contract.is_trischaken else "negative" if contract.negative else "positive"
    values: dict[str, Any] = {
        "kind": _index(tuple(module.KINDS), kind, "kind"),
        "value": contracts.game_value(contract, options),
        "win": contracts.win_score(options),
        "tricks": -1 if contract.tricks is None else contract.tricks,
        "talon": _index(tuple(module.TALONS), contract.talon, "talon"),
        "solo": contract.solo,
        "lost_double": 2 if contract.name == _NAMED_RULES["lost_double"] else 1,
        "valat_double": 2 if options.sechserdreier_doubles_valat
        and contract.name == _NAMED_RULES["valat_double"] else 1,
        "trischaken_ties": _index(tuple(module.TIES), options.trischaken_ties, "trischaken_ties"),
        "trischaken_jungfrau": _index(tuple(module.JUNGFRAU), options.trischaken_jungfrau,
                                      "trischaken_jungfrau"),
        "trischaken_talon": _index(tuple(module.GIFTS), options.trischaken_talon, "trischaken_talon"),
        "valat_per_game": per_game,
        "valat_silent": silent,
        "valat_full": full,
        "counted": [_index(tuple(module.BONUSES), bonus, "bonus")
                    for bonus in contracts.counted_bonuses(contract, options)],
        "card_scores": [contracts.card_score(1 << c, options) for c in range(cards.N_CARDS)],
    }
    for name in module.PLAN_FIELDS:
        if name not in values:  # the rest are the options' own fields, by name
            if not hasattr(options, name):
                raise ProjectionError(f"the compiled Königrufen scorer reads {name!r}, which the reference "
                                      "lacks")
            values[name] = getattr(options, name)
    return values


class _Loaded(NamedTuple):
    module: Any
    tables: Tables | None
    why_off: str | None


def _load() -> _Loaded:
    """The C module loaded with the reference's tables; or why not."""
    try:
        module = importlib.import_module("tarock.accel._krscore")
    except ImportError:
        return _Loaded(None, None, "tarock.accel._krscore was not built")
    try:
        init, tables = project(module)
        module.init(init)
        for contract in contracts.CONTRACTS.values():  # every plan field found under the defaults
            module.plan(plan_values(module, contract, DEFAULT_KOENIGRUFEN))
    except (ProjectionError, AttributeError, KeyError, ValueError, TypeError) as exc:
        warnings.warn(f"tarock.accel.kr_scorer: the compiled Königrufen scorer does not match the reference "
                      f"({exc}); deals are scored by the reference (rebuild with `pip install -e .`)",
                      RuntimeWarning, stacklevel=2)
        return _Loaded(None, None, str(exc))
    return _Loaded(module, tables, None)


_MODULE, _TABLES, WHY_OFF = _load()
"""``WHY_OFF``: why the compiled Königrufen scorer is off (not built, a name the reference lacks), or None."""
BUILT: bool = _MODULE is not None
"""Whether the C scorer was built, matched the reference and was loaded at import."""

_PLANS: dict[tuple[str, int], tuple[KoenigrufenOptions, object | None]] = {}
"""Plans by (contract, the options' identity), with the options (kept alive, so the id stays theirs); None
where the scorer does not take the options."""


def plan_of(contract: str, options: KoenigrufenOptions) -> object | None:
    """The C plan of ``contract`` under ``options``, or None when the scorer is off or does not take them."""
    key = (contract, id(options))
    known = _PLANS.get(key)
    if known is not None and known[0] is options:
        return known[1]
    plan = None
    if _MODULE is not None and accepts(options) and contract in contracts.CONTRACTS:
        plan = _MODULE.plan(plan_values(_MODULE, contracts.CONTRACTS[contract], options))
    if len(_PLANS) >= 4096:
        _PLANS.clear()
    _PLANS[key] = (options, plan)
    return plan


def bonus_code(bonus: str) -> int:
    """The C module's index of a bonus (``announced`` pairs)."""
    assert _TABLES is not None
    return _TABLES.bonuses.index(bonus)


def target_code(target: str) -> int:
    """The C module's index of a kontra target (``kontra`` pairs): a bonus or the game."""
    assert _TABLES is not None
    return _TABLES.targets.index(target)


def side_code(side: Side) -> int:
    """The C module's code of a side."""
    assert _TABLES is not None
    return _TABLES.sides[side]


def component_name(index: int) -> str:
    """The name of a component the C module answers with."""
    assert _TABLES is not None
    return _TABLES.components[index]


def prepared() -> Any | None:
    """The C ``score`` itself when the scorer is built and the accelerator is on (``tarock.accel``), else
    None: ``score(plan, tricks, seats, winners, declarers, partner, called_king, king_in_talon, talon,
    pick, stash, conceded, announced, kontra, pair_kontra)`` (``_krscore.c`` says what each is) -> ``(won,
    scores, lines)`` with ``won`` 1, 0 or -1 (None), or None for a deal it does not implement."""
    return _MODULE.score if _MODULE is not None and accel.KERNEL is not None else None
