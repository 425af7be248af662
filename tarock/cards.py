"""The 54-card tarock deck as small ints, and hands and piles as int bitmasks.

Card numbering (the same as OpenSpiel's tarok, which eases imports):

* 0..21  taroks I (Pagat) .. XXI (Mond), XXII (Škis); tarok n is card n-1;
* 22..29 hearts, 30..37 diamonds, 38..45 spades, 46..53 clubs, each suit
  ordered from its lowest card to its king (red: 4 3 2 1 J N Q K;
  black: 7 8 9 10 J N Q K).

So within one suit (taroks included) a higher int is a stronger card, and a
set of cards is an int with bit ``c`` set for card ``c``.  Every rule check is
a few mask operations; no per-card objects exist on the hot path.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable, Iterator

N_CARDS = 54
FULL_DECK = (1 << N_CARDS) - 1

TAROK = 0
HEARTS = 1
DIAMONDS = 2
SPADES = 3
CLUBS = 4
SUITS = (TAROK, HEARTS, DIAMONDS, SPADES, CLUBS)
SUIT_LETTERS = ("T", "H", "D", "S", "C")
SUIT_NAMES = ("tarok", "hearts", "diamonds", "spades", "clubs")

PAGAT = 0  # T1
MOND = 20  # T21
SKIS = 21  # T22

TAROK_MASK = (1 << 22) - 1
SUIT_MASKS: tuple[int, ...] = (TAROK_MASK,) + tuple(0xFF << (22 + 8 * i) for i in range(4))
PLAIN_MASK = FULL_DECK & ~TAROK_MASK
TRULA_MASK = (1 << PAGAT) | (1 << MOND) | (1 << SKIS)

_RED_RANKS = ("4", "3", "2", "1", "J", "N", "Q", "K")
_BLACK_RANKS = ("7", "8", "9", "10", "J", "N", "Q", "K")
_RANK_WORDS = {"J": "Jack", "N": "Knight", "Q": "Queen", "K": "King"}
_ROMAN = (
    "I II III IIII V VI VII VIII IX X XI XII XIII XIV XV XVI XVII XVIII XIX XX XXI XXII"
).split()


def _build() -> tuple[list[str], list[int], list[int], list[str]]:
    codes: list[str] = []
    suits: list[int] = []
    points: list[int] = []
    names: list[str] = []
    for n in range(1, 23):
        codes.append(f"T{n}")
        suits.append(TAROK)
        points.append(5 if n in (1, 21, 22) else 1)
        names.append({1: "Pagat (I)", 21: "Mond (XXI)", 22: "Škis"}.get(n, f"tarok {_ROMAN[n - 1]}"))
    for s in (HEARTS, DIAMONDS, SPADES, CLUBS):
        ranks = _RED_RANKS if s in (HEARTS, DIAMONDS) else _BLACK_RANKS
        for r in ranks:
            codes.append(SUIT_LETTERS[s] + r)
            suits.append(s)
            points.append({"K": 5, "Q": 4, "N": 3, "J": 2}.get(r, 1))
            names.append(f"{_RANK_WORDS.get(r, r)} of {SUIT_NAMES[s].capitalize()}")
    return codes, suits, points, names


_codes, _suits, _points, _names = _build()
CODES: tuple[str, ...] = tuple(_codes)
"""Canonical code of each card (``T1`` … ``T22``, ``HK``, ``S10`` …)."""
CARD_SUIT: tuple[int, ...] = tuple(_suits)
CARD_POINTS: tuple[int, ...] = tuple(_points)
CARD_NAMES: tuple[str, ...] = tuple(_names)
CARD_BIT: tuple[int, ...] = tuple(1 << c for c in range(N_CARDS))
SUIT_OF_CARD_MASK: tuple[int, ...] = tuple(SUIT_MASKS[CARD_SUIT[c]] for c in range(N_CARDS))
ABOVE: tuple[int, ...] = tuple(
    SUIT_MASKS[CARD_SUIT[c]] & ~((1 << (c + 1)) - 1) for c in range(N_CARDS)
)
"""``ABOVE[c]``: the cards of ``c``'s suit (taroks for a tarok) that beat it."""
KINGS: tuple[int, ...] = tuple(22 + 8 * i + 7 for i in range(4))
KINGS_MASK = sum(1 << k for k in KINGS)
CODE_INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
DECK_RAW_POINTS = sum(CARD_POINTS)  # 106


