"""The `.trk` text format: tarock deals as people write them down, in the spirit of PGN and PHH.

A deal is a block of header tags (``[Players "Ana Boris Cilka David"]``)
followed by its moves, one per line: hands (``Ana: T21 T15 HK``), the
talon, the bidding, the contract, the king call, the talon exchange,
announcements (``Cilka: announce trula``, ``Ana: kontra game``), the tricks
(``1. Ana:HK Boris:HN Cilka:T14 David:H4`` or ``1. HK HN T14 H4``), a
claim, events.  ``{comments}`` may stand anywhere; a file holds any number
of deals, each starting with its tags.  docs/trk.md is the specification.

Reading is lenient (case, card and contract aliases, several spellings of
the keywords) and every error names its line and column and what was
expected; writing is canonical, so ``.trk`` -> Deal -> ``.trk`` is a fixed
point and JSON -> ``.trk`` -> JSON loses nothing (fields the format has no
line for travel in an ``[Extra "<json>"]`` tag).  A deal is parsed into a
`tarock-record/1` object and validated by ``tarock.formats.codec.deal_from_obj``,
so a ``.trk`` deal means exactly what its JSON record means.

"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson

from tarock.cards import CODES, AmbiguousCardError, UnknownCardError, parse_card
from tarock.deal import BONUSES, CONTRACTS, RULESETS, Deal
from tarock.findings import Finding
from tarock.formats.codec import KNOWN_KEYS, RecordError, deal_from_obj, deal_to_obj, lookup_name
from tarock.formats.items import ReaderLimits, ReadItem

TRK_SUFFIX = ".trk"

TAGS: dict[str, str] = {
    "format": "Format",
    "id": "Id",
    "session": "Session",
    "seq": "Seq",
    "date": "Date",
    "ruleset": "Ruleset",
    "options": "Options",
    "players": "Players",
    "recorded": "Recorded",
    "recordedradelci": "RecordedRadelci",
    "extra": "Extra",
}
"""Tag names folded (lower case, no ``_``/``-``) -> their canonical spelling."""

KEYWORDS = ("talon", "bidding", "contract", "king", "talonpick", "stash", "claim", "event", "conceded")
"""Line keywords (``Talon: …``), folded; any spelling that folds to one of these is accepted."""

KONTRA_WORDS: dict[str, int] = {
    "kontra": 2, "contra": 2, "re": 4, "rekontra": 4, "sub": 8, "subkontra": 8, "mord": 16, "mort": 16,
    "mordkontra": 16,
}
"""Words for a kontra step -> its level."""
KONTRA_NAMES = {2: "kontra", 4: "re", 8: "sub", 16: "mord"}

CONTRACT_ALIASES: dict[str, str] = {
    "three": "tri", "two": "dva", "one": "ena", "solo_three": "solo_tri", "solo_two": "solo_dva",
    "solo_one": "solo_ena", "beggar": "berac", "solo_without": "solo_brez", "open_beggar": "odprti_berac",
    "colour_valat": "barvni_valat", "color_valat": "barvni_valat", "colour_valat_without": "barvni_valat",
    "color_valat_without": "barvni_valat", "valat_without": "valat",
}
"""English (and OpenSpiel) names of the slovenian contracts, folded -> canonical name."""

_YES = {"yes": True, "true": True, "no": False, "false": False}
_UNKNOWN_CARD = "??"
_RESERVED = frozenset(
    {*KEYWORDS, *TAGS, *KONTRA_WORDS, *_YES, "pass", "bid", "announce", "against", "after", "trick", "??"}
    | {name for names in CONTRACTS.values() for name in names}
    | {name for names in BONUSES.values() for name in names}
    | set(CONTRACT_ALIASES)
)
"""Folded words a bare player name may not be (the writer quotes such names)."""


class TrkError(RecordError):
    """A ``.trk`` deal that cannot be read; the text starts with "line L, column C:"."""

    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column


# --------------------------------------------------------------------------- lexing


class _Tok(NamedTuple):
    """One token of a line: a ``word``, a quoted ``str`` (decoded), a trick ``num``, or ``:`` / ``,``."""

    kind: str
    text: str
    col: int


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[0-9]+\.(?![0-9])|[:,]|[^\s:,"]+|"')
"""A quoted text, a trick number, ``:``, ``,``, a word, or a lone (unclosed) quote; the rest is white space."""
_SPACE = re.compile(r"\s*")
_JSON_STRING = json.JSONDecoder(strict=False)
_COMMENT_SCAN = re.compile(r'"(?:[^"\\]|\\.)*"?|\{[^}]*\}?|[^"{]+')
_TAG_LINE = re.compile(r'\s*\[\s*(?P<name>[^\s"\]]+)\s*(?P<value>"(?:[^"\\]|\\.)*")\s*\]\s*$')
_INT = re.compile(r"[+-]?[0-9]+$")
_WHOLE = re.compile(r"[0-9]+")
_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*$")
_SIMPLE_NAME = re.compile(r'[^\s:,"{}\[\]]+$')


def _fold(text: str) -> str:
    """A keyword or tag name as compared: lower case, without spaces, ``_`` and ``-``."""
    return re.sub(r"[\s_\-]+", "", text.casefold())


def _decode_string(text: str, line: int, col: int) -> str:
    """A quoted token (JSON string syntax) as its text."""
    try:
        value, _ = _JSON_STRING.raw_decode(text)
    except json.JSONDecodeError as exc:
        raise TrkError(line, col + exc.pos, f"bad quoted text {_show(text)}: {exc.msg}") from None
    return str(value)


def _tokens(text: str, line: int, offset: int = 0) -> list[_Tok]:
    """The tokens of ``text``; columns are 1-based and shifted by ``offset``."""
    out: list[_Tok] = []
    for m in _TOKEN.finditer(text):
        value = m.group()
        col = m.start() + 1 + offset
        first = value[0]
        if first == '"':
            if len(value) == 1:
                raise TrkError(line, col, "a quoted name is not closed (a '\"' is missing)")
            out.append(_Tok("str", _decode_string(value, line, col), col))
        elif first == ":" or first == ",":
            out.append(_Tok(value, value, col))
        elif value[-1] == "." and _WHOLE.fullmatch(value, 0, len(value) - 1):
            out.append(_Tok("num", value[:-1], col))
        else:
            out.append(_Tok("word", value, col))
    return out


def _show(text: str) -> str:
    """A text quoted for a message, cut short when long."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


