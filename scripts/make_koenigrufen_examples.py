"""Write Königrufen's example records: the finding pairs of R_LEAD_TAROK and R_OWN_KING, and a session.

``data/examples/findings/r_lead_tarok.json`` and ``r_own_king.json`` follow the
style of ``scripts/make_examples.py``: a JSON list of two records on the same
deal, the first triggering the finding, the second the near-identical clean one.

``data/examples/koenigrufen_session.jsonl`` is a six-hand session whose story
is fixed here first, with each hand's score worked out by hand from docs/koenigrufen.md
(the ``recorded`` figures below); deals are searched (fixed seeds) until legal
card play — chosen by the tests' independent rules oracle — tells exactly that
story, so ``tarock score`` must reproduce the sheet with no mismatch:

1. Ana (forehand) plays a Rufer and calls Cilka's king; they win with a silent
   Trull and nothing else: game 1 + Trull 1 per payment, 2 against 2:
   Ana +2, Cilka +2, Boris −2, David −2.
2. David plays a Dreier (Raiffeisen 4); Ana says kontra; David loses:
   4 × 2 = 8 to each opponent: David −24, Ana, Boris, Cilka +8.
3. Ana plays Piccolo (2) and takes exactly one trick: +2 from each: Ana +6, others −2.
4. Trischaken: Boris has the most card points, under 35⅔, not forehand, and
   everyone took a trick: he pays 1 to each: Boris −3, others +1.
5. Boris plays a Besserrufer (1), announces Uhu (his dealt T2), calls Ana's
   king; they win the game but the Uhu fails (4 per payment): each partner
   1 − 4 = −3, each opponent +3: Boris −3, Ana −3, Cilka +3, David +3.
6. Cilka plays Bettel (2); Boris fails to follow suit (a renonce): under
   ``austrian_renonce`` he alone pays everyone what they would have won:
   Cilka 3 × 2 = 6, Ana 2, David 2: Boris −10, Cilka +6, Ana +2, David +2.

Totals: Ana 2 + 8 + 6 + 1 − 3 + 2 = +16; Boris −2 + 8 − 2 − 3 − 3 − 10 = −12;
Cilka 2 + 8 − 2 + 1 + 3 + 6 = +18; David −2 − 24 − 2 + 1 + 3 + 2 = −22 (sum 0).

    .venv/bin/python scripts/make_koenigrufen_examples.py
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.make_examples import DECK, sort_key  # noqa: E402
from tarock.engine import Replay, replay  # noqa: E402
from tarock.facts import DECLARER  # noqa: E402
from tarock.formats.codec import deal_from_obj  # noqa: E402
from scripts import oracle  # noqa: E402

SEAT_NAMES = ["Ana", "Boris", "Cilka", "David"]
KINGS = ["HK", "DK", "SK", "CK"]
HALF_TALON = {"rufer", "besserrufer", "farbendreier", "dreier"}

Twist = Callable[[int, int, int, set[str], list[str]], "str | None"]


def rotate(k: int) -> list[str]:
    """Playing order of hand k (0-based): the dealer rotates, forehand first."""
    return SEAT_NAMES[k:] + SEAT_NAMES[:k]


def deal(rng: random.Random) -> tuple[list[set[str]], list[str]]:
    cards = list(DECK)
    rng.shuffle(cards)
    return [set(cards[6 + 12 * s: 18 + 12 * s]) for s in range(4)], cards[:6]


def play(rng: random.Random, contract: str, hands: list[set[str]], leader: int,
         twist: Twist | None = None) -> list[list[str]]:
    """Legal random play by the oracle (``twist`` may replace the card of a play)."""
    hands = [set(h) for h in hands]
    tricks = []
    for t in range(12):
        trick: list[str] = []
        seats: list[int] = []
        for i in range(4):
            seat = (leader + i) % 4
            card = rng.choice(sorted(oracle.kr_legal(hands[seat], trick, contract), key=sort_key))
            if twist is not None:
                card = twist(t, i, seat, hands[seat], trick) or card
            hands[seat].discard(card)
            trick.append(card)
            seats.append(seat)
        leader = seats[oracle.kr_winner(trick, contract)]
        tricks.append(trick)
    return tricks


def record(players: list[str], contract: str, hands: list[set[str]], talon: list[str], ident: str,
           **extra: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": "tarock-record/1", "id": ident, "ruleset": "koenigrufen", "players": players,
                           "hands": {players[s]: sorted(h, key=sort_key) for s, h in enumerate(hands)},
                           "talon": talon, "contract": contract}
    rec.update(extra)
    return rec


def exchange(hands: list[set[str]], seat: int, pick: list[str]) -> tuple[list[str], list[set[str]]]:
    """Take ``pick`` and lay away as many suit cards (no kings) as taken; the play hands after it."""
    after = hands[seat] | set(pick)
    stash = sorted((c for c in after if c[0] != "T" and c not in KINGS), key=sort_key)[:len(pick)]
    play_hands = [set(h) for h in hands]
    play_hands[seat] = after - set(stash)
    return stash, play_hands


def bidding(players: list[str], contract: str, declarer: int | None) -> list[list[str]]:
    """Forehand speaks first; a forehand game after everyone else passed."""
    if declarer is None or contract == "rufer":
        return [[p, "pass"] for p in players] + [[players[0], contract]]
    return [[p, contract if s == declarer else "pass"] for s, p in enumerate(players)]


def only_codes(rp: Replay) -> set[str]:
    return {f.code for f in rp.findings}


# --- finding examples ---------------------------------------------------------------------------------


def lead_tarok_pair() -> list[dict[str, Any]]:
    """Farbendreier by Ana: the first time a leader holds both tarock and a suit card, she leads tarock."""
    rng = random.Random(61)
    players = SEAT_NAMES
    while True:
        hands, talon = deal(rng)
        pick = talon[:3]
        stash, play_hands = exchange(hands, 0, pick)
        base = record(players, "farbendreier", hands, talon, "example-r_lead_tarok",
                      bidding=bidding(players, "farbendreier", 0), declarer="Ana", talon_pick=pick, stash=stash)
        bad = dict(base, tricks=play(random.Random(61), "farbendreier", play_hands, 0, _first_mixed_lead_tarok()))
        good = dict(base, id="example-r_lead_tarok-ok", tricks=play(random.Random(61), "farbendreier", play_hands, 0))
        if only_codes(replay(deal_from_obj(bad))) == {"R_LEAD_TAROK"} and not replay(deal_from_obj(good)).findings:
            return [bad, good]


def _first_mixed_lead_tarok() -> Twist:
    """A twist: the first leader holding both tarock and a suit card leads her lowest tarock, once."""
    done = False

    def twist(t: int, i: int, seat: int, hand: set[str], trick: list[str]) -> str | None:
        nonlocal done
        if done or trick or not any(c[0] == "T" for c in hand) or all(c[0] == "T" for c in hand):
            return None
        done = True
        return min((c for c in hand if c[0] == "T"), key=sort_key)

    return twist


def own_king_pair() -> list[dict[str, Any]]:
    """Rufer by Ana (forehand): she calls a king she holds herself; the clean record calls one she lacks."""
    rng = random.Random(62)
    players = SEAT_NAMES
    while True:
        hands, talon = deal(rng)
        own = sorted(k for k in KINGS if k in hands[0])
        other = sorted(k for k in KINGS if any(k in hands[s] for s in (1, 2, 3)))
        if not own or not other:
            continue
        pick = talon[:3]
        stash, play_hands = exchange(hands, 0, pick)
        tricks = play(random.Random(62), "rufer", play_hands, 0)
        common = {"bidding": bidding(players, "rufer", 0), "declarer": "Ana", "talon_pick": pick, "stash": stash,
                  "tricks": tricks}
        bad = record(players, "rufer", hands, talon, "example-r_own_king", called_king=own[0], **common)
        good = record(players, "rufer", hands, talon, "example-r_own_king-ok", called_king=other[0], **common)
        if only_codes(replay(deal_from_obj(bad))) == {"R_OWN_KING"} and not replay(deal_from_obj(good)).findings:
            return [bad, good]


# --- the session ---------------------------------------------------------------------------------------

RECORDED: list[dict[str, int]] = [
    {"Ana": 2, "Boris": -2, "Cilka": 2, "David": -2},
    {"Ana": 8, "Boris": 8, "Cilka": 8, "David": -24},
    {"Ana": 6, "Boris": -2, "Cilka": -2, "David": -2},
    {"Ana": 1, "Boris": -3, "Cilka": 1, "David": 1},
    {"Ana": -3, "Boris": -3, "Cilka": 3, "David": 3},
    {"Ana": 2, "Boris": -10, "Cilka": 6, "David": 2},
]
"""Each hand's figures, worked out by hand from the story in the module docstring."""