class UnknownCardError(ValueError):
    """A text that names no card; ``text`` is what was read."""

    def __init__(self, text: str) -> None:
        super().__init__(f"unknown card {text!r}")
        self.text = text


class AmbiguousCardError(UnknownCardError):
    """A text that could name two cards: ``sk`` (any case but ``SK``), the king of spades's code or Škis's
    short name.  It was silently read as Škis; refused, the message says how to write either."""

    def __init__(self, text: str) -> None:
        ValueError.__init__(self, f"{text!r} is ambiguous: SK is the king of spades, T22 (or Škis) the 22nd tarok")
        self.text = text


_AMBIGUOUS = "sk"
"""The folded text of ``AmbiguousCardError``: only the exact code ``SK`` (the king of spades) reads as a card."""


def _fold(text: str) -> str:
    """Lower-case, strip accents and collapse punctuation to single spaces."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    for ch in "_-.,:;/":
        plain = plain.replace(ch, " ")
    return " ".join(plain.split())


_SUIT_WORDS = {
    HEARTS: ("h", "hearts", "heart", "srce", "src", "herz", "coeur", "cuori"),
    DIAMONDS: ("d", "diamonds", "diamond", "kara", "karo", "carreau", "quadri"),
    SPADES: ("s", "spades", "spade", "pik", "pique", "picche", "p"),
    CLUBS: ("c", "clubs", "club", "kriz", "kreuz", "trefle", "fiori", "k"),
}
_RANK_ALIASES = {
    "K": ("k", "king", "kralj", "konig", "koenig", "roi", "ki"),
    "Q": ("q", "queen", "dama", "dame", "kraljica", "damen"),
    "N": ("n", "knight", "kaval", "konj", "cavall", "cavalier", "reiter", "ritter", "horse", "kn", "c"),
    "J": ("j", "jack", "fant", "pob", "bube", "valet", "knave", "b"),
}
_TAROK_WORDS = ("t", "tarok", "tarock", "tarot", "trump", "trumpf")


SUIT_SYMBOLS = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}
"""The symbol of each suit letter, as cards are drawn and written for people."""
ROMAN_NUMERALS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV",
                  "XVI", "XVII", "XVIII", "XIX", "XX", "XXI")
"""Taroks I … XXI as a card's face shows them (IV, where the Königrufen bonus Quapil is spelled IIII)."""
_CODE_IN_TEXT = re.compile(r"\b(T(?:2[0-2]|1[0-9]|[1-9])|[HD][1-4JNQK]|[SC](?:10|[7-9JNQK]))\b")


def card_text(code: str) -> str:
    """A card as people read it, the one notation of every page, table and text output (a card's face on the
    dashboard shows the same): "XXI", "Škis", "K♥", "1♦", "10♠".  Files keep the codes (``T21``, ``HK``)."""
    if code.startswith("T"):
        n = int(code[1:])
        return "Škis" if n == 22 else ROMAN_NUMERALS[n - 1]
    return code[1:] + SUIT_SYMBOLS[code[0]]


def cards_text(text: str) -> str:
    """``text`` (a finding's sentence, a note) with every card code in it written as ``card_text`` writes it:
    "Boris played T2 … holding D1" becomes "Boris played II … holding 1♦"."""
    return _CODE_IN_TEXT.sub(lambda m: card_text(m.group(1)), text)