@dataclass(slots=True)
class _Line:
    """One line of a deal with its comments blanked out (columns unchanged)."""

    no: int
    text: str
    raw: str

    @property
    def blank(self) -> bool:
        return not self.text.strip()

    @property
    def is_tag(self) -> bool:
        return self.text.lstrip().startswith("[")


def _strip_comments(text: str, in_comment: bool) -> tuple[str, bool, int | None]:
    """``text`` with ``{comments}`` (outside quotes) turned into spaces.

    Returns the text, whether a comment is still open at the end of the line,
    and the 0-based column where the comment left open started (None: it
    started on an earlier line or none is open).
    """
    parts: list[str] = []
    pos = 0
    if in_comment:
        close = text.find("}")
        if close < 0:
            return " " * len(text), True, None
        parts.append(" " * (close + 1))
        pos = close + 1
    for m in _COMMENT_SCAN.finditer(text, pos):
        piece = m.group()
        if piece.startswith("{"):
            parts.append(" " * len(piece))
            if not piece.endswith("}"):
                return "".join(parts), True, m.start()
        else:
            parts.append(piece)
    return "".join(parts), False, None


# --------------------------------------------------------------------------- splitting a file into deals


@dataclass(slots=True)
class _Block:
    """The lines of one deal, and a problem found while cutting them out (a reading error)."""

    lines: list[_Line] = field(default_factory=list)
    problem: TrkError | None = None
    size: int = 0

    @property
    def start(self) -> int:
        return next((ln.no for ln in self.lines if not ln.blank), self.lines[0].no if self.lines else 0)

    @property
    def has_body(self) -> bool:
        return any(not ln.blank and not ln.is_tag for ln in self.lines)

    @property
    def empty(self) -> bool:
        return all(ln.blank for ln in self.lines) and self.problem is None

    def raw(self, limit: int) -> str:
        return "\n".join(ln.raw for ln in self.lines)[:limit]


class _Splitter:
    """Cuts a stream of text lines into deal blocks: a tag line after a deal's moves starts the next deal.

    A ``{`` comment may span lines; one still open when a blank line is
    followed by a tag line is reported as unclosed and the tag line starts
    the next deal, so one bad brace never swallows the rest of a file.
    """

    def __init__(self, max_bytes: int) -> None:
        self._max = max_bytes
        self._block = _Block()
        self._in_comment = False
        self._comment_at: tuple[int, int] | None = None
        self._blank_in_comment = False

    def feed(self, no: int, raw: str) -> Iterator[_Block]:
        """Take the next line; yields a block when this line starts a new deal."""
        new_deal = False
        if self._in_comment and self._blank_in_comment and _TAG_LINE.match(raw):
            assert self._comment_at is not None
            at_line, col = self._comment_at
            self._block.problem = self._block.problem or TrkError(
                at_line, col, "this comment is not closed ('}' missing) before the next deal")
            self._in_comment = False
            new_deal = True
        was_in_comment = self._in_comment
        text, self._in_comment, opened = _strip_comments(raw, self._in_comment)
        if self._in_comment and not was_in_comment:
            self._comment_at = (no, (opened or 0) + 1)
            self._blank_in_comment = False
        elif self._in_comment and not raw.strip():
            self._blank_in_comment = True
        line = _Line(no, text, raw)
        if new_deal or (line.is_tag and self._block.has_body):
            yield from self._flush()
        self._add(line)

    def _add(self, line: _Line) -> None:
        block = self._block
        if block.problem is not None and block.size > self._max:
            return  # an oversized deal: its remaining lines are only read past
        block.size += len(line.raw)
        if block.size > self._max:
            block.problem = block.problem or TrkError(line.no, 1, f"the deal is longer than {self._max} bytes")
        block.lines.append(line)

    def problem(self, no: int, message: str) -> None:
        """A line that could not be read at all (too long, not UTF-8) spoils the deal it is in."""
        if self._block.problem is None:
            self._block.problem = TrkError(no, 1, message)
        self._block.lines.append(_Line(no, "", ""))

    def finish(self) -> Iterator[_Block]:
        """The last deal; an open comment at the end of the file is its error."""
        if self._in_comment and self._comment_at is not None and self._block.problem is None:
            self._block.problem = TrkError(*self._comment_at, "this comment is not closed ('}' missing)")
        yield from self._flush()

    def _flush(self) -> Iterator[_Block]:
        block, self._block = self._block, _Block()
        if not block.empty:
            yield block


def _split_text(text: str) -> Iterator[_Block]:
    """The deal blocks of a whole text."""
    splitter = _Splitter(len(text) + 1)
    for no, raw in enumerate(text.removeprefix("\ufeff").split("\n"), 1):  # only "\n" ends a line, as in files (not U+0085, U+2028)
        yield from splitter.feed(no, raw.removesuffix("\r"))
    yield from splitter.finish()


# --------------------------------------------------------------------------- parsing one deal


@dataclass(slots=True)
class _Hand:
    """A hand line: its cards (None where ``??``) and where it stands."""

    cards: list[int | None]
    line: int
    col: int