def _quiet(rp: Replay) -> bool:
    """No bonus made by anyone beyond what the story says is checked by the caller: no valat, no birds."""
    f = rp.facts
    return f is not None and f.valat_side is None and not any(won for _, _, won in f.birds) and not f.king_last


def _hand_1(rng: random.Random) -> dict[str, Any] | None:
    players = rotate(0)
    hands, talon = deal(rng)
    king = next((k for k in KINGS if k in hands[2]), None)
    if king is None or any(k in hands[0] for k in KINGS if k == king):
        return None
    pick = talon[:3]
    stash, play_hands = exchange(hands, 0, pick)
    rec = record(players, "rufer", hands, talon, "kr-session-1", bidding=bidding(players, "rufer", 0),
                 declarer="Ana", called_king=king, talon_pick=pick, stash=stash,
                 tricks=play(rng, "rufer", play_hands, 0))
    rp = replay(deal_from_obj(rec))
    f = rp.facts
    ok = (not rp.findings and _quiet(rp) and f is not None and f.card_scores is not None
          and f.card_scores[0] >= 107 and f.trull_side == DECLARER and f.kings_side is None)
    return rec if ok else None


def _hand_2(rng: random.Random) -> dict[str, Any] | None:
    players = rotate(1)  # Boris, Cilka, David, Ana
    hands, talon = deal(rng)
    pick = talon[3:]
    stash, play_hands = exchange(hands, 2, pick)
    rec = record(players, "dreier", hands, talon, "kr-session-2", bidding=bidding(players, "dreier", 2),
                 declarer="David", talon_pick=pick, stash=stash,
                 announcements=[{"player": "Ana", "kontra": "game", "level": 2}],
                 tricks=play(rng, "dreier", play_hands, 0))
    rp = replay(deal_from_obj(rec))
    f = rp.facts
    ok = (not rp.findings and _quiet(rp) and f is not None and f.card_scores is not None
          and f.card_scores[0] < 107 and f.trull_side is None and f.kings_side is None)
    return rec if ok else None


