"""The compiled scorer (``tarock.accel.scorer``) against the reference ``scoring.score_deal``.

For every case the C scorer gets the kernel's raw facts tuple and the reference the ``DealFacts``
``tarock.accel.lane`` builds from it; both must give the same ``won``, scores and radelci after, the
same breakdown JSON per player byte for byte (``orjson`` of the reference's lines, as ingest writes
it), and component triples equal to the reference's lines, line by line and player by player.  The
corpus (> 100,000 cases): random legal deals of 3 and 4 players replayed in the fast lane (the raw
tuples the kernel really returns), some with valid announcements and kontras, scored under option
sets that move every option scoring reads; and random raw facts that reach the corners (silent
pagat failures, king ultimo, 0/1/2 Mondfangs, valat of either side, full and empty Klop results,
every radelc rule, every announcement and kontra), with awkward player names.  Every case is one
the C scorer claims to support, so none may be declined.

The C module is a projection of the reference by name (``tarock.accel.scorer.project``): a name it uses that
the reference or the kernel lacks keeps it off (the reference scores every deal), and it declines options the
accelerator has not declared (``tarock.accel.declared``) or holding a value it has no name for.
"""

from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
import sys
import sysconfig
import types
from dataclasses import dataclass, replace
from typing import Any

import orjson
import pytest

from tarock import accel
from tarock.accel import declared
from tarock.accel import scorer as fast_score
from tarock.accel.lane import replay_slovenian
from tarock.accel.projection import ProjectionError
from tarock.facts import DECLARER, OPPONENTS, DealFacts, Side
from tarock.formats.codec import deal_from_obj
from tarock.options import DEFAULT_SLOVENIAN, SlovenianOptions, slovenian_options
from tarock.rules.rulesets import ALL_COMPONENTS
from tarock.rules.slovenian import scoring
from tarock.rules.slovenian.contracts import CARDS_PER_HAND, CONTRACTS, allowed_contract
from tarock.rules.slovenian.scoring import score_deal
from tarock.sim.randomplay import random_record

needs_c = pytest.mark.skipif(not fast_score.BUILT or accel.KERNEL is None,
                             reason="the C scorer or the kernel is not built here")

D = DEFAULT_SLOVENIAN
OPTION_SETS: tuple[SlovenianOptions, ...] = (
    D,
    replace(D, diff_rounding="none", silent_pagat_failure=False),
    replace(D, radelci=False, mondfang_value=20),
    replace(D, radelc_scope="each_player", klop_radelc_double=False),
    replace(D, radelc_scope="each_player", diff_rounding="none", mondfang_value=20, penalty="annul"),
    replace(D, klop_radelc_double=False, silent_pagat_failure=False, mondfang_value=25, penalty="austrian_renonce"),
    slovenian_options({"preset": "openspiel"}),
)
"""Every value of every option scoring reads (diff_rounding, silent_pagat_failure, mondfang_value,
radelci, radelc_scope, klop_radelc_double) in some set; the penalty, which only offenders meet, too."""

ROSTERS: tuple[tuple[str, ...], ...] = (
    ("Ana", "Boris", "Cilka", "David"),
    ('Ana "the Pagat"', "back\\slash", "new\nline\ttab\x01\x1f\x7f", "Žiga 🃏 ×"),
    ("</script>", "it's", "\u2028\u2029", "\"\\\"\\"),
)
"""Plain names and names JSON must escape (quotes, backslashes, control characters) or not (non-ASCII)."""

TARGETS = ("game", "pagat_ultimo", "king_ultimo", "valat", "mondfang")
BONUSES = ("trula", "kings", "pagat_ultimo", "king_ultimo", "valat", "mondfang")