class _DealParser:
    """Builds the `tarock-record/1` object of one deal block, checking every token where it stands."""

    def __init__(self, block: _Block) -> None:
        self.block = block
        self.obj: dict[str, Any] = {}
        self.where: dict[str, tuple[int, int]] = {}
        self.ruleset = "slovenian"
        self.players: tuple[str, ...] = ()
        self.hands: dict[str, _Hand] = {}
        self.tags: set[str] = set()
        self.tricks: list[list[str]] = []

    # -- the whole block -------------------------------------------------------
    def parse(self) -> Deal:
        lines = [ln for ln in self.block.lines if not ln.blank]
        if not lines:
            raise TrkError(self.block.start, 1, "expected a deal: tags, then its moves")
        tags = [ln for ln in lines if ln.is_tag]
        body = [ln for ln in lines if not ln.is_tag]
        for ln in tags:
            self._tag(ln)
        self._ruleset_and_players(body[0] if body else tags[-1])
        for ln in body:
            self._body_line(ln)
        self._finish_hands()
        if "contract" not in self.obj:
            last = lines[-1]
            raise TrkError(last.no, len(last.text.rstrip()) + 1, "the deal has no 'Contract:' line")
        self.obj["tricks"] = self.tricks
        return self._deal()

    def _deal(self) -> Deal:
        """Validate the object as a record; a RecordError is placed at the line of the field it names."""
        try:
            return deal_from_obj(self.obj)
        except RecordError as exc:
            text = str(exc)
            line, col = self._position(text)
            raise TrkError(line, col, text) from None

    def _position(self, message: str) -> tuple[int, int]:
        """Where the field a record error names (``events[1].event …``) was written; else the deal's start."""
        path = re.match(r"[a-z_]+(?:\[\d+\])*", message)
        key = path.group() if path else ""
        while key:
            if key in self.where:
                return self.where[key]
            key = key.rpartition("[")[0]
        return self.block.start, 1

    def _place(self, key: str, line: int, col: int) -> None:
        self.where.setdefault(key, (line, col))

    # -- header tags -----------------------------------------------------------
    def _tag(self, ln: _Line) -> None:
        m = _TAG_LINE.match(ln.text)
        if m is None:
            col = len(ln.text) - len(ln.text.lstrip()) + 1
            raise TrkError(ln.no, col, 'expected a tag like [Players "Ana Boris Cilka David"]')
        name = _fold(m.group("name"))
        col = m.start("value") + 2  # the first character inside the quotes
        if name not in TAGS:
            raise TrkError(ln.no, m.start("name") + 1, f"unknown tag {_show(m.group('name'))}; tags are "
                           f"{', '.join(TAGS.values())} (other fields go in [Extra \"{{...}}\"])")
        if name in self.tags:
            raise TrkError(ln.no, m.start("name") + 1, f"the tag {TAGS[name]} is given twice")
        self.tags.add(name)
        value = _decode_string(m.group("value"), ln.no, col)
        handler = getattr(self, f"_tag_{name}", None)
        if handler is None:  # Format, Id, Session, Date: the text as it stands (the record checks it)
            self.obj[name] = value
            self._place(name, ln.no, col)
        else:
            handler(value, ln.no, col)

    def _tag_seq(self, value: str, line: int, col: int) -> None:
        if not _WHOLE.fullmatch(value.strip()):
            raise TrkError(line, col, f"expected a whole number for Seq, found {_show(value)}")
        self.obj["seq"] = int(value)
        self._place("seq", line, col)

    def _tag_ruleset(self, value: str, line: int, col: int) -> None:
        name = lookup_name(value, frozenset(RULESETS))
        if name is None:
            raise TrkError(line, col, f"expected a ruleset ({', '.join(RULESETS)}), found {_show(value)}")
        self.obj["ruleset"] = self.ruleset = name
        self._place("ruleset", line, col)

    def _tag_options(self, value: str, line: int, col: int) -> None:
        self.obj["options"] = _parse_options(value, line, col)
        self._place("options", line, col)

    def _tag_players(self, value: str, line: int, col: int) -> None:
        toks = _tokens(value, line, offset=col - 1)
        for t in toks:
            if t.kind == ":":
                raise TrkError(line, t.col, "a player name with ':' must be quoted in Players")
        if any(t.kind == "," for t in toks):
            names = [" ".join(t.text for t in group) for group in _comma_groups(toks)]
        else:
            names = [t.text for t in toks]
        self.obj["players"] = names
        self._place("players", line, col)

    def _tag_recorded(self, value: str, line: int, col: int) -> None:
        self.obj.setdefault("recorded", {})["scores"] = _parse_scores(value, line, col)
        self._place("scores", line, col)
        self._place("recorded", line, col)

    def _tag_recordedradelci(self, value: str, line: int, col: int) -> None:
        self.obj.setdefault("recorded", {})["radelci"] = _parse_scores(value, line, col)
        self._place("radelci", line, col)
        self._place("recorded", line, col)

    def _tag_extra(self, value: str, line: int, col: int) -> None:
        try:
            extra = orjson.loads(value)
        except orjson.JSONDecodeError as exc:
            raise TrkError(line, col, f"Extra must hold a JSON object: {exc.msg}") from None
        if type(extra) is not dict:
            raise TrkError(line, col, "Extra must hold a JSON object")
        known = sorted(set(extra) & set(KNOWN_KEYS))
        if known:
            raise TrkError(line, col, f"Extra may not hold record fields ({', '.join(known)}); "
                                      "they have their own tags and lines")
        self.obj.update(extra)
        self._place("extra", line, col)

    def _ruleset_and_players(self, at: _Line) -> None:
        """The players the moves name, from the Players tag (required before the moves)."""
        if "ruleset" not in self.obj:
            self.obj["ruleset"] = self.ruleset
        if "players" not in self.obj:
            raise TrkError(at.no, 1, 'expected a [Players "…"] tag before the moves of the deal')
        self.players = tuple(self.obj["players"])
        recorded = self.obj.get("recorded")
        if recorded is None:
            return
        if "scores" not in recorded:
            line, col = self.where["radelci"]
            raise TrkError(line, col, "RecordedRadelci needs a Recorded tag with the scores too")
        for key, figures in recorded.items():
            recorded[key] = {self._find_player(name) or name: value for name, value in figures.items()}

    # -- moves -----------------------------------------------------------------
    def _body_line(self, ln: _Line) -> None:
        toks = _tokens(ln.text, ln.no)
        if toks[0].kind == "num":
            self._tricks(toks, ln.no)
            return
        colon = next((i for i, t in enumerate(toks) if t.kind == ":"), None)
        if colon is None or colon == 0 or any(t.kind not in ("word", "str") for t in toks[:colon]):
            raise TrkError(ln.no, toks[0].col, "expected a trick ('1. …'), 'Keyword: …' or 'Player: …', "
                                               f"found {_show(toks[0].text)}")
        head, rest = toks[:colon], toks[colon + 1:]
        label = ln.text[head[0].col - 1:toks[colon].col].strip()
        if len(head) == 1 and head[0].kind == "str":
            self._actor(self._player_tok(head[0], ln.no), rest, ln.no, label, toks[colon].col)
            return
        text = " ".join(t.text for t in head)
        keyword = _fold(text)
        player = self._find_player(text)
        if keyword in KEYWORDS:  # a player named like a keyword is written (and must be typed) in quotes
            getattr(self, f"_kw_{keyword}")(rest, ln.no, label, toks[colon].col)
        elif player is not None:
            self._actor(player, rest, ln.no, label, toks[colon].col)
        else:
            raise TrkError(ln.no, head[0].col, f"{_show(text)} is neither a keyword ({', '.join(KEYWORDS)}) nor "
                                               f"one of the players ({', '.join(self.players)})")

    def _find_player(self, text: str) -> str | None:
        """The player ``text`` names: exactly, else the one player it matches ignoring case."""
        if text in self.players:
            return text
        folded = [p for p in self.players if p.casefold() == text.casefold()]
        return folded[0] if len(folded) == 1 else None

    def _player_tok(self, tok: _Tok, line: int) -> str:
        player = self._find_player(tok.text)
        if player is None:
            raise TrkError(line, tok.col, f"expected a player ({', '.join(self.players)}), found {_show(tok.text)}")
        return player

    def _once(self, key: str, line: int, col: int, label: str) -> None:
        if key in self.where:
            raise TrkError(line, col, f"'{label}' is given twice (first on line {self.where[key][0]})")
        self._place(key, line, col)

    def _actor(self, player: str, rest: list[_Tok], line: int, label: str, col: int) -> None:
        """``Player: …``: a hand, ``pass``, ``bid X``, ``announce B`` or a kontra step."""
        first = _fold(rest[0].text) if rest and rest[0].kind == "word" else ""
        if first == "pass" and len(rest) == 1:
            self._bid(player, "pass", line, rest[0].col)
        elif first == "bid":
            self._bid(player, self._words(rest[1:], line, rest[0].col + 3, "a contract after 'bid'"), line,
                      rest[0].col)
        elif first == "announce":
            self._announce(player, rest, line)
        elif first in KONTRA_WORDS:
            self._kontra(player, rest, line)
        else:
            key = f"hands.{player}"
            self._once(key, line, col, label)
            self.hands[player] = _Hand(self._cards(rest, line, label, allow_unknown=True), line, col)

    def _words(self, toks: list[_Tok], line: int, col: int, what: str) -> str:
        if not toks:
            raise TrkError(line, col, f"expected {what}")
        for t in toks:
            if t.kind != "word":
                raise TrkError(line, t.col, f"expected {what}, found {_show(t.text)}")
        return " ".join(t.text for t in toks)

    def _bid(self, player: str, bid: str, line: int, col: int) -> None:
        name = self._bid_name(bid)
        if name is None:
            raise TrkError(line, col, f"expected a bid (pass or a {self.ruleset} contract), found {_show(bid)}")
        bidding = self.obj.setdefault("bidding", [])
        self._place("bidding", line, col)
        bidding.append([player, name])

    def _bid_name(self, text: str) -> str | None:
        if _fold(text) == "pass":
            return "pass"
        return self._contract_name(text)

    def _contract_name(self, text: str) -> str | None:
        known = frozenset(CONTRACTS[self.ruleset])
        name = lookup_name(text, known)
        if name is None and self.ruleset == "slovenian":
            name = CONTRACT_ALIASES.get(re.sub(r"[\s\-]+", "_", text.strip().casefold()))
        return name

    def _announce(self, player: str, rest: list[_Tok], line: int) -> None:
        text = self._words(rest[1:], line, rest[0].col + 8, "a bonus after 'announce'")
        bonus = lookup_name(text, frozenset(BONUSES[self.ruleset]))
        if bonus is None:
            raise TrkError(line, rest[1].col, f"expected a bonus ({', '.join(BONUSES[self.ruleset])}), "
                                              f"found {_show(text)}")
        self._add_announcement({"player": player, "bonus": bonus}, line, rest[0].col)

    def _kontra(self, player: str, rest: list[_Tok], line: int) -> None:
        level = KONTRA_WORDS[_fold(rest[0].text)]
        words = rest[1:]
        against: str | None = None
        split = next((i for i, t in enumerate(words) if t.kind == "word" and _fold(t.text) == "against"), None)
        if split is not None:
            if split + 2 != len(words):
                raise TrkError(line, words[split].col, "expected one player after 'against'")
            against = self._player_tok(words[split + 1], line)
            words = words[:split]
        text = self._words(words, line, rest[0].col + len(rest[0].text),
                           f"a target after '{rest[0].text}' (game or a bonus)")
        targets = frozenset(BONUSES[self.ruleset]) | {"game"}
        target = lookup_name(text, targets)
        if target is None:
            raise TrkError(line, words[0].col, f"expected a kontra target (game, {', '.join(BONUSES[self.ruleset])}), "
                                               f"found {_show(text)}")
        item: dict[str, Any] = {"player": player, "kontra": target, "level": level}
        if against is not None:
            item["against"] = against
        self._add_announcement(item, line, rest[0].col)

    def _add_announcement(self, item: dict[str, Any], line: int, col: int) -> None:
        announcements = self.obj.setdefault("announcements", [])
        self._place("announcements", line, col)
        announcements.append(item)

    # keyword lines
    def _kw_talon(self, rest: list[_Tok], line: int, label: str, col: int) -> None:
        self._once("talon", line, col, label)
        cards = self._cards(rest, line, label, allow_unknown=True)
        if None not in cards:  # a talon with unknown cards is left out, as if not given
            self.obj["talon"] = [CODES[c] for c in cards if c is not None]

    def _kw_bidding(self, rest: list[_Tok], line: int, label: str, col: int) -> None:
        self._once("bidding_line", line, col, label)
        self.obj.setdefault("bidding", [])
        self._place("bidding", line, col)
        groups = _comma_groups(rest) if any(t.kind == "," for t in rest) else self._player_groups(rest)
        for group in groups:
            if not group:
                raise TrkError(line, col, "expected 'Player bid' between the commas")
            player, words = self._leading_player(group, line)
            bid = self._words(words, line, group[-1].col + len(group[-1].text), f"a bid after {_show(player)}")
            self._bid(player, bid, line, words[0].col)

    def _player_groups(self, toks: list[_Tok]) -> list[list[_Tok]]:
        """Tokens cut before each one that names a player (``Boris pass Cilka solo tri``)."""
        groups: list[list[_Tok]] = []
        for t in toks:
            if not groups or (len(groups[-1]) >= 2 and (t.kind == "str" or self._find_player(t.text))):
                groups.append([t])
            else:
                groups[-1].append(t)
        return groups

    def _leading_player(self, group: list[_Tok], line: int) -> tuple[str, list[_Tok]]:
        """The player a group starts with (quoted, or the longest run of words naming one) and the rest."""
        if group[0].kind == "str":
            return self._player_tok(group[0], line), group[1:]
        for k in range(len(group) - 1, 0, -1):
            if all(t.kind == "word" for t in group[:k]):
                name = self._find_player(" ".join(t.text for t in group[:k]))
                if name is not None:
                    return name, group[k:]
        raise TrkError(line, group[0].col, f"expected a player ({', '.join(self.players)}) and a bid, "
                                           f"found {_show(' '.join(t.text for t in group))}")

    def _kw_contract(self, rest: list[_Tok], line: int, label: str, col: int) -> None:
        self._once("contract", line, col, label)
        words, declarers = self._trailing_players(rest, line)
        text = self._words(words, line, col + 1, "a contract after 'Contract:'")
        name = self._contract_name(text)
        if name is None:
            raise TrkError(line, words[0].col, f"expected a {self.ruleset} contract "
                                               f"({', '.join(CONTRACTS[self.ruleset])}), found {_show(text)}")
        self.obj["contract"] = name
        if declarers:
            self.obj["declarer"] = declarers[0] if len(declarers) == 1 else declarers
            self._place("declarer", line, col)

    def _trailing_players(self, toks: list[_Tok], line: int) -> tuple[list[_Tok], list[str]]:
        """Split ``contract words… Player…`` into the contract's tokens and the declarers (at least one word stays)."""
        declarers: list[str] = []
        end = len(toks)
        while end > 1:
            last = toks[end - 1]
            if last.kind == "str":
                declarers.insert(0, self._player_tok(last, line))
                end -= 1
                continue
            found = next((k for k in range(1, end) if all(t.kind == "word" for t in toks[k:end])
                          and self._find_player(" ".join(t.text for t in toks[k:end]))), None)
            if found is None:
                break
            declarers.insert(0, self._find_player(" ".join(t.text for t in toks[found:end])) or "")
            end = found
        return toks[:end], declarers

    def _kw_king(self, rest: list[_Tok], line: int, label: str, col: int) -> None:
        self._once("called_king", line, col, label)
        text = self._words(rest, line, col + 1, f"a king after '{label}'")
        self.obj["called_king"] = CODES[self._card(text, line, rest[0].col, label)]

    def _kw_talonpick(self, rest: list[_Tok], line: int, label: str, col: int) -> None:
        self._once("talon_pick", line, col, label)
        self.obj["talon_pick"] = [CODES[c] for c in self._cards(rest, line, label, allow_unknown=False)]  # type: ignore[index]

    def _kw_stash(self, rest: list[_Tok], line: int, label: str, col: int) -> None:
        self._once("stash", line, col, label)
        self.obj["stash"] = [CODES[c] for c in self._cards(rest, line, label, allow_unknown=False)]  # type: ignore[index]

    def _kw_claim(self, rest: list[_Tok], line: int, label: str, col: int) -> None:
        self._once("claim", line, col, label)
        split = next((i for i, t in enumerate(rest) if t.kind == "word" and _fold(t.text) == "after"), None)
        if split is None or split == 0 or split + 2 != len(rest) or not _WHOLE.fullmatch(rest[split + 1].text):
            raise TrkError(line, col + 1, "expected 'Claim: Player after N' (N: tricks played before the claim)")
        who = rest[:split]
        if len(who) == 1 and who[0].kind == "str":
            player = self._player_tok(who[0], line)
        else:
            text = self._words(who, line, who[0].col, "a player before 'after'")
            player = self._find_player(text)  # type: ignore[assignment]
            if player is None:
                raise TrkError(line, who[0].col, f"expected a player ({', '.join(self.players)}), "
                                                 f"found {_show(text)}")
        self.obj["claim"] = {"player": player, "after_trick": int(rest[split + 1].text)}

    def _kw_event(self, rest: list[_Tok], line: int, label: str, col: int) -> None:
        if not rest or rest[0].kind != "word":
            raise TrkError(line, col + 1, "expected an event kind after 'Event:'")
        event: dict[str, Any] = {"event": rest[0].text}
        card_words: list[_Tok] = []
        toks = iter(rest[1:])
        for t in toks:
            word = _fold(t.text) if t.kind == "word" else ""
            if word in ("trick", "after"):
                number = next(toks, None)
                if number is None or not _WHOLE.fullmatch(number.text):
                    raise TrkError(line, t.col, f"expected a trick number after '{t.text}'")
                event["trick" if word == "trick" else "after_trick"] = int(number.text)
            elif t.kind == "str" or (self._find_player(t.text) and not _is_card(t.text)):
                # a player named like a card is always quoted, so a bare card word is the card
                event["player"] = self._player_tok(t, line)
            else:
                card_words.append(t)
        if card_words:
            event["card"] = CODES[self._card(" ".join(t.text for t in card_words), line, card_words[0].col, label)]
        events = self.obj.setdefault("events", [])
        self._place(f"events[{len(events)}]", line, rest[0].col)
        events.append(event)

    def _kw_conceded(self, rest: list[_Tok], line: int, label: str, col: int) -> None:
        self._once("conceded", line, col, label)
        value = _YES.get(_fold(rest[0].text)) if len(rest) == 1 else None
        if value is None:
            raise TrkError(line, rest[0].col if rest else col + 1, "expected yes or no after 'Conceded:'")
        self.obj["conceded"] = value

    # cards and tricks
    def _cards(self, toks: list[_Tok], line: int, label: str, allow_unknown: bool) -> list[int | None]:
        """A list of cards, separated by spaces (or by commas when the line has any: aliases of several words)."""
        if any(t.kind == "," for t in toks):
            groups = [(" ".join(t.text for t in g), g[0].col if g else 0, g) for g in _comma_groups(toks)]
        else:
            groups = [(t.text, t.col, [t]) for t in toks]
        out: list[int | None] = []
        for text, col, group in groups:
            if not group:
                raise TrkError(line, toks[0].col, f"expected a card between the commas after '{label}'")
            bad = next((t for t in group if t.kind != "word"), None)
            if bad is not None:
                raise TrkError(line, bad.col, f"expected a card after '{label}', found {_show(bad.text)}")
            if text == _UNKNOWN_CARD:
                if not allow_unknown:
                    raise TrkError(line, col, f"'??' (an unknown card) is not allowed after '{label}'")
                out.append(None)
            else:
                out.extend(self._group_cards(text, col, group, line, label))
        return out

    def _group_cards(self, text: str, col: int, group: list[_Tok], line: int, label: str) -> list[int]:
        """One card named by several words (``srce kralj``), else each word a card (``IIII VI XI``)."""
        try:
            return [parse_card(text)]
        except UnknownCardError:
            if len(group) == 1:
                return [self._card(text, line, col, label)]
        return [self._card(t.text, line, t.col, label) for t in group]

    @staticmethod
    def _card(text: str, line: int, col: int, label: str) -> int:
        try:
            return parse_card(text)
        except AmbiguousCardError as exc:
            raise TrkError(line, col, str(exc)) from None
        except UnknownCardError:
            raise TrkError(line, col, f"expected a card after '{label}', found {_show(text)}") from None

    def _tricks(self, toks: list[_Tok], line: int) -> None:
        """``N. plays…`` (several tricks may share a line, each starting with its number)."""
        starts = [i for i, t in enumerate(toks) if t.kind == "num"] + [len(toks)]
        for a, b in zip(starts, starts[1:]):
            number = toks[a]
            expected = len(self.tricks) + 1
            if int(number.text) != expected:
                raise TrkError(line, number.col, f"expected trick {expected}, found '{number.text}.'")
            self._place(f"tricks[{expected - 1}]", line, number.col)
            self._place("tricks", line, number.col)
            self.tricks.append(self._plays(toks[a + 1:b], line, f"{number.text}."))

    def _plays(self, toks: list[_Tok], line: int, label: str) -> list[str]:
        """The plays of one trick: ``HK`` or ``Player:HK`` each; all named or none."""
        if any(t.kind == "," for t in toks):
            groups = _comma_groups(toks)
        else:
            groups = _named_groups(toks)
        plays: list[str] = []
        named: bool | None = None
        for group in groups:
            if not group:
                raise TrkError(line, toks[0].col if toks else 1, f"expected a card between the commas after '{label}'")
            player, card_toks = self._play_parts(group, line, label)
            if named is not None and named != (player is not None):
                raise TrkError(line, group[0].col, f"in trick {label[:-1]} either every card names its player "
                                                   "or none does")
            named = player is not None
            text = " ".join(t.text for t in card_toks)
            card = CODES[self._card(text, line, card_toks[0].col, player + ":" if player else label)]
            plays.append(card if player is None else f"{player}:{card}")
        return plays

    def _play_parts(self, group: list[_Tok], line: int, label: str) -> tuple[str | None, list[_Tok]]:
        colon = next((i for i, t in enumerate(group) if t.kind == ":"), None)
        if colon is None:
            card_toks, player = group, None
        else:
            head = group[:colon]
            if len(head) == 1 and head[0].kind == "str":
                player = self._player_tok(head[0], line)
            else:
                text = " ".join(t.text for t in head)
                player = self._find_player(text)
                if player is None:
                    raise TrkError(line, group[0].col, f"expected a player ({', '.join(self.players)}) before ':', "
                                                       f"found {_show(text)}")
            card_toks = group[colon + 1:]
            if not card_toks:
                raise TrkError(line, group[colon].col + 1, f"expected a card after '{player}:'")
        bad = next((t for t in card_toks if t.kind != "word"), None)
        if bad is not None:
            raise TrkError(line, bad.col, f"expected a card after '{label}', found {_show(bad.text)}")
        return player, card_toks

    def _finish_hands(self) -> None:
        """All hands, or none: a hand with ``??`` (or a missing hand line) leaves ``hands`` out."""
        if not self.hands:
            return
        missing = [p for p in self.players if p not in self.hands]
        if missing:
            first = next(iter(self.hands.values()))
            raise TrkError(first.line, 1, f"no hand line for {', '.join(missing)}: give every hand (?? for "
                                          "unknown cards) or none")
        if any(None in hand.cards for hand in self.hands.values()):
            return
        self.obj["hands"] = {p: [CODES[c] for c in self.hands[p].cards if c is not None] for p in self.players}
        first = next(iter(self.hands.values()))
        self._place("hands", first.line, first.col)


