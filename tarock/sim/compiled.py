"""The simulator's compiled hot paths (``tarock/sim/_simplay.c``), loaded when built, and what dispatches to them.

The Python players (``tarock.sim.players``, ``tarock.sim.koenigrufen_players``) are the reference;
``_simplay`` is their projection: a dealt hand's value (``hand_value``) and each seat's bidding wishes
(``wishes``: ``value_hand`` and ``acceptable_contracts``, the thresholds the players' ``STYLES`` handed over at
load), the king call, the talon pick and the stash (``call_king``, ``pick_talon``, ``choose_stash``), and a whole
deal's card play (``tarock.sim.table.Table.play_with``); and the draws: the deck's shuffle (``shuffle``, and the
deal, ``tarock.sim.randomplay.deal_masks``), CPython's ``random.Random.shuffle`` step for step, and the bidding
mood, ``random.Random.gauss`` step for step, each drawing from the generator itself -- used only when it leaves
probe decks, draws and the generator exactly as the Python does (``_SHUFFLES``, ``_GAUSS``).  It reads the card
tables and the players' own tables by name at load, and takes the legal cards and trick winners from the rules
kernel (``tarock.accel``).  It runs only while the kernel does (``TAROCK_REFERENCE=1`` or
``tarock.accel.reference()`` switch both off), so a run on the reference is one switch away;
``tests/sim/test_compiled_play.py`` checks each piece against the Python and that both give the same output byte
for byte.
"""

from __future__ import annotations

import random
import warnings
from types import ModuleType

from tarock import accel, cards
from tarock.rules.slovenian.contracts import Contract
from tarock.sim import players
from tarock.sim.players import HandValue, acceptable_contracts, value_hand


def _load() -> ModuleType | None:
    """``_simplay`` initialised with the tables it reads; None when it was not built or the kernel was not loaded
    at import."""
    if not accel.BUILT:
        return None
    try:
        from tarock.sim import _simplay  # type: ignore[attr-defined]  # compiled: no stub
    except ImportError:
        return None
    tables = {**vars(cards), "VALUE_KEY": players.VALUE_KEY, "SMEAR_KEY": players.SMEAR_KEY,
              "RANK": players.RANK, "TAROK_RISK": players.TAROK_RISK, "HIGH_TAROKS": players.HIGH_TAROKS,
              "QUEEN_BITS": tuple(1 << q for q in players.QUEENS), "COLOUR_TAROKS": players.COLOUR_TAROKS,
              "UNCOUNTED": players.UNCOUNTED}
    try:
        _simplay.init(tables)
        for n, style in players.STYLES.items():
            _simplay.style(n, tuple(need for _, need in style.positive),
                           tuple(name == players.FOREHAND_WISH for name, _ in style.positive), style.berac_risk,
                           style.odprti_risk, style.valat_strength, style.valat_taroks, style.colour_losers)
    except (ImportError, KeyError, TypeError, ValueError, OverflowError) as exc:
        warnings.warn(f"tarock.sim: the compiled players do not load ({exc}); the Python players play instead "
                      "(rebuild with `pip install -e .`)", RuntimeWarning, stacklevel=2)
        return None
    return _simplay


SIMPLAY: ModuleType | None = _load()
"""The compiled players, or None: callers also ask ``running()`` at every use."""


def _shuffles_as_python(module: ModuleType | None) -> bool:
    """Whether ``module.shuffle`` leaves decks and the generator as ``random.Random.shuffle`` does, on probes of
    every length a deal shuffles and more (another Python's shuffle may draw differently)."""
    if module is None:
        return False
    ours, theirs = random.Random("probe"), random.Random("probe")
    for size in (1, 2, 3, 17, 33, 54, 54, 54, 200):
        a, b = list(range(size)), list(range(size))
        module.shuffle(ours, a)
        theirs.shuffle(b)
        if a != b:
            return False
    return ours.getstate() == theirs.getstate()


_SHUFFLES = _shuffles_as_python(SIMPLAY)
"""Whether the compiled shuffle is the Python's here (checked once, at import)."""