def test_the_c_scorer_is_built_where_a_compiler_is() -> None:
    """A machine with a C compiler builds ``tarock.accel._fastscore``; without one ingest scores with the reference."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        pytest.skip(f"no C compiler ({cc}) here")
    assert fast_score.BUILT
    assert fast_score.scorer() is fast_score.score_lane


# --- the two scorers ------------------------------------------------------------------------------------


def facts_from_raw(players: tuple[str, ...], contract: str, declarer: int | None, partner: int | None,
                   options: SlovenianOptions, raw: tuple[Any, ...], announced: tuple[tuple[str, Side], ...] = (),
                   kontra: dict[str, int] | None = None) -> DealFacts:
    """The ``DealFacts`` ``tarock.accel.lane.replay_slovenian`` builds from the kernel's raw facts (read by
    the names the kernel gives them, ``tarock.accel.ANSWERS``)."""
    assert accel.ANSWERS is not None
    sides, pagat_codes = accel.ANSWERS.sides, accel.ANSWERS.pagat_last
    c = CONTRACTS[contract]
    if c.is_klop:
        klop = accel.ANSWERS.klop_facts
        return DealFacts(players, "klop", options=options, klop_points=raw[klop.klop_points],
                         klop_tricks=raw[klop.klop_tricks])
    at = accel.ANSWERS.facts
    decided = raw[at.decided]
    per_hand = CARDS_PER_HAND[len(players)]
    return DealFacts(
        players, contract, declarer, partner, options, (raw[at.declarer_points], raw[at.opponents_points]),
        declarer_took_trick=c.is_beggar and decided > 0,
        declarer_lost_trick=c.is_valat and raw[at.lost_trick] > 0,
        valat_side=sides[raw[at.valat_side]], trula_side=sides[raw[at.trula_side]],
        kings_side=sides[raw[at.kings_side]], pagat_last=pagat_codes[raw[at.pagat_last]],
        king_last=sides[raw[at.king_last]], mondfang=raw[at.mondfang],
        announced=announced, kontra=dict(kontra or {}),
        decided_early=decided if 0 < decided < per_hand else None,
    )


def raw_facts(**facts: Any) -> tuple[Any, ...]:
    """The kernel's facts tuple of a declarer's deal, each fact by the kernel's name (``DECLARER_FACTS``)."""
    assert accel.KERNEL is not None
    return tuple(facts[name] for name in accel.KERNEL.DECLARER_FACTS)


def raw_klop(points: tuple[int, ...], tricks: tuple[int, ...]) -> tuple[Any, ...]:
    """The kernel's facts tuple of a Klop (``KLOP_FACTS``)."""
    assert accel.KERNEL is not None
    given = {"klop_points": points, "klop_tricks": tricks}
    return tuple(given[name] for name in accel.KERNEL.KLOP_FACTS)


Outcome = tuple[Any, list[tuple[int, int, int]]]


def reference(facts: DealFacts, before: tuple[int, ...], first_row: int) -> Outcome:
    """What ingest makes of ``score_deal``: (won, scores, radelci after, breakdown JSON) and the triples."""
    result = score_deal(facts, dict(zip(facts.players, before)))
    players = facts.players
    jsons = tuple(orjson.dumps([{"players": list(line.players), "component": line.component, "detail": line.detail,
                                 "value": line.value} for line in result.lines if p in line.players]).decode()
                  for p in players)
    triples = [(first_row + players.index(p), ALL_COMPONENTS.index(line.component), line.value)
               for line in result.lines for p in line.players]
    return (result.won, tuple(result.scores[p] for p in players),
            tuple(result.radelci_after[p] for p in players), jsons), triples


def compiled(facts: DealFacts, raw: tuple[Any, ...], before: tuple[int, ...], first_row: int) -> Outcome | None:
    """The C scorer's answer for the same deal, or None when it declines (then it must append nothing)."""
    components = bytearray(b"previous rows")
    got = fast_score.score_lane(facts.contract, facts.players, facts.declarer, facts.partner, facts.options, raw,
                                before, first_row, components, facts.announced, facts.kontra)
    if got is None:
        assert components == b"previous rows"
        return None
    assert components[:13] == b"previous rows"
    return got, list(struct.iter_unpack("<iii", bytes(components[13:])))


