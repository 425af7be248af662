"""Property tests: games built by the independent oracle, replayed by the engine.

Legal games are never flagged; a game with one illegal card (the hands stay
consistent, play goes on legally) is flagged exactly once, with the code,
trick, position and player the oracle expects.  Cards are conserved and the
two sides' card points sum to 70.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scripts import oracle
from tarock.cards import CODES, FULL_DECK, mask_of
from tarock.engine import replay
from tarock.sim.randomplay import deal_cards, legal_stash
from tarock.formats.codec import deal_from_obj

NAMES = ("Ana", "Boris", "Cilka", "David")
CONTRACTS_4 = ["klop", "tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena", "berac", "solo_brez",
               "odprti_berac", "barvni_valat", "valat"]
CONTRACTS_3 = [c for c in CONTRACTS_4 if not c.startswith("solo_") or c == "solo_brez"]
DECLARER_LEADS = {"berac", "solo_brez", "odprti_berac", "barvni_valat", "valat"}
GROUP = {"tri": 3, "dva": 2, "ena": 1, "solo_tri": 3, "solo_dva": 2, "solo_ena": 1}


def oracle_game(rng: random.Random, n: int, contract: str, illegal_at: int | None = None,
                named: bool = False) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A record played with the oracle's legal cards; at play number ``illegal_at`` (if any and
    possible) an illegal card instead.  Returns the record and the expected finding."""
    players = NAMES[:n]
    hands_i, talon_i = deal_cards(rng, n)
    hands = [{CODES[c] for c in h} for h in hands_i]
    record: dict[str, Any] = {
        "ruleset": "slovenian", "players": list(players), "contract": contract,
        "hands": {p: sorted(h) for p, h in zip(players, hands)}, "talon": [CODES[c] for c in talon_i],
    }
    declarer = None if contract == "klop" else rng.randrange(n)
    if declarer is not None:
        record["declarer"] = players[declarer]
        if n == 4 and contract in ("tri", "dva", "ena"):
            record["called_king"] = rng.choice(["HK", "DK", "SK", "CK"])
        k = GROUP.get(contract, 0)
        if k:
            g = rng.randrange(6 // k)
            pick = talon_i[g * k:(g + 1) * k]
            after = mask_of(hands_i[declarer]) | mask_of(pick)
            stash = legal_stash(rng, after, k)
            hands[declarer] = {CODES[c] for c in range(54) if (after & ~mask_of(stash)) >> c & 1}
            record["talon_pick"] = [CODES[c] for c in pick]
            record["stash"] = [CODES[c] for c in stash]
    leader = declarer if contract in DECLARER_LEADS and declarer is not None else 0
    tricks: list[list[str]] = []
    expected = None
    play_no = 0
    for t in range(len(hands[0])):
        trick: list[str] = []
        seats: list[int] = []
        for i in range(n):
            seat = (leader + i) % n
            legal, _ = oracle.legal(hands[seat], trick, contract)
            illegal = sorted(hands[seat] - legal)
            if play_no == illegal_at and illegal and expected is None:
                card = rng.choice(illegal)
                code = oracle.expected_code(hands[seat], trick, card, contract)
                expected = {"code": code, "trick": t + 1, "position": i, "player": players[seat], "card": card}
            else:
                card = rng.choice(sorted(legal))
            hands[seat].discard(card)
            trick.append(card)
            seats.append(seat)
            play_no += 1
        leader = seats[oracle.winner(trick, contract)]
        tricks.append([f"{players[s]}:{c}" for s, c in zip(seats, trick)] if named else trick)
    record["tricks"] = tricks
    return record, expected


game_args = st.tuples(st.integers(0, 2**32), st.sampled_from([3, 4]), st.integers(0, 11), st.booleans())


@settings(max_examples=300, deadline=None)
@given(game_args)
def test_legal_games_are_never_flagged(args: tuple[int, int, int, bool]) -> None:
    seed, n, which, named = args
    rng = random.Random(seed)
    contracts = CONTRACTS_4 if n == 4 else CONTRACTS_3
    contract = contracts[which % len(contracts)]
    record, _ = oracle_game(rng, n, contract, named=named)
    rp = replay(deal_from_obj(record))
    assert rp.findings == [], [f.message for f in rp.findings]
    assert rp.status == "ok"
    # conservation: every card is in exactly one trick, the stash or the talon left over
    played = [c for t in rp.tricks for c in t]
    stash = [c for c in deal_from_obj(record).stash or ()]
    rest = mask_of(rp.talon or ()) & ~mask_of(deal_from_obj(record).talon_pick or ())
    assert len(played) + len(stash) + rest.bit_count() == 54
    assert mask_of(played) | mask_of(stash) | rest == FULL_DECK
    points = rp.card_points or {}
    if contract == "klop":
        assert 69 <= sum(points.values()) <= 71
    else:
        assert points["declarer_side"] + points["opponents"] == 70


@settings(max_examples=400, deadline=None)
@given(game_args, st.integers(0, 47))
def test_one_illegal_card_is_flagged_once_with_the_right_code(args: tuple[int, int, int, bool],
                                                               at: int) -> None:
    seed, n, which, named = args
    rng = random.Random(seed)
    contracts = CONTRACTS_4 if n == 4 else CONTRACTS_3
    contract = contracts[which % len(contracts)]
    record, expected = oracle_game(rng, n, contract, illegal_at=at, named=named)
    rp = replay(deal_from_obj(record))
    got = [{"code": f.code, "trick": f.trick, "position": f.position, "player": f.player, "card": f.card}
           for f in rp.findings]
    assert got == ([expected] if expected else [])
    if expected:
        assert rp.status == "renons"


def test_every_renons_code_of_play_is_reachable() -> None:
    # Over many random games, the substitution produces each play renons code at least once.
    seen = set()
    rng = random.Random(7)
    for i in range(1500):
        n = 4 if i % 3 else 3
        contracts = CONTRACTS_4 if n == 4 else CONTRACTS_3
        record, expected = oracle_game(rng, n, contracts[i % len(contracts)], illegal_at=rng.randrange(48))
        if expected:
            seen.add(expected["code"])
    assert seen == {"R_FOLLOW_SUIT", "R_MUST_TAROK", "R_PAGAT", "R_MUST_OVERTRUMP"}