def _comma_groups(toks: list[_Tok]) -> list[list[_Tok]]:
    """Tokens cut at the commas (an empty list where two commas meet or at an end)."""
    groups: list[list[_Tok]] = [[]]
    for t in toks:
        if t.kind == ",":
            groups.append([])
        else:
            groups[-1].append(t)
    if groups == [[]]:
        return []
    return groups


def _named_groups(toks: list[_Tok]) -> list[list[_Tok]]:
    """Space-separated plays: ``HK`` or ``Player : HK`` (the colon binds a name to the next card)."""
    groups: list[list[_Tok]] = []
    i = 0
    while i < len(toks):
        if i + 1 < len(toks) and toks[i + 1].kind == ":":
            groups.append(toks[i:i + 3])
            i += 3
        else:
            groups.append([toks[i]])
            i += 1
    return groups


def _parse_options(value: str, line: int, col: int) -> dict[str, Any]:
    """``key=value …``: a value is JSON (``20``, ``true``, ``"20"``) or a bare word (``none``)."""
    out: dict[str, Any] = {}
    pos = _SPACE.match(value).end()  # type: ignore[union-attr]
    while pos < len(value):
        key, pos = _option_part(value, pos, line, col, key=True)
        if not value.startswith("=", pos):
            raise TrkError(line, col + pos, f"expected '=' after the option {_show(key)}")
        val, pos = _option_part(value, pos + 1, line, col, key=False)
        if key in out:
            raise TrkError(line, col, f"the option {_show(key)} is given twice")
        out[key] = val
        pos = _SPACE.match(value, pos).end()  # type: ignore[union-attr]
    return out