class Tally:
    """Cases compared, and the contracts and kinds of line (a detail's words before its colon) they reached."""

    def __init__(self) -> None:
        self.cases = 0
        self.seen: set[str] = set()

    def compare(self, facts: DealFacts, raw: tuple[Any, ...], before: tuple[int, ...], first_row: int) -> None:
        want = reference(facts, before, first_row)
        got = compiled(facts, raw, before, first_row)
        assert got is not None, f"declined a supported case: {facts} {before}"
        assert got == want, f"{facts} before {before}"
        assert type(got[0][0]) is type(want[0][0])  # True, False or None, not 1 or 0
        self.cases += 1
        self.seen.add(facts.contract)
        for breakdown in want[0][3]:
            self.seen.update(line["detail"].split(":")[0] for line in orjson.loads(breakdown))


def random_before(rng: random.Random, n: int) -> tuple[int, ...]:
    """Radelci held: mostly none, now and then 1 to 3, rarely very many."""
    return tuple(0 if rng.random() < 0.7 else rng.choice((1, 1, 2, 3, 10**12)) for _ in range(n))


# --- real deals: the kernel's own facts --------------------------------------------------------------------


class Capture:
    """The kernel, remembering the raw facts of the last lane it played."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel
        self.raw: tuple[Any, ...] | None = None

    def lane(self, *args: Any) -> Any:
        out = self.kernel.lane(*args)
        self.raw = None if out is None else out[-1]
        return out


def announce(rng: random.Random, rec: dict[str, Any]) -> None:
    """Announcements and kontras a replay may accept (those it refuses make the lane give up: skipped)."""
    players, declarer = rec["players"], rec.get("declarer")
    others = [p for p in players if p != declarer]
    items: list[dict[str, Any]] = []
    for bonus in rng.sample(["trula", "kings", "valat", "mondfang", "king_ultimo"], rng.randrange(1, 4)):
        items.append({"player": rng.choice(others) if bonus == "mondfang" else declarer, "bonus": bonus})
    if rng.random() < 0.6:
        items.append({"player": rng.choice(others), "kontra": "game", "level": 2})
        if rng.random() < 0.5:
            items.append({"player": declarer, "kontra": "game", "level": 4})
    rec["announcements"] = items


@needs_c
@pytest.mark.slow
def test_replayed_deals_score_alike() -> None:
    """Random legal deals of every contract replayed in the fast lane (some with announcements and kontras),
    each scored under every option set with random radelci: the C scorer equals the reference."""
    rng = random.Random(20261129)
    kernel = Capture(accel.KERNEL)
    tally = Tally()
    announced = 0
    for i in range(3_500):
        n = (3, 4)[i % 2]
        rec = random_record(rng, n)
        if rec.get("declarer") is not None and CONTRACTS[rec["contract"]].bonuses and rng.random() < 0.3:
            announce(rng, rec)
        deal = deal_from_obj(rec)
        rp = replay_slovenian(deal, D, kernel)  # type: ignore[arg-type]
        if rp is None:
            assert deal.announcements, "a legal deal without announcements must take the lane"
            continue
        assert kernel.raw is not None and rp.facts is not None
        facts = rp.facts
        assert facts == facts_from_raw(deal.players, deal.contract, facts.declarer, facts.partner, D, kernel.raw,
                                       facts.announced, dict(facts.kontra))
        announced += bool(facts.announced or facts.kontra)
        for options in OPTION_SETS:
            for _ in range(2):
                tally.compare(replace(facts, options=options), kernel.raw, random_before(rng, n), rng.randrange(10**6))
    assert tally.cases >= 40_000
    assert announced >= 200
    assert tally.seen >= set(CONTRACTS)


# --- random raw facts: the corners ----------------------------------------------------------------------------


def random_raw(rng: random.Random, contract: str, n: int) -> tuple[Any, ...]:
    """Raw facts as the kernel codes them, each field over its whole range."""
    if contract == "klop":
        cuts = sorted(rng.randrange(71) for _ in range(n - 1))
        points = tuple(b - a for a, b in zip([0, *cuts], [*cuts, 70]))
        if rng.random() < 0.3:  # a heap: someone over 35
            points = tuple(rng.choice((0, 36, 50, 70)) if s == 0 else p for s, p in enumerate(points))
        tricks = tuple(0 if rng.random() < 0.25 else rng.randrange(1, 17) for _ in range(n))
        return raw_klop(points, tricks)
    dp = rng.choice((rng.randrange(71), 35, 36, 0, 70))
    mondfang = tuple(rng.randrange(n) for _ in range(rng.choice((0, 0, 0, 1, 1, 2))))
    return raw_facts(declarer_points=dp, opponents_points=70 - dp, valat_side=rng.choice((0, 0, 0, 1, 2)),
                     trula_side=rng.randrange(3), kings_side=rng.randrange(3), pagat_last=rng.randrange(5),
                     king_last=rng.randrange(3), mondfang=mondfang, lost_trick=rng.randrange(2),
                     decided=rng.randrange(CARDS_PER_HAND[n] + 1))


def random_announcements(rng: random.Random) -> tuple[tuple[tuple[str, Side], ...], dict[str, int]]:
    """Any announcements (twice over, unknown ones too) and any kontras scoring takes (irrelevant ones too)."""
    announced: tuple[tuple[str, Side], ...] = ()
    kontra: dict[str, int] = {}
    if rng.random() < 0.4:
        announced = tuple((rng.choice(BONUSES + ("forty",)), rng.choice((DECLARER, OPPONENTS)))
                          for _ in range(rng.randrange(1, 6)))
    if rng.random() < 0.4:
        kontra = {t: rng.choice((1, 2, 4, 8, 16)) for t in rng.sample(TARGETS + ("trula",), rng.randrange(1, 4))}
    return announced, kontra


@needs_c
@pytest.mark.slow
def test_random_facts_score_alike() -> None:
    """80,000 random raw facts of every contract, 3 and 4 players, every option set, random radelci,
    announcements and kontras, plain and awkward names: the C scorer equals the reference."""
    rng = random.Random(4)
    tally = Tally()
    for i in range(80_000):
        n = (3, 4)[i % 2]
        roster = ROSTERS[i % len(ROSTERS)][:n]
        contract = rng.choice([c for c in CONTRACTS if allowed_contract(CONTRACTS[c], n)])
        declarer = partner = None
        if contract != "klop":
            declarer = rng.randrange(n)
            if CONTRACTS[contract].calls_king and n == 4 and rng.random() < 0.8:
                partner = rng.choice([s for s in range(n) if s != declarer])
        raw = random_raw(rng, contract, n)
        announced, kontra = random_announcements(rng)
        facts = facts_from_raw(roster, contract, declarer, partner, rng.choice(OPTION_SETS), raw, announced, kontra)
        tally.compare(facts, raw, random_before(rng, n), rng.randrange(10**6))
    assert tally.cases == 80_000
    wanted = {"silent pagat ultimo failed by the declarer's side", "silent pagat ultimo failed by the opponents",
              "silent king ultimo made by the declarer's side", "silent valat made by the opponents",
              "silent valat made by the declarer's side", "valat announced and failed", "Mondfang",
              "Klop", "radelc", "pagat ultimo announced by the opponents and made",
              "king ultimo announced by the opponents and failed", "trula announced and failed"}
    assert wanted <= tally.seen, wanted - tally.seen


# --- what it declines ------------------------------------------------------------------------------------------


def declines(contract: str, players: tuple[str, ...], declarer: int | None, partner: int | None,
             options: Any, raw: tuple[Any, ...], before: tuple[int, ...], announced: Any = (),
             kontra: Any = None) -> bool:
    """Whether the C scorer declines the deal, appending nothing."""
    components = bytearray(b"kept")
    got = fast_score.score_lane(contract, players, declarer, partner, options, raw, before, 0, components,
                                announced, kontra)
    assert components == b"kept" or got is not None
    return got is None


@needs_c
def test_it_declines_what_it_does_not_support_and_appends_nothing() -> None:
    roster = ROSTERS[0]
    good = {"declarer_points": 40, "opponents_points": 30, "valat_side": 0, "trula_side": 1, "kings_side": 0,
            "pagat_last": 0, "king_last": 0, "mondfang": (), "lost_trick": 0, "decided": 0}
    raw = raw_facts(**good)
    cases: list[dict[str, Any]] = [
        {"players": ROSTERS[0] + ("Eva",)},                      # five players
        {"players": ("Ana", "Ana", "Cilka", "David")},           # a name twice
        {"players": ("x" * 300, "Boris", "Cilka", "David")},     # a name too long for the buffers
        {"players": ("\ud800", "Boris", "Cilka", "David")},      # a lone surrogate: orjson refuses it
        {"contract": "trischaken"},                              # not a slovenian contract
        {"kontra": {"game": 3}},                                 # no such kontra
        {"kontra": {"game": 2.0}},                               # not an int
        {"announced": (("trula", "nobody"),)},                   # no such side
        {"facts": raw_facts(**{**good, "declarer_points": 71})},  # more card points than the deck
        {"facts": raw_facts(**{**good, "pagat_last": 5})},       # no such Pagat code
        {"facts": raw_facts(**{**good, "mondfang": (4,)})},      # no such seat
        {"facts": raw[:-1]},                                     # not the kernel's tuple
        {"before": (-1, 0, 0, 0)},
        {"before": (2**70, 0, 0, 0)},
        {"declarer": None},
        {"partner": 0},                                          # the declarer as partner
        # a line value the component triples cannot hold (int32): a Mondfang of 2**31 + 1
        {"facts": raw_facts(**{**good, "mondfang": (2,)}), "options": replace(D, mondfang_value=2**31 + 1)},
    ]
    for case in cases:
        args = {"contract": "tri", "players": roster, "declarer": 0, "partner": 1, "options": D, "facts": raw,
                "before": (0,) * len(case.get("players", roster)), "announced": (), "kontra": None, **case}
        assert declines(args["contract"], args["players"], args["declarer"], args["partner"], args["options"],
                        args["facts"], args["before"], args["announced"], args["kontra"]), case
    components = bytearray()
    assert fast_score.score_lane("tri", roster, 0, 1, D, raw, (0,) * 4, 0, components) is not None
    assert components


@dataclass(frozen=True, slots=True)
class MoreOptions(SlovenianOptions):
    """Slovenian options with one more field (the Palčka table's ``klop_cancels_radelc``), nobody declared."""

    klop_cancels_radelc: bool = False


@needs_c
@pytest.mark.parametrize("options", [
    MoreOptions(),                                    # a field the accelerator has not declared
    replace(D, radelc_scope="everyone"),              # values nobody declared
    replace(D, diff_rounding="nearest10"),
    replace(D, silent_pagat_failure=1),  # type: ignore[arg-type]  # an int where a bool is declared
    replace(D, klop_radelc_double=None),  # type: ignore[arg-type]
    replace(D, mondfang_value=True),                  # a bool where a whole number is declared
    replace(D, penalty="forfeit_everything"),         # even the options a clean deal never meets
    replace(D, forced_pagat="sometimes"),
], ids=lambda o: repr(o.changed() if hasattr(o, "changed") else o))
def test_it_declines_options_it_has_not_declared(options: SlovenianOptions) -> None:
    raw = raw_facts(declarer_points=40, opponents_points=30, valat_side=0, trula_side=1, kings_side=0,
                    pagat_last=0, king_last=0, mondfang=(), lost_trick=0, decided=0)
    assert not declared.accepts(options)
    for contract, facts in (("tri", raw), ("klop", raw_klop((10, 20, 20, 20), (1, 1, 1, 1)))):
        assert fast_score.plan_of(contract, options) is None
        assert declines(contract, ROSTERS[0], 0, 1, options, facts, (1, 1, 1, 1))


@needs_c
def test_a_declared_value_it_has_no_name_for_is_declined(monkeypatch: pytest.MonkeyPatch) -> None:
    """Declaring a new value of an option the C module reads is not enough: it must also name the value."""
    table = {**declared.DECLARED["slovenian"], "radelc_scope": ("declarer", "each_player", "everyone")}
    monkeypatch.setitem(declared.DECLARED, "slovenian", table)
    declared.forget()
    try:
        options = replace(D, radelc_scope="everyone")
        assert declared.accepts(options)
        assert fast_score.plan_of("tri", options) is None
        assert fast_score.plan_of("tri", replace(D, radelc_scope="each_player")) is not None
    finally:
        declared.forget()


# --- the projection: the C module's names, looked up in the reference ---------------------------------


@needs_c
def test_the_c_scorers_names_are_the_references() -> None:
    """Every table the C module takes is built by its own names: check a few entries against the reference."""
    module = fast_score._KERNEL
    assert module is not None and fast_score.WHY_OFF is None
    p = fast_score.project(module, accel.KERNEL)
    for (name, index, doubled), component in zip(p.init["components"], module.COMPONENTS, strict=True):
        assert name == component.encode() and ALL_COMPONENTS[index] == component
        assert doubled == (component in scoring.DOUBLED_BY_RADELC)
    # the game table: contract, won, kontra (the C module's dimensions, by name)
    axes, fields = module.TABLES["game"]
    assert axes == ("contract", "won", "kontra") and fields == ("detail", "value")
    at = p.contracts["dva"] * 2 * len(p.kontras) + 1 * len(p.kontras) + p.kontras.index(4)
    assert p.init["game"][at] == (b"Dva won: +20 \xc3\x97 re 4", 80)
    assert p.init["constants"] == {"WIN_THRESHOLD": scoring.WIN_THRESHOLD, "KLOP_FULL": scoring.KLOP_FULL}
    assert accel.KERNEL is not None
    assert p.init["declarer_facts"]["pagat_last"] == accel.KERNEL.DECLARER_FACTS.index("pagat_last")
    assert p.side_codes == {DECLARER: module.SIDES.index(DECLARER), OPPONENTS: module.SIDES.index(OPPONENTS)}
    assert set(p.contracts) == set(CONTRACTS) and set(p.plan) >= set(p.option_values)


def fake(module: Any, **names: Any) -> Any:
    """The C module's names with some of them changed (a table or text layout given is changed or added)."""
    tables, texts = {**module.TABLES, **names.pop("TABLES", {})}, {**module.TEXTS, **names.pop("TEXTS", {})}
    return types.SimpleNamespace(**{**vars(module), "TABLES": tables, "TEXTS": texts, **names})


@needs_c
@pytest.mark.parametrize("change, word", [
    ({"COMPONENTS": ("game", "difference", "forty")}, "forty"),            # a component the reference lacks
    ({"BONUSES": ("trula", "kings", "pagat_ultimo", "king_ultimo")}, "valat"),  # a reference bonus it lacks
    ({"ANNOUNCED": ("trula", "kings", "pagat_ultimo", "king_ultimo", "valat", "mondfang", "forty")}, "forty"),
    ({"KONTRA_TARGETS": ("game", "pagat_ultimo", "king_ultimo", "valat", "trula")}, "trula"),
    ({"KONTRAS": (1, 2, 3)}, "3"),
    ({"KINDS": ("klop", "normal", "doubled")}, "doubled"),
    ({"ROUNDINGS": ("nearest5", "nearest10")}, "nearest10"),
    ({"SCOPES": ("declarer", "everyone")}, "everyone"),
    ({"OPTION_VALUES": {"klop_counts_twice": (False, True)}}, "klop_counts_twice"),
    ({"PLAN": ("contract", "talon")}, "talon"),
    ({"SIDES": (None, "opponents", "declarer")}, "side codes"),
    ({"DECLARER_FACTS": ("declarer_points", "called_king")}, "called_king"),
    ({"CONSTANTS": ("WIN_THRESHOLD", "LOSE_THRESHOLD")}, "LOSE_THRESHOLD"),
    ({"TABLES": {"game": (("contract", "won", "moon_phase"), ("detail", "value"))}}, "moon_phase"),
    ({"TABLES": {"game": (("contract", "won", "kontra"), ("detail", "colour"))}}, "colour"),
    ({"TABLES": {"talon": (("card",), ("detail",))}}, "talon"),
    ({"TEXTS": {"radelc_each": ("head", "holds", "tail", "footnote")}}, "footnote"),
])
def test_a_name_the_reference_lacks_is_a_projection_error(change: dict[str, Any], word: str) -> None:
    with pytest.raises(ProjectionError, match=word):
        fast_score.project(fake(fast_score._KERNEL, **change), accel.KERNEL)


@needs_c
def test_a_name_the_reference_no_longer_has_is_a_projection_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scoring, "KONTRA_TARGETS", ("game", "pagat_ultimo", "king_ultimo", "valat"))
    with pytest.raises(ProjectionError, match="mondfang"):
        fast_score.project(fast_score._KERNEL, accel.KERNEL)
    monkeypatch.undo()
    monkeypatch.setattr(scoring, "BONUS_VALUES", {**scoring.BONUS_VALUES, "forty": (40, 80)})
    with pytest.raises(ProjectionError, match="forty"):
        fast_score.project(fast_score._KERNEL, accel.KERNEL)
    monkeypatch.undo()
    monkeypatch.delattr(scoring, "WIN_THRESHOLD")
    with pytest.raises(ProjectionError, match="WIN_THRESHOLD"):
        fast_score.project(fast_score._KERNEL, accel.KERNEL)


