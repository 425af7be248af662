"""Königrufen property tests: games built by the independent oracle, replayed by the engine.

As for ``slovenian`` (``test_engine_properties``): legal games are never
flagged; a game with one illegal card (the hands stay consistent, play goes
on legally) is flagged exactly once, with the code, trick, position and
player the oracle expects; cards are conserved, the two sides' card points
sum to 70 points and 210 thirds (106 raw under counting 1/1), and every
score sheet sums to zero.  The options that change the play (Kaiserstich,
Pagat restriction, colour-game discards) are drawn too.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tarock.cards import CODE_INDEX, CODES, FULL_DECK, mask_of
from tarock.engine import replay
from tarock.options import koenigrufen_options
from tarock.sim.random_koenigrufen import random_record
from tarock.sim.randomplay import deal_cards, legal_stash
from tarock.formats.codec import deal_from_obj
from tarock.rules.rulesets import score_facts
from scripts import oracle

NAMES = ("Ana", "Boris", "Cilka", "David")
GAMES = ["trischaken", "rufer", "piccolo", "zwiccolo", "triccolo", "bettel", "solorufer", "besserrufer",
         "farbendreier", "sechserdreier", "dreier", "farbensolo", "piccolo_ouvert", "zwiccolo_ouvert",
         "bettel_ouvert", "solodreier"]
HALF_TALON = {"rufer", "besserrufer", "farbendreier", "dreier"}
CALLS_KING = {"rufer", "solorufer", "besserrufer"}
FOREHAND = {"trischaken", "rufer", "sechserdreier"}
PARALLEL = {"piccolo", "zwiccolo", "triccolo"}
KINGS = ["HK", "DK", "SK", "CK"]
BIRDS = {"pagat_ultimo": "T1", "uhu": "T2", "kakadu": "T3"}
VALUES = ("raiffeisen", "wien", "tirol", "sauwald")


def options_of(bits: int) -> dict[str, Any]:
    """An options object switching the play options by the bits of ``bits``."""
    return {"triccolo": True, "emperor_trick": not bits & 1, "pagat_restriction": not bits & 2,
            "color_discard_restriction": bool(bits & 4), **({"counting": "1/1", "min_win_score": 54}
                                                             if bits & 8 else {})}


def oracle_game(rng: random.Random, contract: str, options: dict[str, Any], illegal_from: int | None = None,
                named: bool = False) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
    """A record played with the oracle's legal cards, except one illegal card at the first play from
    number ``illegal_from`` on where the player has one; and the expected finding.  None when the deal
    does not suit the game (four kings to call, no bird for a Besserrufer)."""
    hands_i, talon_i = deal_cards(rng, 4, redeal_without_tarok=False)
    hands = [{CODES[c] for c in h} for h in hands_i]
    talon = [CODES[c] for c in talon_i]
    record: dict[str, Any] = {"ruleset": "koenigrufen", "options": options, "players": list(NAMES),
                              "contract": contract, "hands": {p: sorted(h) for p, h in zip(NAMES, hands)},
                              "talon": talon}
    if contract == "trischaken":
        declarers: list[int] = []
    elif contract in FOREHAND:
        declarers = [0]
    elif contract in PARALLEL and rng.random() < 0.3:
        declarers = sorted(rng.sample(range(4), 2))
    else:
        declarers = [rng.randrange(4)]
    if declarers:
        record["declarer"] = NAMES[declarers[0]] if len(declarers) == 1 else [NAMES[s] for s in declarers]
    king = None
    if contract in CALLS_KING:
        free = [k for k in KINGS if k not in hands[declarers[0]]]
        if not free:
            return None
        king = rng.choice(free)
        record["called_king"] = king
    if contract == "besserrufer":
        birds = [b for b, card in BIRDS.items() if card in hands[declarers[0]]]
        if not birds:
            return None
        record["announcements"] = [{"player": NAMES[declarers[0]], "bonus": rng.choice(birds)}]
    take = 3 if contract in HALF_TALON else 6 if contract == "sechserdreier" else 0
    if take:
        halves = [talon[i:i + take] for i in range(0, 6, take)]
        pick = next((h for h in halves if king in h), rng.choice(halves))
        after = mask_of(CODE_INDEX[c] for c in hands[declarers[0]] | set(pick))
        colour_rule = contract in oracle.KR_COLOUR and options["color_discard_restriction"]
        keep = mask_of(CODE_INDEX[BIRDS[a["bonus"]]] for a in record.get("announcements", []))  # the bird stays
        stash = [CODES[c] for c in legal_stash(rng, after, take, colour_rule, keep)]
        if len(stash) < take:
            return None
        hands[declarers[0]] = (hands[declarers[0]] | set(pick)) - set(stash)
        record["talon_pick"] = pick
        record["stash"] = stash
    negative = contract in oracle.KR_NEGATIVE
    leader = min(declarers) if negative and declarers else 0
    pagat_rule = options["pagat_restriction"]
    tricks: list[list[str]] = []
    expected = None
    play_no = 0
    for t in range(12):
        trick: list[str] = []
        seats: list[int] = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = oracle.kr_legal(hands[seat], trick, contract, pagat_rule)
            illegal = sorted(hands[seat] - legal)
            if illegal_from is not None and play_no >= illegal_from and illegal and expected is None:
                card = rng.choice(illegal)
                code = oracle.kr_expected_code(hands[seat], trick, card, contract, pagat_rule)
                expected = {"code": code, "trick": t + 1, "position": i, "player": NAMES[seat], "card": card}
            else:
                card = rng.choice(sorted(legal))
            hands[seat].discard(card)
            trick.append(card)
            seats.append(seat)
            play_no += 1
        leader = seats[oracle.kr_winner(trick, contract, options["emperor_trick"])]
        tricks.append([f"{NAMES[s]}:{c}" for s, c in zip(seats, trick)] if named else trick)
    record["tricks"] = tricks
    return record, expected


game_args = st.tuples(st.integers(0, 2**32), st.integers(0, len(GAMES) - 1), st.integers(0, 15), st.booleans())


def _built(args: tuple[int, int, int, bool], illegal_from: int | None = None
           ) -> tuple[dict[str, Any], dict[str, Any] | None]:
    seed, which, bits, named = args
    rng = random.Random(seed)
    while True:
        built = oracle_game(rng, GAMES[which], options_of(bits), illegal_from, named)
        if built is not None:
            return built


@settings(max_examples=300, deadline=None)
@given(game_args)
def test_legal_games_are_never_flagged_and_conserve_points(args: tuple[int, int, int, bool]) -> None:
    record, _ = _built(args)
    deal = deal_from_obj(record)
    rp = replay(deal)
    assert rp.findings == [], [f.message for f in rp.findings]
    played = [c for t in rp.tricks for c in t]
    stash = list(deal.stash or ())
    rest = mask_of(rp.talon or ()) & ~mask_of(deal.talon_pick or ())
    assert len(played) + len(stash) + rest.bit_count() == 54
    assert mask_of(played) | mask_of(stash) | rest == FULL_DECK
    facts = rp.facts
    assert facts is not None
    raw = record["options"].get("counting") == "1/1"
    if record["contract"] == "trischaken":
        assert facts.pile_scores is not None and sum(facts.pile_scores) == (106 if raw else 210)
        if not raw:
            assert 69 <= sum((rp.card_points or {}).values()) <= 71
    else:
        assert facts.card_scores is not None and sum(facts.card_scores) == (106 if raw else 210)
        points = rp.card_points or {}
        assert points["declarer_side"] + points["opponents"] == (106 if raw else 70)
    assert sum(score_facts(facts).scores.values()) == 0


@settings(max_examples=400, deadline=None)
@given(game_args, st.integers(0, 47))
def test_one_illegal_card_is_flagged_once_with_the_right_code(args: tuple[int, int, int, bool], at: int) -> None:
    record, expected = _built(args, illegal_from=at)
    rp = replay(deal_from_obj(record))
    got = [{"code": f.code, "trick": f.trick, "position": f.position, "player": f.player, "card": f.card}
           for f in rp.findings]
    assert got == ([expected] if expected else [])
    if expected:
        assert rp.status == "renons"
        assert rp.facts is not None
        assert sum(score_facts(rp.facts).scores.values()) == 0  # the renonce is settled zero-sum too


def test_every_renons_code_of_play_is_reachable() -> None:
    seen = set()
    rng = random.Random(3)
    for i in range(1500):
        built = oracle_game(rng, GAMES[i % len(GAMES)], options_of(i % 16), illegal_from=rng.randrange(48))
        if built is not None and built[1]:
            seen.add(built[1]["code"])
    assert seen == {"R_FOLLOW_SUIT", "R_MUST_TAROK", "R_PAGAT", "R_MUST_OVERTRUMP", "R_LEAD_TAROK"}


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 15), st.booleans())
def test_random_records_replay_clean(seed: int, bits: int, named: bool) -> None:
    # tarock.sim.random_koenigrufen (the simulator's and the benchmark's deals): legal whatever the options
    options = koenigrufen_options({**options_of(bits), "quapil": bool(bits & 1), "values": VALUES[bits % 4]})
    record = random_record(random.Random(seed), options=options, named=named)
    rp = replay(deal_from_obj(record))
    assert rp.findings == [], [f.message for f in rp.findings]
    assert rp.facts is not None and sum(score_facts(rp.facts).scores.values()) == 0