_OPTION_KEY = re.compile(r"[^\s=]+")
_OPTION_WORD = re.compile(r"\S+")


def _option_part(text: str, pos: int, line: int, col: int, key: bool) -> tuple[Any, int]:
    """One option key or value starting at ``pos``, and where it ends.

    A value is JSON when it parses as JSON up to the next space (so ``true``
    is a bool and ``"true"`` a text), else a bare word; a key is a bare word
    or a quoted text.
    """
    if not key or text.startswith('"', pos):
        try:
            value, end = _JSON_STRING.raw_decode(text, pos)
        except json.JSONDecodeError:
            end = -1
        stop = " =" if key else " "
        if end >= 0 and (end == len(text) or text[end] in stop or text[end].isspace()):
            if not key or isinstance(value, str):
                return value, end
    m = (_OPTION_KEY if key else _OPTION_WORD).match(text, pos)
    if m is None:
        raise TrkError(line, col + pos, "expected an option like diff_rounding=none")
    return m.group(), m.end()


def _parse_scores(value: str, line: int, col: int) -> dict[str, int]:
    """``Ana +40 Cilka +40``: each player (quoted when needed) followed by a whole number."""
    toks = _tokens(value, line, offset=col - 1)
    out: dict[str, int] = {}
    name: list[str] = []
    for t in toks:
        if t.kind == "word" and _INT.match(t.text) and name:
            player = " ".join(name)
            if player in out:
                raise TrkError(line, t.col, f"{_show(player)} has two figures")
            out[player] = int(t.text)
            name = []
        elif t.kind in ("word", "str"):
            name.append(t.text)
        else:
            raise TrkError(line, t.col, f"expected 'Player number' pairs, found {_show(t.text)}")
    if name:
        raise TrkError(line, col, f"expected a number after {_show(' '.join(name))}")
    return out