MISMATCH = """
import warnings
from tarock.rules.slovenian import scoring
from tarock.accel import _fastscore
{change}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from tarock.accel import scorer
assert scorer.scorer() is None and scorer.prepared() is None and not scorer.BUILT, scorer.WHY_OFF
assert {word!r} in scorer.WHY_OFF, scorer.WHY_OFF
assert any(w.category is RuntimeWarning and {word!r} in str(w.message) for w in caught), caught
"""


@needs_c
@pytest.mark.parametrize("change, word", [
    ("scoring.ANNOUNCEABLE = scoring.ANNOUNCEABLE[:-1]", "mondfang"),  # the reference lost a name C uses
    ("_fastscore.COMPONENTS = _fastscore.COMPONENTS + ('forty',)", "forty"),  # C uses a name it lacks
])
def test_a_mismatch_at_import_leaves_the_reference_scoring(change: str, word: str) -> None:
    """In a fresh interpreter: the C scorer stays off, says why and warns; ingest takes the usual path."""
    subprocess.run([sys.executable, "-c", MISMATCH.format(change=change, word=word)], check=True)


# --- switched off ----------------------------------------------------------------------------------------------


@needs_c
def test_the_reference_switch_turns_it_off() -> None:
    with accel.reference():
        assert fast_score.scorer() is None
    assert fast_score.scorer() is not None
    env = dict(os.environ, TAROCK_REFERENCE="1")
    code = "from tarock.accel import scorer as fast_score; assert fast_score.scorer() is None"
    subprocess.run([sys.executable, "-c", code], env=env, check=True)


def test_it_imports_without_the_extension() -> None:
    code = ("import sys; sys.modules['tarock.accel._fastscore'] = None\n"
            "from tarock.accel import scorer as fast_score\n"
            "assert not fast_score.BUILT and fast_score.scorer() is None")
    subprocess.run([sys.executable, "-c", code], check=True)
