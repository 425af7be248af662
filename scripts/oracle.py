"""An independent, deliberately plain reading of the Slovenian play rules.

Written from docs/rules.md with sets and card codes, sharing no code with the
engine's masks, so property tests compare two readings of the rules rather
than the engine with itself.
"""

from __future__ import annotations

NEGATIVE = {"klop", "berac", "odprti_berac"}
RED = ["4", "3", "2", "1", "J", "N", "Q", "K"]
BLACK = ["7", "8", "9", "10", "J", "N", "Q", "K"]


def suit(code: str) -> str:
    return code[0]


def strength(code: str) -> int:
    """Rank within its suit: tarok number, or position in the suit's order."""
    if code[0] == "T":
        return int(code[1:])
    ranks = RED if code[0] in "HD" else BLACK
    return ranks.index(code[1:])


def beats(card: str, best: str, led: str, trumps: bool) -> bool:
    if trumps and suit(card) == "T":
        return suit(best) != "T" or strength(card) > strength(best)
    if trumps and suit(best) == "T":
        return False
    return suit(card) == suit(led) and (suit(best) != suit(led) or strength(card) > strength(best))


def current_best(trick: list[str], trumps: bool) -> str:
    best = trick[0]
    for c in trick[1:]:
        if beats(c, best, trick[0], trumps):
            best = c
    return best


def legal(hand: set[str], trick: list[str], contract: str, forced_pagat: str = "all") -> tuple[set[str], str | None]:
    """The legal cards, and for each illegal card the code it earns (as a function below)."""
    trumps = contract != "barvni_valat"
    negative = contract in NEGATIVE
    if not trick:
        if negative and "T1" in hand and len(hand) > 1:
            return hand - {"T1"}, None
        return set(hand), None
    led = trick[0]
    same = {c for c in hand if suit(c) == suit(led)}
    taroks = {c for c in hand if suit(c) == "T"}
    if same:
        obliged = same
    elif trumps and taroks:
        obliged = taroks
    else:
        return set(hand), None
    emperor_ready = "T21" in trick and "T22" in trick
    forced = trumps and (forced_pagat == "all" or (forced_pagat == "negative_only" and negative))
    if emperor_ready and forced and "T1" in obliged:
        return {"T1"}, None
    if negative:
        best = current_best(trick, trumps)
        beating = {c for c in obliged if beats(c, best, led, trumps)}
        if beating:
            obliged = beating
        if "T1" in obliged and len(obliged) > 1 and not emperor_ready:
            obliged = obliged - {"T1"}
    return obliged, None


def expected_code(hand: set[str], trick: list[str], card: str, contract: str, forced_pagat: str = "all") -> str | None:
    """The finding code for playing ``card`` from ``hand``; None when legal."""
    ok, _ = legal(hand, trick, contract, forced_pagat)
    if card in ok:
        return None
    if not trick:
        return "R_PAGAT"
    led = trick[0]
    trumps = contract != "barvni_valat"
    if any(suit(c) == suit(led) for c in hand):
        if suit(card) != suit(led):
            return "R_FOLLOW_SUIT"
    elif trumps and any(suit(c) == "T" for c in hand) and suit(card) != "T":
        return "R_MUST_TAROK"
    if ok == {"T1"} or (contract in NEGATIVE and card == "T1"):
        return "R_PAGAT"
    return "R_MUST_OVERTRUMP"


def winner(trick: list[str], contract: str, emperor: bool = True) -> int:
    trumps = contract != "barvni_valat"
    if emperor and {"T1", "T21", "T22"} <= set(trick) and (trumps or suit(trick[0]) == "T"):
        return trick.index("T1")
    return trick.index(current_best(trick, trumps))


# --- Königrufen (docs/koenigrufen.md, docs/rules.md "koenigrufen details (settled)") ---------------------------

KR_NEGATIVE = {"trischaken", "piccolo", "zwiccolo", "triccolo", "bettel", "piccolo_ouvert", "zwiccolo_ouvert",
               "bettel_ouvert"}
KR_COLOUR = {"farbendreier", "farbensolo"}


def kr_legal(hand: set[str], trick: list[str], contract: str, pagat_restriction: bool = True) -> set[str]:
    """The cards a Königrufen player may play.

    Follow the led suit; void, play tarock if you have one (in colour games
    too, where tarock is only a fifth suit and nothing obliges you to beat);
    a colour game allows a tarock lead only to a player without suit cards;
    in negative games beat the best card if you can (tarock trumps there), and
    (option) the Pagat only when it is your last tarock, leads included.
    """
    taroks = {c for c in hand if suit(c) == "T"}
    negative = contract in KR_NEGATIVE
    pagat_held_back = negative and pagat_restriction and "T1" in hand and len(taroks) > 1
    if not trick:
        if contract in KR_COLOUR and hand - taroks:
            return hand - taroks
        return hand - {"T1"} if pagat_held_back else set(hand)
    led = trick[0]
    same = {c for c in hand if suit(c) == suit(led)}
    if same:
        allowed = same
    elif taroks:
        allowed = taroks
    else:
        return set(hand)
    if negative:
        best = current_best(trick, True)
        beating = {c for c in allowed if beats(c, best, led, True)}
        if beating:
            allowed = beating
        if pagat_held_back:
            allowed = allowed - {"T1"}
    return allowed


def kr_expected_code(hand: set[str], trick: list[str], card: str, contract: str,
                     pagat_restriction: bool = True) -> str | None:
    """The finding code for playing ``card``; None when legal."""
    if card in kr_legal(hand, trick, contract, pagat_restriction):
        return None
    if not trick:
        return "R_LEAD_TAROK" if contract in KR_COLOUR else "R_PAGAT"
    led = trick[0]
    if any(suit(c) == suit(led) for c in hand):
        if suit(card) != suit(led):
            return "R_FOLLOW_SUIT"
    elif any(suit(c) == "T" for c in hand) and suit(card) != "T":
        return "R_MUST_TAROK"
    if card == "T1" and contract in KR_NEGATIVE and pagat_restriction:
        return "R_PAGAT"
    return "R_MUST_OVERTRUMP"


def kr_winner(trick: list[str], contract: str, emperor_trick: bool = True) -> int:
    """Who takes the trick: the highest tarock, else the highest card of the led suit (colour games: of
    the led suit only); Kaiserstich (Sküs, Mond, Pagat together: the Pagat) in positive tarock games."""
    trumps = contract not in KR_COLOUR
    if (emperor_trick and trumps and contract not in KR_NEGATIVE
            and {"T1", "T21", "T22"} <= set(trick)):
        return trick.index("T1")
    return trick.index(current_best(trick, trumps))