def _parse_block(block: _Block) -> Deal:
    """The deal of a block; of several errors (a reading problem, a parse error) the earliest is raised."""
    try:
        deal = _DealParser(block).parse()
    except TrkError as exc:
        problem = block.problem
        if problem is not None and (problem.line, problem.column) <= (exc.line, exc.column):
            raise problem from None
        raise
    if block.problem is not None:
        raise block.problem
    return deal


def loads_trk(text: str) -> Deal:
    """The one deal of a ``.trk`` text; TrkError (a RecordError) when it is not exactly one readable deal."""
    blocks = list(_split_text(text))
    if len(blocks) != 1:
        line = blocks[1].start if len(blocks) > 1 else 1
        raise TrkError(line, 1, f"expected one deal, found {len(blocks)}")
    return _parse_block(blocks[0])


def loads_trk_all(text: str) -> list[Deal]:
    """Every deal of a ``.trk`` text, in order; the first unreadable one raises TrkError."""
    return [_parse_block(block) for block in _split_text(text)]


def read_trk_lines(file: str, pieces: Iterable[Any], limits: ReaderLimits, start_line: int = 1,
                   end_line: int | None = None) -> Iterator[ReadItem]:
    """ReadItems of a ``.trk`` file from the line pieces of ``tarock.formats.reader``' line splitter.

    Used by ``tarock.formats.reader.read_records``: a deal is read when its first
    line lies in ``start_line``..``end_line``; a deal that cannot be read is
    one ``E_PARSE`` item (at the deal's first line; the message names the
    exact line and column) and reading goes on with the next deal.
    """
    splitter = _Splitter(limits.max_line_bytes)

    def emit(blocks: Iterable[_Block]) -> Iterator[ReadItem]:
        for block in blocks:
            start = block.start
            if start >= start_line and (end_line is None or start <= end_line):
                yield _item(file, block, limits)

    for piece in pieces:
        if piece.problem is not None:
            if not piece.data:  # the file itself could not be read further: stop here
                yield from emit(splitter.finish())
                finding = Finding(code="E_PARSE", message=piece.problem, file=file, line=piece.line)
                yield ReadItem(file, piece.line, None, finding, None)
                return
            splitter.problem(piece.line, piece.problem)
            continue
        try:
            text = piece.data.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError as exc:
            splitter.problem(piece.line, f"line {piece.line} is not UTF-8 text (byte {exc.start + 1})")
            continue
        if end_line is not None and piece.line > end_line and _TAG_LINE.match(text):
            break
        yield from emit(splitter.feed(piece.line, text))
    yield from emit(splitter.finish())