def _gauss_as_python(module: ModuleType | None) -> bool:
    """Whether ``module.gauss`` draws what ``random.Random.gauss(0.0, 1.0)`` draws and leaves the generator as it
    does (its ``gauss_next`` too), on a probe of draws from both states of ``gauss_next``."""
    if module is None:
        return False
    ours, theirs = random.Random("gauss probe"), random.Random("gauss probe")
    for _ in range(1001):
        if module.gauss(ours) != theirs.gauss(0.0, 1.0):
            return False
    return ours.getstate() == theirs.getstate() and ours.gauss_next == theirs.gauss_next  # type: ignore[attr-defined]


_GAUSS = _gauss_as_python(SIMPLAY)
"""Whether the compiled players draw ``gauss`` themselves (checked once, at import); else they call the
generator's."""


def running() -> ModuleType | None:
    """The compiled players when they may run now (built, and the kernel not switched off), else None."""
    return SIMPLAY if accel.KERNEL is not None else None


def hand_values(hands: list[int]) -> list[HandValue]:
    """``hand_value`` of each hand."""
    compiled = running()
    if compiled is None:
        return [value_hand(h) for h in hands]
    value = compiled.value_hand
    return [HandValue._make(value(h)) for h in hands]


def hand_value(hand: int) -> HandValue:
    """``tarock.sim.players.value_hand``, compiled when it may run."""
    compiled = running()
    if compiled is None:
        return value_hand(hand)
    return HandValue(*compiled.value_hand(hand))


def wishes(rng: random.Random, hands: list[int]) -> tuple[list[HandValue], list[tuple[Contract, ...]]]:
    """Each seat's hand value and ``acceptable_contracts`` (seat by seat, each drawing its mood from ``rng``),
    compiled when it may run (the moods drawn in C when ``rng`` is a plain ``random.Random`` and ``_GAUSS``)."""
    n = len(hands)
    compiled = running()
    if compiled is None:
        values = [value_hand(h) for h in hands]
        return values, [acceptable_contracts(v, s, n, rng) for s, v in enumerate(values)]
    raw, bits = compiled.wishes(rng, hands, _GAUSS and type(rng) is random.Random)
    known = _WISHED
    return [HandValue._make(v) for v in raw], [known[n, b] if (n, b) in known else _wished(n, b) for b in bits]


_WISHED: dict[tuple[int, int], tuple[Contract, ...]] = {}
"""The contracts of ``_simplay.wishes``' bits, by table size and bits."""


def _wished(n: int, bits: int) -> tuple[Contract, ...]:
    """The contracts of ``bits`` (``_simplay.wishes``: bit i the i-th name of ``players.wish_order``), remembered."""
    order = players.wish_order(n)
    chosen = _WISHED[n, bits] = players.contracts_named(tuple(order[i] for i in range(len(order)) if bits >> i & 1))
    return chosen


def call_king(hand: int, rng: random.Random) -> int:
    """``tarock.sim.players.call_king``, compiled when it may draw from ``rng`` (``shuffler``: its draw is
    ``_randbelow``'s, as the shuffle's)."""
    compiled = shuffler(rng)
    if compiled is None:
        return players.call_king(hand, rng)
    king: int = compiled.call_king(hand, rng)
    return king


def pick_talon(talon: list[int], group: int) -> tuple[int, ...]:
    """``tarock.sim.players.pick_talon``, compiled when it may run."""
    compiled = running()
    if compiled is None:
        return players.pick_talon(talon, group)
    pick: tuple[int, ...] = compiled.pick_talon(talon, group)
    return pick


def choose_stash(hand: int, k: int, called_king: int | None) -> int:
    """``tarock.sim.players.choose_stash``, compiled when it may run."""
    compiled = running()
    if compiled is None:
        return players.choose_stash(hand, k, called_king)
    stash: int = compiled.choose_stash(hand, k, -1 if called_king is None else called_king)
    return stash


def shuffler(rng: random.Random) -> ModuleType | None:
    """The compiled players when they may shuffle with ``rng`` (they may run, ``rng`` is a plain
    ``random.Random`` and the compiled shuffle is the Python's here), else None."""
    compiled = running()
    return compiled if compiled is not None and _SHUFFLES and type(rng) is random.Random else None


def shuffle(rng: random.Random, deck: list[int]) -> None:
    """``rng.shuffle(deck)``, compiled when it may be (``shuffler``)."""
    compiled = shuffler(rng)
    if compiled is None:
        rng.shuffle(deck)
        return
    compiled.shuffle(rng, deck)
