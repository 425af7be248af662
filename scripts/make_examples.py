"""Write data/examples/: one small record file per finding code, plus the seed's example tricks.

Each finding file is a JSON list of two records on the same deal: the first
triggers the finding, the second is the near-identical record that does not.
Deals are dealt with fixed seeds and played with the independent rules
oracle of the tests, so the files are reproducible:

    .venv/bin/python scripts/make_examples.py
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts import oracle  # noqa: E402

NAMES = ["Ana", "Boris", "Cilka", "David"]
GROUP = {"tri": 3, "dva": 2, "ena": 1, "solo_tri": 3, "solo_dva": 2, "solo_ena": 1}
DECLARER_LEADS = {"berac", "solo_brez", "odprti_berac", "barvni_valat", "valat"}
RED = ["4", "3", "2", "1", "J", "N", "Q", "K"]
BLACK = ["7", "8", "9", "10", "J", "N", "Q", "K"]
DECK = [f"T{i}" for i in range(1, 23)] + [s + r for s in "HD" for r in RED] + [s + r for s in "SC" for r in BLACK]
KINGS = {"HK", "DK", "SK", "CK"}
TRULA = {"T1", "T21", "T22"}


def sort_key(code: str) -> int:
    return DECK.index(code)


def deal(rng: random.Random, n: int, fixed: dict[int, set[str]], void: dict[int, str],
         need_tarok: bool = True) -> tuple[list[set[str]], list[str]]:
    """Random hands holding the ``fixed`` cards, with seat ``s`` void in suit ``void[s]``."""
    per = 48 // n
    while True:
        rest = [c for c in DECK if not any(c in f for f in fixed.values())]
        rng.shuffle(rest)
        hands = [set(fixed.get(s, set())) for s in range(n)]
        talon: list[str] = []
        for c in rest:
            placed = False
            for s in rng.sample(range(n), n):
                if len(hands[s]) < per and not (void.get(s) and c[0] == void[s]):
                    hands[s].add(c)
                    placed = True
                    break
            if not placed:
                talon.append(c)
        if len(talon) == 6 and all(len(h) == per for h in hands):
            if not need_tarok or all(any(c[0] == "T" for c in h) for h in hands):
                return hands, talon


def play(rng: random.Random, n: int, contract: str, hands: list[set[str]], leader: int,
         first: list[str] | None = None, named: bool = False,
         twist: Callable[[int, int, int, set[str], list[str]], str | None] | None = None) -> list[list[str]]:
    """Play out the deal with the oracle's legal cards (``first``: trick 1 as given;
    ``twist`` may replace the card at a play)."""
    hands = [set(h) for h in hands]
    tricks = []
    for t in range(len(hands[0])):
        trick: list[str] = []
        seats: list[int] = []
        for i in range(n):
            seat = (leader + i) % n
            legal, _ = oracle.legal(hands[seat], trick, contract)
            card = first[i] if (t == 0 and first) else rng.choice(sorted(legal, key=sort_key))
            if twist is not None:
                card = twist(t, i, seat, hands[seat], trick) or card
            hands[seat].discard(card)
            trick.append(card)
            seats.append(seat)
        leader = seats[oracle.winner(trick, contract)]
        tricks.append([f"{NAMES[s]}:{c}" for s, c in zip(seats, trick)] if named else trick)
    return tricks


def record(n: int, contract: str, hands: list[set[str]], talon: list[str], ident: str, **extra: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": "tarock-record/1", "id": ident, "ruleset": "slovenian",
                           "players": NAMES[:n],
                           "hands": {NAMES[s]: sorted(h, key=sort_key) for s, h in enumerate(hands)},
                           "talon": talon, "contract": contract}
    rec.update(extra)
    return rec


def dva_deal(rng: random.Random, declarer: int = 2, king: str = "HK") -> tuple[list[set[str]], list[str], dict[str, Any], list[set[str]]]:
    """A 4-player Dva: Cilka bids it, calls a king, takes the first talon pair and lays away two
    plain suit cards (taroks only if she has too few)."""
    hands, talon = deal(rng, 4, {}, {})
    pick = talon[:2]
    after = hands[declarer] | set(pick)
    stash = legal_stash(after, 2)
    play_hands = [set(h) for h in hands]
    play_hands[declarer] = after - set(stash)
    extra = {"bidding": [["Boris", "pass"], ["Cilka", "dva"], ["David", "pass"], ["Ana", "pass"]],
             "declarer": NAMES[declarer], "called_king": king, "talon_pick": pick, "stash": stash}
    return hands, talon, extra, play_hands


def legal_stash(after: set[str], k: int) -> list[str]:
    spare = sorted((c for c in after if c[0] != "T" and c not in KINGS), key=sort_key)
    taroks = sorted((c for c in after if c[0] == "T" and c not in TRULA), key=sort_key)
    return (spare + taroks)[:k]


def play_twist_finder(code: str, contract: str) -> Callable[[int, int, int, set[str], list[str]], str | None]:
    """A twist that plays, once, a card earning ``code`` (the first chance it gets)."""
    done = {"yes": False}

    def twist(t: int, i: int, seat: int, hand: set[str], trick: list[str]) -> str | None:
        if done["yes"]:
            return None
        for card in sorted(hand, key=sort_key):
            if oracle.expected_code(hand, trick, card, contract) == code:
                done["yes"] = True
                return card
        return None

    return twist


def findings_examples() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}

    # Renons in play: the same deal played legally, and with one card that breaks the rule.
    for code, contract, seed in [("R_FOLLOW_SUIT", "dva", 11), ("R_MUST_TAROK", "dva", 12),
                                 ("R_MUST_OVERTRUMP", "klop", 13), ("R_PAGAT", "klop", 14)]:
        rng = random.Random(seed)
        if contract == "dva":
            hands, talon, extra, play_hands = dva_deal(rng)
            leader = 0
        else:
            hands, talon = deal(rng, 4, {}, {})
            extra = {"bidding": [["Boris", "pass"], ["Cilka", "pass"], ["David", "pass"], ["Ana", "klop"]]}
            play_hands, leader = hands, 0
        base = record(4, contract, hands, talon, f"example-{code.lower()}", **extra)
        bad = copy.deepcopy(base)
        bad["tricks"] = play(random.Random(seed), 4, contract, play_hands, leader, twist=play_twist_finder(code, contract))
        good = copy.deepcopy(base)
        good["id"] += "-ok"
        good["tricks"] = play(random.Random(seed), 4, contract, play_hands, leader)
        out[code] = [bad, good]

    rng = random.Random(21)
    hands, talon, extra, play_hands = dva_deal(rng)
    good = record(4, "dva", hands, talon, "example-r_out_of_turn-ok", **extra)
    good["tricks"] = play(random.Random(21), 4, "dva", play_hands, 0, named=True)
    bad = copy.deepcopy(good)
    bad["id"] = "example-r_out_of_turn"
    t3 = bad["tricks"][2]
    t3[1], t3[2] = t3[2], t3[1]  # the third player plays before the second
    out["R_OUT_OF_TURN"] = [bad, good]

    # Stash: Cilka lays away a king instead of a plain suit card.
    rng = random.Random(31)
    while True:
        hands, talon, extra, play_hands = dva_deal(rng)
        after = hands[2] | set(extra["talon_pick"])
        kings = sorted(after & KINGS - {extra["called_king"]}, key=sort_key)
        if kings:
            break
    good = record(4, "dva", hands, talon, "example-r_stash-ok", **extra)
    good["tricks"] = play(random.Random(31), 4, "dva", play_hands, 0)
    bad = copy.deepcopy(good)
    bad["id"] = "example-r_stash"
    # Cilka lays away a king instead of her first plain card, then everyone plays on legally
    bad["stash"] = sorted([kings[0]] + extra["stash"][1:], key=sort_key)
    bad_hands = [set(h) for h in play_hands]
    bad_hands[2] = (after - set(bad["stash"]))
    bad["tricks"] = play(random.Random(31), 4, "dva", bad_hands, 0)
    out["R_STASH"] = [bad, good]

    rng = random.Random(41)
    hands, talon, extra, play_hands = dva_deal(rng)
    good = record(4, "dva", hands, talon, "example-e_not_in_hand-ok", **extra)
    good["tricks"] = play(random.Random(41), 4, "dva", play_hands, 0)
    bad = copy.deepcopy(good)
    bad["id"] = "example-e_not_in_hand"
    # Ana's hand as recorded is missing her first card, which David holds instead (hands stay a deck)
    first = good["tricks"][0][0]
    swap = sorted(hands[3], key=sort_key)[-1]
    bad["hands"]["Ana"] = sorted((set(bad["hands"]["Ana"]) - {first}) | {swap}, key=sort_key)
    bad["hands"]["David"] = sorted((set(bad["hands"]["David"]) - {swap}) | {first}, key=sort_key)
    out["E_NOT_IN_HAND"] = [bad, good]

    bad = copy.deepcopy(good)
    bad["id"] = "example-e_deck"
    bad["hands"]["Ana"] = sorted(bad["hands"]["Ana"][:-1] + [bad["hands"]["Boris"][0]], key=sort_key)
    out["E_DECK"] = [bad, _ok(good, "e_deck")]

    bad = copy.deepcopy(good)
    bad["id"] = "example-e_sequence"
    bad["tricks"][5] = bad["tricks"][5][:3]
    out["E_SEQUENCE"] = [bad, _ok(good, "e_sequence")]

    bad = copy.deepcopy(good)
    bad["id"] = "example-e_bid"
    bad["bidding"] = [["Boris", "dva"], ["Cilka", "dva"], ["David", "pass"], ["Ana", "pass"]]
    ok_bid = _ok(good, "e_bid")
    out["E_BID"] = [bad, ok_bid]

    bad = copy.deepcopy(good)
    bad["id"] = "example-e_talon"
    # the talon as dealt had its 2nd and 3rd cards the other way round: the pair taken is no group
    bad["talon"] = [talon[0], talon[2], talon[1]] + talon[3:]
    out["E_TALON"] = [bad, _ok(good, "e_talon")]

    bad = copy.deepcopy(good)
    bad["id"] = "example-e_king"
    bad["called_king"] = "HQ"
    out["E_KING"] = [bad, _ok(good, "e_king")]

    bad = copy.deepcopy(good)
    bad["id"] = "example-e_announce"
    bad["announcements"] = [{"player": "David" if "David" not in _side(good) else "Ana", "bonus": "valat"}]
    ok = _ok(good, "e_announce")
    ok["announcements"] = [{"player": "Cilka", "bonus": "valat"}]
    out["E_ANNOUNCE"] = [bad, ok]

    # Misdeal: Ana dealt no tarok (still replayed, a warning).
    rng = random.Random(51)
    hands, talon = deal(rng, 4, {}, {0: "T"}, need_tarok=False)
    bad = record(4, "klop", hands, talon, "example-w_misdeal")
    bad["tricks"] = play(random.Random(51), 4, "klop", hands, 0)
    rng = random.Random(52)
    hands, talon = deal(rng, 4, {}, {})
    ok = record(4, "klop", hands, talon, "example-w_misdeal-ok")
    ok["tricks"] = play(random.Random(52), 4, "klop", hands, 0)
    out["W_MISDEAL"] = [bad, ok]
    return out


def _ok(good: dict[str, Any], name: str) -> dict[str, Any]:
    ok = copy.deepcopy(good)
    ok["id"] = f"example-{name}-ok"
    return ok


def _side(rec: dict[str, Any]) -> set[str]:
    """Declarer and partner of a Tri record."""
    side = {rec["declarer"]}
    for p, h in rec["hands"].items():
        if rec["called_king"] in h:
            side.add(p)
    return side


def _must_beat_story(hands: list[set[str]]) -> bool:
    """Seed's negative trick: Boris's only tarok above X is XII, Cilka's only one above XII is XIX,
    David holds nothing above XIX."""
    def taroks(h: set[str]) -> list[int]:
        return [int(c[1:]) for c in h if c[0] == "T"]
    return (all(t <= 19 for t in taroks(hands[3]))
            and all(t <= 10 or t == 12 for t in taroks(hands[1]))
            and all(t <= 12 or t == 19 for t in taroks(hands[2])))


def _first_trick_legal(hands: list[set[str]], first: list[str], contract: str) -> bool:
    trick: list[str] = []
    for i, card in enumerate(first):
        legal, _ = oracle.legal(hands[i], trick, contract)
        if card not in legal:
            return False
        trick.append(card)
    return True


def seed_tricks() -> dict[str, dict[str, Any]]:
    """The seed's example tricks, each as trick 1 of a complete legal deal."""
    out = {}
    specs = [
        ("seed_hearts_trick", "tri", ["HK", "HN", "T14", "H4"], {0: {"HK"}, 1: {"HN"}, 2: {"T14"}, 3: {"H4"}}, {2: "H"}),
        ("seed_pik10_trick", "tri", ["S10", "SQ", "S7", "S8"], {0: {"S10"}, 1: {"SQ"}, 2: {"S7"}, 3: {"S8"}},
         {}),
        ("seed_negative_must_beat", "klop", ["T10", "T12", "T19", "T3"],
         {0: {"T10"}, 1: {"T12", "T5"}, 2: {"T19", "T11"}, 3: {"T3", "T15"}}, {}),
        ("seed_emperor_trick", "tri", ["T22", "T21", "T1", "T9"], {0: {"T22"}, 1: {"T21"}, 2: {"T1"}, 3: {"T9"}},
         {}),
    ]
    for name, contract, first, fixed, void in specs:
        rng = random.Random(name)
        while True:
            hands, talon = deal(rng, 4, fixed, void)
            if name == "seed_negative_must_beat" and not _must_beat_story(hands):
                continue
            if name == "seed_pik10_trick" and any(c in ("SK", "SN", "SJ") for h in hands[2:] for c in h):
                continue  # nobody after Boris can beat the queen
            if not _first_trick_legal(hands, first, contract):
                continue
            if contract == "klop":
                play_hands = hands
                extra: dict[str, Any] = {"bidding": [["Boris", "pass"], ["Cilka", "pass"], ["David", "pass"],
                                                     ["Ana", "klop"]]}
                break
            # Ana (forehand) declares Tri after everyone passed, takes the first half and lays away
            # three plain cards that play no part in trick 1
            pick = talon[:3]
            after = hands[0] | set(pick)
            spare = sorted((c for c in after if c[0] != "T" and c not in KINGS and c not in first),
                           key=sort_key)[:3]
            if len(spare) == 3:
                play_hands = [set(h) for h in hands]
                play_hands[0] = after - set(spare)
                extra = {"bidding": [["Boris", "pass"], ["Cilka", "pass"], ["David", "pass"], ["Ana", "tri"]],
                         "declarer": "Ana", "called_king": "CK", "talon_pick": pick, "stash": spare}
                break
        rec = record(4, contract, hands, talon, f"example-{name.replace('_', '-')}", **extra)
        rec["tricks"] = play(random.Random(name), 4, contract, play_hands, 0, first=first)
        out[name] = rec
    return out