def _item(file: str, block: _Block, limits: ReaderLimits) -> ReadItem:
    try:
        return ReadItem(file, block.start, _parse_block(block), None, None)
    except RecordError as exc:
        finding = Finding(code="E_PARSE", message=str(exc), file=file, line=block.start)
        return ReadItem(file, block.start, None, finding, block.raw(limits.raw_limit))


# --------------------------------------------------------------------------- writing


def _quote(text: str) -> str:
    return orjson.dumps(text).decode()


def _name_token(name: str) -> str:
    """A player name as written: bare when it cannot be mistaken for anything else, else quoted."""
    if (
        _SIMPLE_NAME.match(name)
        and _fold(name) not in _RESERVED
        and not re.match(r"\d+\.", name)
        and not _is_card(name)
        and not _INT.match(name)
    ):
        return name
    return _quote(name)


def _is_card(text: str) -> bool:
    try:
        parse_card(text)
    except UnknownCardError:
        return False
    return True


def _tag(name: str, value: str) -> str:
    return f"[{name} {_quote(value)}]"


def _options_text(options: dict[str, Any]) -> str:
    parts = []
    for key, value in options.items():
        key_text = key if _BARE.match(key) else _quote(key)
        if isinstance(value, str) and _BARE.match(value) and value not in ("true", "false", "null"):
            value_text = value
        else:
            value_text = orjson.dumps(value).decode()
        parts.append(f"{key_text}={value_text}")
    return " ".join(parts)