def _hand_3(rng: random.Random) -> dict[str, Any] | None:
    players = rotate(2)  # Cilka, David, Ana, Boris
    hands, talon = deal(rng)
    rec = record(players, "piccolo", hands, talon, "kr-session-3", bidding=bidding(players, "piccolo", 2),
                 declarer="Ana", tricks=play(rng, "piccolo", hands, 2))
    rp = replay(deal_from_obj(rec))
    ok = not rp.findings and rp.facts is not None and rp.facts.tricks[2] == 1
    return rec if ok else None


def _hand_4(rng: random.Random) -> dict[str, Any] | None:
    players = rotate(3)  # David, Ana, Boris, Cilka
    hands, talon = deal(rng)
    rec = record(players, "trischaken", hands, talon, "kr-session-4",
                 bidding=bidding(players, "trischaken", None), tricks=play(rng, "trischaken", hands, 0))
    rp = replay(deal_from_obj(rec))
    f = rp.facts
    if rp.findings or f is None or f.pile_scores is None:
        return None
    boris = 2
    top = max(f.pile_scores)
    ok = (f.pile_scores[boris] == top and f.pile_scores.count(top) == 1 and top < 107 and min(f.tricks) > 0)
    return rec if ok else None


def _hand_5(rng: random.Random) -> dict[str, Any] | None:
    players = rotate(0)  # Ana, Boris, Cilka, David
    hands, talon = deal(rng)
    king = next((k for k in KINGS if k in hands[0]), None)
    if king is None or "T2" not in hands[1] or king in hands[1]:
        return None
    pick = talon[:3]
    stash, play_hands = exchange(hands, 1, pick)
    rec = record(players, "besserrufer", hands, talon, "kr-session-5",
                 bidding=bidding(players, "besserrufer", 1), declarer="Boris", called_king=king, talon_pick=pick,
                 stash=stash, announcements=[{"player": "Boris", "bonus": "uhu"}],
                 tricks=play(rng, "besserrufer", play_hands, 0))
    rp = replay(deal_from_obj(rec))
    f = rp.facts
    ok = (not rp.findings and _quiet(rp) and f is not None and f.card_scores is not None
          and f.card_scores[0] >= 107 and f.trull_side is None and f.kings_side is None)
    return rec if ok else None


def _hand_6(rng: random.Random) -> dict[str, Any] | None:
    players = rotate(1)  # Boris, Cilka, David, Ana
    hands, talon = deal(rng)
    done = False

    def twist(t: int, i: int, seat: int, hand: set[str], trick: list[str]) -> str | None:
        """Boris (seat 0) discards another suit while holding the led suit, once."""
        nonlocal done
        if done or seat != 0 or not trick or trick[0][0] == "T":
            return None
        led = trick[0][0]
        if not any(c[0] == led for c in hand):
            return None
        other = sorted((c for c in hand if c[0] not in (led, "T")), key=sort_key)
        if not other:
            return None
        done = True
        return other[0]

    rec = record(players, "bettel", hands, talon, "kr-session-6", bidding=bidding(players, "bettel", 1),
                 declarer="Cilka", tricks=play(rng, "bettel", hands, 1, twist))
    rp = replay(deal_from_obj(rec))
    ok = [(f.code, f.player) for f in rp.findings] == [("R_FOLLOW_SUIT", "Boris")]
    return rec if ok else None


def session() -> list[dict[str, Any]]:
    out = []
    for k, make in enumerate((_hand_1, _hand_2, _hand_3, _hand_4, _hand_5, _hand_6)):
        rng = random.Random(100 + k)
        rec = None
        while rec is None:
            rec = make(rng)
        rec.update(session="kr-club-1", seq=k + 1, date="2026-02-07", recorded={"scores": RECORDED[k]})
        # canonical key order: the session fields right after the id
        keys = ["format", "id", "session", "seq", "date"]
        out.append({**{key: rec[key] for key in keys}, **{key: v for key, v in rec.items() if key not in keys}})
    return out


def main() -> None:
    target = ROOT / "data" / "examples"
    for code, pair in (("r_lead_tarok", lead_tarok_pair()), ("r_own_king", own_king_pair())):
        (target / "findings" / f"{code}.json").write_text(json.dumps(pair, indent=1, ensure_ascii=False) + "\n")
    lines = [json.dumps(rec, ensure_ascii=False) for rec in session()]
    (target / "koenigrufen_session.jsonl").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