def main() -> None:
    target = ROOT / "data" / "examples"
    (target / "findings").mkdir(parents=True, exist_ok=True)
    for code, records in findings_examples().items():
        (target / "findings" / f"{code.lower()}.json").write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n")
    for name, rec in seed_tricks().items():
        (target / f"{name}.json").write_text(json.dumps(rec, indent=1, ensure_ascii=False) + "\n")
    # E_PARSE: line 1 names a card that does not exist, line 2 is cut off, line 3 is the intact record.
    good = json.loads((target / "seed_pik10_trick.json").read_text())
    bad_card = copy.deepcopy(good)
    bad_card["id"] = "example-e_parse"
    bad_card["tricks"][1][0] = "XYZ"
    cut = json.dumps(good, ensure_ascii=False)[:-1]
    parse = [json.dumps(bad_card, ensure_ascii=False), cut, json.dumps(good, ensure_ascii=False)]
    (target / "findings" / "e_parse.jsonl").write_text("\n".join(parse) + "\n")
    # Claims (docs/penalties.md, "Claims": the deal stops after trick 11 and a player claims the last trick.
    # Ana's side takes trick 12, so Ana's claim is sound; Boris's is not (M_BAD_CLAIM).
    claims = []
    for who, ident in (("Ana", "example-claim-sound"), ("Boris", "example-claim-unsound")):
        rec = copy.deepcopy(good)
        rec["id"] = ident
        rec["tricks"] = rec["tricks"][:11]
        rec["claim"] = {"player": who, "after_trick": 11}
        claims.append(rec)
    (target / "claims.json").write_text(json.dumps(claims, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