def _scores_text(scores: dict[str, int], sign: bool) -> str:
    return " ".join(f"{_name_token(p)} {f'{n:+d}' if sign and n else n}" for p, n in scores.items())


def _header(obj: dict[str, Any]) -> list[str]:
    lines = [_tag(TAGS[key], str(obj[key])) for key in ("id", "session", "seq", "date", "ruleset") if key in obj]
    if "options" in obj:
        lines.append(_tag("Options", _options_text(obj["options"])))
    lines.append(_tag("Players", " ".join(_name_token(p) for p in obj["players"])))
    recorded = obj.get("recorded")
    if recorded is not None:
        lines.append(_tag("Recorded", _scores_text(recorded["scores"], sign=True)))
        if "radelci" in recorded:
            lines.append(_tag("RecordedRadelci", _scores_text(recorded["radelci"], sign=False)))
    extra = {k: v for k, v in obj.items() if k not in KNOWN_KEYS}
    if extra:
        lines.append(_tag("Extra", orjson.dumps(extra).decode()))
    return lines


def _announcement_text(a: dict[str, Any]) -> str:
    who = _name_token(a["player"])
    if "bonus" in a:
        return f"{who}: announce {a['bonus']}"
    against = f" against {_name_token(a['against'])}" if "against" in a else ""
    return f"{who}: {KONTRA_NAMES[a['level']]} {a['kontra']}{against}"


def _event_text(e: dict[str, Any]) -> str:
    parts = [e["event"]]
    if "trick" in e:
        parts.append(f"trick {e['trick']}")
    if "after_trick" in e:
        parts.append(f"after {e['after_trick']}")
    if "player" in e:
        parts.append(_name_token(e["player"]))
    if "card" in e:
        parts.append(e["card"])
    return "Event: " + " ".join(parts)


def _play_text(play: str) -> str:
    """``Ana:HK`` with the name quoted when needed (card codes never hold ':')."""
    name, sep, card = play.rpartition(":")
    return f"{_name_token(name)}:{card}" if sep else play


def _body(obj: dict[str, Any]) -> list[str]:
    lines = []
    for player, cards in obj.get("hands", {}).items():
        lines.append(f"{_name_token(player)}: {' '.join(cards)}".rstrip())
    if "talon" in obj:
        lines.append(f"Talon: {' '.join(obj['talon'])}".rstrip())
    if "bidding" in obj:
        lines.append("Bidding: " + ", ".join(f"{_name_token(p)} {bid}" for p, bid in obj["bidding"]))
    declarer = obj.get("declarer")
    declarers = [] if declarer is None else [declarer] if isinstance(declarer, str) else declarer
    lines.append(" ".join(["Contract:", obj["contract"], *map(_name_token, declarers)]))
    if "called_king" in obj:
        lines.append(f"King: {obj['called_king']}")
    for key, label in (("talon_pick", "TalonPick"), ("stash", "Stash")):
        if key in obj:
            lines.append(f"{label}: {' '.join(obj[key])}".rstrip())
    lines.extend(_announcement_text(a) for a in obj.get("announcements", ()))
    for i, trick in enumerate(obj["tricks"], 1):
        lines.append(" ".join([f"{i}.", *map(_play_text, trick)]))
    if "claim" in obj:
        claim = obj["claim"]
        lines.append(f"Claim: {_name_token(claim['player'])} after {claim['after_trick']}")
    lines.extend(_event_text(e) for e in obj.get("events", ()))
    if "conceded" in obj:
        lines.append(f"Conceded: {'yes' if obj['conceded'] else 'no'}")
    return [ln.rstrip() for ln in lines]


def dumps_trk(deal: Deal) -> str:
    """The canonical ``.trk`` text of one deal (tags, a blank line, the moves; ends with a newline)."""
    obj = deal_to_obj(deal)
    return "\n".join(_header(obj) + [""] + _body(obj)) + "\n"


def dumps_trk_all(deals: Iterable[Deal]) -> str:
    """Several deals as one ``.trk`` text, a blank line between deals."""
    return "\n".join(dumps_trk(d) for d in deals)