def _build_aliases() -> dict[str, int]:
    aliases: dict[str, int] = {}
    for card, code in enumerate(CODES):
        aliases[_fold(code)] = card
    for n in range(1, 23):
        card = n - 1
        roman = _ROMAN[n - 1].lower()
        aliases[roman] = card
        for word in _TAROK_WORDS:
            for num in (str(n), roman):
                aliases[f"{word} {num}"] = card
                aliases[f"{word}{num}"] = card
    aliases["iv"] = 3
    aliases["xxii"] = SKIS
    for word in ("pagat", "pagatultimo", "bagatto", "i pagat"):
        aliases[word] = PAGAT
    for word in ("mond", "mund", "xxi mond", "moon"):
        aliases[word] = MOND
    for word in ("skis", "skus", "sküs", "excuse", "fool", "gstieß", "gstiess", "skiz", "xxii skis"):
        aliases[_fold(word)] = SKIS
    aliases["uhu"] = 1
    aliases["kakadu"] = 2
    aliases["pelikan"] = 2
    aliases["quapil"] = 3
    for card in range(22, N_CARDS):
        suit = CARD_SUIT[card]
        rank = CODES[card][1:]
        rank_words = _RANK_ALIASES.get(rank, (rank,))
        for sw in _SUIT_WORDS[suit]:
            for rw in rank_words:
                if len(sw) == 1 and len(rw) == 1 and not rw.isdigit():
                    continue  # single letters: only the canonical code (handled above)
                if len(sw) == 1 and rw.isdigit():
                    aliases[f"{sw}{rw}"] = card
                    continue
                for form in (f"{rw} of {sw}", f"{sw} {rw}", f"{rw} {sw}"):
                    aliases.setdefault(form, card)
    for card in range(N_CARDS):  # as card_text writes them: "K♥", "10♠", "XIV" (the numerals are above)
        aliases[_fold(card_text(CODES[card]))] = card
    # OpenSpiel short names: HKN (knight), HKI (king).
    for s in (HEARTS, DIAMONDS, SPADES, CLUBS):
        letter = SUIT_LETTERS[s].lower()
        base = 22 + 8 * (s - 1)
        aliases[f"{letter}kn"] = base + 5
        aliases[f"{letter}ki"] = base + 7
    del aliases[_AMBIGUOUS]  # the folded code SK: "sk", "Sk" are refused (AmbiguousCardError)
    return aliases


ALIASES: dict[str, int] = _build_aliases()


def parse_card(text: str) -> int:
    """Return the card named by ``text`` (a code or an alias), else raise UnknownCardError (AmbiguousCardError
    for a text two cards could be read from)."""
    card = CODE_INDEX.get(text)
    if card is not None:
        return card
    if not isinstance(text, str):
        raise UnknownCardError(repr(text))
    folded = _fold(text)
    card = ALIASES.get(folded)
    if card is None:
        card = ALIASES.get(folded.replace(" ", ""))
    if card is None:
        if folded.replace(" ", "") == _AMBIGUOUS:
            raise AmbiguousCardError(text)
        raise UnknownCardError(text)
    return card


def code(card: int) -> str:
    """The canonical code of ``card``."""
    return CODES[card]


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask holding ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> Iterator[int]:
    """The cards in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    """The number of cards in ``mask``."""
    return mask.bit_count()


_BYTE_POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(CARD_POINTS[8 * i + b] for b in range(8) if byte >> b & 1 and 8 * i + b < N_CARDS)
          for byte in range(256))
    for i in range(7))
"""The card values of each byte of a mask: ``_BYTE_POINTS[i][b]`` sums the cards of byte ``i`` set in ``b``."""


def raw_points(mask: int) -> int:
    """The sum of the card values in ``mask`` (106 for the whole deck)."""
    b0, b1, b2, b3, b4, b5, b6 = _BYTE_POINTS
    return (b0[mask & 255] + b1[mask >> 8 & 255] + b2[mask >> 16 & 255] + b3[mask >> 24 & 255]
            + b4[mask >> 32 & 255] + b5[mask >> 40 & 255] + b6[mask >> 48 & 255])


def counted_points(mask: int) -> int:
    """Card points of a pile counted in thirds: ``round(raw − 2/3·n)``.

    This equals the seed's batch counting (threes minus 2, a rest minus 1)
    for a whole pile; the deck counts 70.
    """
    thirds = 3 * raw_points(mask) - 2 * mask.bit_count()
    return (thirds + 1) // 3


def counted_thirds(mask: int) -> int:
    """Card points of a pile in thirds of a point (bits): ``3·raw − 2·n`` (deck: 210)."""
    return 3 * raw_points(mask) - 2 * mask.bit_count()


def codes_of(mask: int) -> list[str]:
    """Canonical codes of the cards in ``mask``, in card order."""
    return [CODES[c] for c in cards_of(mask)]


def beats(card: int, winner: int, led_suit: int, trumps: bool = True) -> bool:
    """Whether ``card`` beats the current ``winner`` of a trick led in ``led_suit``."""
    cs = CARD_SUIT[card]
    ws = CARD_SUIT[winner]
    if trumps:
        if cs == TAROK:
            return ws != TAROK or card > winner
        return ws != TAROK and cs == led_suit and card > winner
    return cs == led_suit and (ws != led_suit or card > winner)
