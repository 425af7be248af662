"""The ``record`` column's stored form, ``record_packed``: the canonical JSON with its cards coded densely.

A stored record is the canonical JSON of ``tarock.formats.codec.dumps`` (docs/store.md, ``deals.record``).
Most of its bytes are card codes in quotes (``"T21"``, ``"HK"``: about a hundred a deal).  Two versions of
the stored form exist; ``unpack_bytes(pack_text(x)) == x`` for any text, byte for byte, whichever it takes
(tests/ingest/test_packed_record.py, tests/ingest/test_packed_record_v2.py).

**Version 1** (stores written before, and any text version 2 does not fit) is a substitution of bytes, not
of JSON.  Read left to right (``pack_v1``):

* ``"`` + a card code (``tarock.cards.CODES``) + ``"`` becomes the byte ``CARD_BYTE + card`` (0x80 … 0xB5),
  unless it starts right where the last packed code ended (``"T1""T2"``, never in JSON);
* a comma between two packed codes is dropped: unpacking puts one between two card bytes;
* a byte of the text in the card bytes' range (a continuation byte of UTF-8: ``č`` is 0xC4 0x8D) is kept
  behind ``ESCAPE`` (0xFF), a byte UTF-8 never uses.

On 200,000 generated deals that compressed (Parquet, zstd) to about 114 bytes a deal, while the cards of a
deal hold some 30 bytes of information: who was dealt what (a multinomial: about 14 bytes for four hands of
12 and a talon of 6), the talon's order, and in each trick which of his cards each player played.

**Version 2** is ``V2`` (0xFE, a byte UTF-8 never uses, so never the first of version 1), the *code*'s
length (one byte), the skeleton's *values*' length (``_varint``: one byte below 128), the values, the
*template*, and the code.  The *skeleton* is the version-1 form with each maximal run of card bytes (a list
of cards, or a lone card) replaced by the one byte ``CARD_BYTE + its length - 1``; ``_cut`` moves its
values (what follows a ``:``: session, seq, contract, declarer …) to the front, each ended by a zero byte,
leaving a template that is the same for every deal of a shape.  That order is for Parquet's zstd, which
then finds the template whole in the rows before: on the bench's deals 38.5 bytes a deal against 39.3 with
the skeleton uncut, and 40.4 with that and the code's length last.  The code holds the runs' cards, range-coded
(``_Encoder``: a carry-less 32-bit range coder, each symbol costing -log2 of its probability) by the deal
model, read from the runs' lengths alone:

* the runs open with the deal: ``players`` runs of equal length (``players`` >= 2), each a hand in ascending
  card order, then the talon, together each card of the deck once.  Each card's owner is coded in card
  order, weighted by the cards each owner has left (the multinomial, exactly); then the talon's order;
* every later run of ``players`` cards is a trick: its leader (after a trick most likely its winner by
  ``_best``, weight ``WINNER_WEIGHT`` against 1 for another seat; else any seat alike), then each card in
  seat order from the leader, among the cards its player still holds, weighted ``LEGAL_WEIGHT`` where the
  rules of following allow it, 1 where they do not, or (weight 1) a card from elsewhere, coded as a loose
  card;
* any other run's cards (``talon_pick``, ``stash``, ``called_king`` …) are loose cards: a talon card by its
  place in the talon, else by its number.  Such a run of talon cards is a pick; the run right after a pick
  is the stash, whose cards leave the hands, the first one held naming the declarer, who takes the picked
  cards not stashed (``_Picked``); so his picked cards code in the tricks as his own.  A loose card played
  in a trick leaves the hand that held it.

The weights are guesses of what a record holds (legal play, the talon exchange of the rules); a record that
plays otherwise codes in more bytes, never inexactly, as the decoder makes the same guesses from the cards
it has decoded.  The model (the weights, ``_best``'s guess of a trick's taker, the coder) is part of
the version-2 format, not a rule of the game: a stored value decodes only under the very model that coded
it, so the model never follows a change of ``tarock/rules``, and a better one would be a version 3.

A version-1 form whose runs do not open with a deal (no hands, a card twice, a hand out of order, a
partial deal), a run longer than the deck, a zero byte, values of 16 KiB or a code over 255 bytes stays
version 1; so every text has a stored form and old values read as they always did.  On those 200,000 deals
version 2 takes 38.5 bytes a deal compressed (docs/store.md), 26 of them the code.

``pack`` and ``unpack`` do it for a whole Arrow column: by the C extension ``ingest._packrecord`` (a
projection of these functions, given the card codes, suits and weights by ``init``) when it is built, else
by the functions.  Ingest packs a partition's records at once (``ingest.rows``); the views present
``record`` unpacked through the SQL function ``tarock_record`` (``ingest.store``); a reader of the files
calls ``unpack`` or ``unpack_bytes``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from tarock.cards import CODES, SUIT_OF_CARD_MASK, TAROK_MASK

CARD_BYTE = 0x80
"""The byte of card 0; card ``c`` is ``CARD_BYTE + c``."""
ESCAPE = 0xFF
"""Put before a byte of the text that lies in the card bytes' range."""
V2 = 0xFE
"""The first byte of a version-2 value: a byte UTF-8 never uses, so never the first byte of version 1."""
LEGAL_WEIGHT = 128
"""A trick's card is one of its player's cards, weighted ``LEGAL_WEIGHT`` where the rules allow it (the led
suit if held, else a tarok if held, else any) and 1 where not; or, weight 1, any other card."""
WINNER_WEIGHT = 60
"""A trick's leader is the last trick's winner (weight ``WINNER_WEIGHT``) or another seat (weight 1)."""

_LAST_CARD_BYTE = CARD_BYTE + len(CODES) - 1
_QUOTE, _COMMA = ord('"'), ord(",")
_QUOTED = [f'"{code}"'.encode() for code in CODES]
_CARD_OF_QUOTED = {quoted: card for card, quoted in enumerate(_QUOTED)}
_WIDTHS = sorted({len(quoted) for quoted in _QUOTED})


def _load() -> Any:
    try:
        from ingest import _packrecord  # type: ignore[attr-defined]  # compiled: no stub
    except ImportError:
        return None
    _packrecord.init(list(CODES), CARD_BYTE, ESCAPE, V2, list(SUIT_OF_CARD_MASK), TAROK_MASK, LEGAL_WEIGHT,
                     WINNER_WEIGHT)
    return _packrecord


PACKRECORD = _load()
"""``ingest._packrecord``, or None where it is not built (then the loops below run)."""


def _code_at(data: bytes, p: int, end: int) -> tuple[int, int]:
    """(card, quoted length) of a quoted card code starting at ``data[p]`` within ``end``; (-1, 0) if none."""
    if p >= end or data[p] != _QUOTE:
        return -1, 0
    for width in _WIDTHS:
        card = _CARD_OF_QUOTED.get(data[p:p + width], -1) if p + width <= end else -1
        if card >= 0:
            return card, width
    return -1, 0


def pack_v1(text: str) -> bytes:
    """A record's version-1 form: each quoted card code one byte (the module's docstring)."""
    data = text.encode()
    out = bytearray()
    p, end, prev_end = 0, len(data), -1
    while p < end:
        byte = data[p]
        card, length = _code_at(data, p, end) if p != prev_end else (-1, 0)
        if card >= 0:
            out.append(CARD_BYTE + card)
            p = prev_end = p + length
            if p < end and data[p] == _COMMA and _code_at(data, p + 1, end)[0] >= 0:
                p += 1  # the comma between two codes
        else:
            if CARD_BYTE <= byte <= _LAST_CARD_BYTE:
                out.append(ESCAPE)
            out.append(byte)
            p += 1
    return bytes(out)


def unpack_v1(data: bytes) -> str:
    """The text of a version-1 form."""
    out = bytearray()
    p, end = 0, len(data)
    while p < end:
        byte = data[p]
        if byte == ESCAPE and p + 1 < end:
            out.append(data[p + 1])
            p += 2
        elif CARD_BYTE <= byte <= _LAST_CARD_BYTE:
            out += _QUOTED[byte - CARD_BYTE]
            p += 1
            if p < end and CARD_BYTE <= data[p] <= _LAST_CARD_BYTE:
                out.append(_COMMA)
        else:
            out.append(byte)
            p += 1
    return out.decode()


def pack_text(text: str) -> bytes:
    """One record's stored form: version 2 where it applies, else version 1 (the reference the C extension
    projects)."""
    v1 = pack_v1(text)
    return _pack_v2(v1) or v1


def unpack_bytes(data: bytes) -> str:
    """The record a ``record_packed`` value stands for, of either version (the reference the C extension
    projects); ValueError when a version-2 value is damaged."""
    return unpack_v1(_unpack_v2(data) if data[:1] == bytes([V2]) else data)


# --------------------------------------------------------------------------- version 2: skeleton and runs

def _split(v1: bytes) -> tuple[bytes, list[list[int]]] | None:
    """(skeleton, runs) of a version-1 form: each maximal run of card bytes becomes the one byte
    ``CARD_BYTE + its length - 1``; None when a run is longer than that byte can say."""
    skeleton, runs = bytearray(), []
    p, end = 0, len(v1)
    while p < end:
        byte = v1[p]
        if byte == ESCAPE and p + 1 < end:
            skeleton += v1[p:p + 2]
            p += 2
        elif CARD_BYTE <= byte <= _LAST_CARD_BYTE:
            start = p
            while p < end and CARD_BYTE <= v1[p] <= _LAST_CARD_BYTE:
                p += 1
            if p - start > len(CODES):
                return None
            skeleton.append(CARD_BYTE + p - start - 1)
            runs.append([b - CARD_BYTE for b in v1[start:p]])
        else:
            skeleton.append(byte)
            p += 1
    return bytes(skeleton), runs


def _run_lengths(skeleton: bytes) -> list[int]:
    """The lengths of the runs a skeleton marks, in order."""
    lengths, p, end = [], 0, len(skeleton)
    while p < end:
        byte = skeleton[p]
        if byte == ESCAPE and p + 1 < end:
            p += 2
            continue
        if CARD_BYTE <= byte <= _LAST_CARD_BYTE:
            lengths.append(byte - CARD_BYTE + 1)
        p += 1
    return lengths


def _join(skeleton: bytes, runs: list[list[int]]) -> bytes:
    """The version-1 form of a skeleton and its runs (``_split``'s inverse)."""
    out, p, end, k = bytearray(), 0, len(skeleton), 0
    while p < end:
        byte = skeleton[p]
        if byte == ESCAPE and p + 1 < end:
            out += skeleton[p:p + 2]
            p += 2
            continue
        if CARD_BYTE <= byte <= _LAST_CARD_BYTE:
            out += bytes(CARD_BYTE + card for card in runs[k])
            k += 1
        else:
            out.append(byte)
        p += 1
    return bytes(out)


def _pack_v2(v1: bytes) -> bytes | None:
    """``V2``, the code's length (a byte), the values' length (``_varint``), the values, the template, the code
    of the runs' cards; None where the deal model does not hold, or a length is longer than its bytes say."""
    split = _split(v1)
    if split is None:
        return None
    skeleton, runs = split
    cut = _cut(skeleton)
    if cut is None:
        return None
    values, template = cut
    encoder = _Encoder()
    if len(values) >= _VARINT_LIMIT or not _code_cards(runs, encoder):
        return None
    code = encoder.finish()
    if len(code) > 255:
        return None
    return bytes([V2, len(code)]) + _varint(len(values)) + values + template + code


def _unpack_v2(data: bytes) -> bytes:
    """The version-1 form of a version-2 value."""
    if len(data) < 3 or len(data) < 3 + data[1]:
        raise ValueError("record_packed: a version-2 value cut short")
    size, at = data[2], 3
    if size >= 0x80:
        if len(data) < 4 + data[1]:
            raise ValueError("record_packed: a version-2 value cut short")
        size, at = (size & 0x7F) | data[3] << 7, 4
    if at + size > len(data) - data[1]:
        raise ValueError("record_packed: a version-2 value cut short")
    skeleton = _uncut(data[at:at + size], data[at + size:len(data) - data[1]])
    runs = _decode_cards(_run_lengths(skeleton), _Decoder(data[len(data) - data[1]:]))
    return _join(skeleton, runs)


_VARINT_LIMIT = 1 << 14
_COLON, _SEPARATORS = ord(":"), frozenset(b'",:{}[]')


def _varint(n: int) -> bytes:
    """``n`` (< ``_VARINT_LIMIT``) in one byte below 128, else two: 7 bits a byte, the low ones first."""
    return bytes([n]) if n < 0x80 else bytes([0x80 | n & 0x7F, n >> 7])


def _cut(skeleton: bytes) -> tuple[bytes, bytes] | None:
    """(values, template) of a skeleton: each value (the bytes after a ``:`` or ``:"`` up to the next of
    ``",:{}[]``) moved to the values, each ended by a zero byte, so the template is the same for every deal
    of a shape and the values (session, seq, contract, declarer …) sit together.  A value right after ``:``
    that ends at a ``"`` (``"Ana:T1"``) stays, or it would come back as ``:"…``; so after a ``:`` the template
    holds a value's place where a ``"``, another of those bytes or its end follows.  None for a skeleton with a
    zero byte, which ends a value."""
    if 0 in skeleton:
        return None
    values, template = bytearray(), bytearray()
    p, end = 0, len(skeleton)
    while p < end:
        byte = skeleton[p]
        template.append(byte)
        p += 1
        if byte != _COLON:
            continue
        quoted = p < end and skeleton[p] == _QUOTE
        if quoted:
            template.append(_QUOTE)
            p += 1
        start = p
        while p < end and skeleton[p] not in _SEPARATORS:
            p += 1
        if not quoted and p > start and p < end and skeleton[p] == _QUOTE:
            p = start  # cut, ``:x"`` would come back as ``:"x``: the value stays in the template
            continue
        values += skeleton[start:p] + b"\0"
    return bytes(values), bytes(template)


def _uncut(values: bytes, template: bytes) -> bytes:
    """The skeleton ``_cut`` cut into ``values`` and ``template``."""
    if values and values[-1] != 0:
        raise ValueError("record_packed: a version-2 value's values unended")
    parts = values[:-1].split(b"\0") if values else []
    out, p, end, k = bytearray(), 0, len(template), 0
    while p < end:
        byte = template[p]
        out.append(byte)
        p += 1
        if byte != _COLON:
            continue
        if p < end and template[p] == _QUOTE:
            out.append(_QUOTE)
            p += 1
        elif p < end and template[p] not in _SEPARATORS:
            continue  # a value the template kept
        if k == len(parts):
            raise ValueError("record_packed: a version-2 value's template wants more values")
        out += parts[k]
        k += 1
    if k != len(parts):
        raise ValueError("record_packed: a version-2 value's values outnumber its template's")
    return bytes(out)


def _recoded(column: pa.Array | pa.ChunkedArray, source: pa.DataType, target: pa.DataType, compiled: str,
             loop: Any) -> pa.Array:
    """``column`` (``source`` values) as ``target`` values, each value recoded by the C extension's
    ``compiled`` function, or by ``loop``; nulls stay null."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], source)
    if PACKRECORD is None:
        return pa.array([None if value is None else loop(value) for value in column.to_pylist()], target)
    large = column.cast(pa.large_binary())  # the same bytes, 64-bit offsets: one buffer whatever its size
    n = len(large)
    offset_buffer = large.buffers()[1]
    assert offset_buffer is not None  # a binary array always has its offsets
    offsets = np.frombuffer(memoryview(offset_buffer), np.int64, n + 1, large.offset * 8)
    data = large.buffers()[2] if n else b""
    out, out_offsets = getattr(PACKRECORD, compiled)(data if data is not None else b"", offsets)
    validity = pa.array(large.is_valid().to_numpy(zero_copy_only=False)).buffers()[1] if large.null_count else None
    large_target = pa.large_binary() if target == pa.binary() else pa.large_string()
    recoded = pa.Array.from_buffers(large_target, n, [validity, pa.py_buffer(out_offsets), pa.py_buffer(out)],
                                    large.null_count)
    return recoded.cast(target)


def pack(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The stored form (``record_packed``, binary) of a column of records (strings)."""
    return _recoded(column, pa.string(), pa.binary(), "pack", pack_text)


def unpack(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """The records (strings) of a column of ``record_packed`` values: the views' ``tarock_record``."""
    return _recoded(column, pa.binary(), pa.string(), "unpack", unpack_bytes)


# --------------------------------------------------------------------------- version 2: the cards' code

_TOP, _BOTTOM, _MASK = 1 << 24, 1 << 16, 0xFFFFFFFF


class _Encoder:
    """A carry-less range coder (32-bit low and range, bytes out): each symbol narrows [low, low + range) to
    its share ``freq / total`` of it, so a symbol of probability p costs about -log2 p bits."""

    def __init__(self) -> None:
        self.low, self.range, self.out = 0, _MASK, bytearray()

    def put(self, cum: int, freq: int, total: int) -> None:
        """Code the symbol whose share of ``total`` is [cum, cum + freq)."""
        step = self.range // total
        self.low = (self.low + cum * step) & _MASK
        self.range = step * freq
        while True:
            if (self.low ^ ((self.low + self.range) & _MASK)) >= _TOP:
                if self.range >= _BOTTOM:
                    return
                self.range = -self.low & (_BOTTOM - 1)  # give up the rest of the range: no carry ever
            self.out.append(self.low >> 24)
            self.low = (self.low << 8) & _MASK
            self.range = (self.range << 8) & _MASK

    def finish(self) -> bytes:
        """The code: the bytes out, then the fewest leading bytes of a number in [low, low + range) (the
        decoder reads zeros past the end, so trailing zero bytes are dropped too)."""
        for count in range(5):
            unit = 1 << (32 - 8 * count)
            value = -(-self.low // unit) * unit
            if value < self.low + self.range:
                self.out += (value >> 32 - 8 * count).to_bytes(count, "big") if count else b""
                break
        return bytes(self.out).rstrip(b"\0")


class _Decoder:
    """``_Encoder``'s inverse over a code: ``target`` then ``take`` for each symbol."""

    def __init__(self, code: bytes) -> None:
        self.data, self.at, self.low, self.range, self.step = code, 4, 0, _MASK, 1
        self.code = int.from_bytes(code[:4].ljust(4, b"\0"), "big")

    def target(self, total: int) -> int:
        """Where the next symbol lies in [0, total)."""
        self.step = self.range // total
        value = ((self.code - self.low) & _MASK) // self.step
        if value >= total:
            raise ValueError("record_packed: a damaged version-2 code")
        return value

    def take(self, cum: int, freq: int) -> None:
        """Step over the symbol ``target`` fell in: [cum, cum + freq)."""
        self.low = (self.low + cum * self.step) & _MASK
        self.range = self.step * freq
        while True:
            if (self.low ^ ((self.low + self.range) & _MASK)) >= _TOP:
                if self.range >= _BOTTOM:
                    return
                self.range = -self.low & (_BOTTOM - 1)
            byte = self.data[self.at] if self.at < len(self.data) else 0
            self.at += 1
            self.code = ((self.code << 8) | byte) & _MASK
            self.low = (self.low << 8) & _MASK
            self.range = (self.range << 8) & _MASK


class _Weights:
    """The weights of a player's possible cards in a trick, by the cards played before (``LEGAL_WEIGHT``)."""

    def __init__(self, hand: int, before: list[int]) -> None:
        legal = hand
        if before:
            legal = (hand & SUIT_OF_CARD_MASK[before[0]]) or (hand & TAROK_MASK) or hand
        self.hand, self.legal = hand, legal
        self.total = (LEGAL_WEIGHT - 1) * legal.bit_count() + hand.bit_count() + 1

    def share(self, card: int) -> tuple[int, int]:
        """(cum, freq) of a card of the hand."""
        below = (1 << card) - 1
        cum = (LEGAL_WEIGHT - 1) * (self.legal & below).bit_count() + (self.hand & below).bit_count()
        return cum, LEGAL_WEIGHT if self.legal >> card & 1 else 1

    def card_at(self, target: int) -> int:
        """The card of the hand whose share holds ``target``; -1: the share of any other card (the last)."""
        hand, cum = self.hand, 0
        while hand:
            card = (hand & -hand).bit_length() - 1
            cum += LEGAL_WEIGHT if self.legal >> card & 1 else 1
            if target < cum:
                return card
            hand &= hand - 1
        return -1


def _best(trick: list[int]) -> int:
    """The place of the card that takes a trick so far: the highest tarok, else the highest of the led
    suit."""
    best = 0
    for k in range(1, len(trick)):
        card, top = trick[k], trick[best]
        if (SUIT_OF_CARD_MASK[top] >> card & 1 and card > top) or (
                TAROK_MASK >> card & 1 and not TAROK_MASK >> top & 1):
            best = k
    return best


def _put_seat(out: _Encoder, seat: int, likely: int, players: int) -> None:
    if likely < 0:
        _put_uniform(out, seat, players)
    else:
        out.put(seat + (WINNER_WEIGHT - 1 if seat > likely else 0), WINNER_WEIGHT if seat == likely else 1,
                players + WINNER_WEIGHT - 1)


def _get_seat(code: _Decoder, likely: int, players: int) -> int:
    if likely < 0:
        return _get_uniform(code, players)
    target = code.target(players + WINNER_WEIGHT - 1)
    if target < likely:
        seat = target
    else:
        seat = likely if target < likely + WINNER_WEIGHT else target - WINNER_WEIGHT + 1
    code.take(seat + (WINNER_WEIGHT - 1 if seat > likely else 0), WINNER_WEIGHT if seat == likely else 1)
    return seat


def _shape(lengths: list[int]) -> tuple[int, int, int] | None:
    """(players, hand size, talon size) when the runs open with a deal: equally long hands, then a talon
    that with them makes the deck; None otherwise."""
    if not lengths:
        return None
    size, players = lengths[0], 1
    while players < len(lengths) and lengths[players] == size:
        players += 1
    if players < 2 or players == len(lengths) or players * size + lengths[players] != len(CODES):
        return None
    return players, size, lengths[players]


def _code_cards(runs: list[list[int]], out: _Encoder) -> bool:
    """Code the runs' cards into ``out`` by the deal model (the module's docstring); False where it does
    not hold."""
    shape = _shape([len(run) for run in runs])
    if shape is None:
        return False
    players, size, talon_size = shape
    owner = [-1] * len(CODES)
    for seat in range(players + 1):
        previous = -1
        for card in runs[seat]:
            if owner[card] >= 0 or (seat < players and card <= previous):
                return False  # a card twice, or a hand out of order
            owner[card], previous = seat, card
    caps = [size] * players + [talon_size]
    for card, seat in enumerate(owner):  # each card's owner: a multinomial, of the owners' cards left
        if caps[seat] < sum(caps):
            out.put(sum(caps[:seat]), caps[seat], sum(caps))
        caps[seat] -= 1
    talon = runs[players]
    left = sorted(talon)
    for card in talon:  # the talon's order
        at = left.index(card)
        _put_uniform(out, at, len(left))
        left.pop(at)
    hands = [sum(1 << card for card in run) for run in runs[:players]]
    winner, picked = -1, _Picked(talon)  # the seat that won the last trick, while the runs are tricks
    for run in runs[players + 1:]:
        if len(run) != players:
            for card in run:
                _put_loose(out, card, talon)
            picked.after(run, hands)
            winner = -1
            continue
        picked.after_trick()
        leader = next((seat for seat in range(players) if hands[seat] >> run[0] & 1), 0)
        _put_seat(out, leader, winner, players)
        for k, card in enumerate(run):
            seat = (leader + k) % players
            hand = hands[seat]
            weights = _Weights(hand, run[:k])
            if hand >> card & 1:
                cum, freq = weights.share(card)
                out.put(cum, freq, weights.total)
                hands[seat] = hand & ~(1 << card)
            else:
                out.put(weights.total - 1, 1, weights.total)
                _put_loose(out, card, talon)
                _played(card, hands)
        winner = (leader + _best(run)) % players
    return True


def _put_uniform(out: _Encoder, value: int, total: int) -> None:
    if total > 1:
        out.put(value, 1, total)


def _put_loose(out: _Encoder, card: int, talon: list[int]) -> None:
    """A card not from its player's hand: a talon card by its place in the talon, else by its number."""
    _put_uniform(out, talon.index(card) if card in talon else len(talon), len(talon) + 1)
    if card not in talon:
        out.put(card, 1, len(CODES))


def _played(card: int, hands: list[int]) -> None:
    """A card played from elsewhere than its player's hand leaves the hand that held it."""
    for seat, hand in enumerate(hands):
        hands[seat] = hand & ~(1 << card)


class _Picked:
    """The talon exchange, seen in the runs between the deal and the tricks: a run of talon cards is a pick
    (``talon_pick``); the run right after a pick is the stash, whose first card held names the declarer, who
    then holds the picked cards not stashed.  So the declarer's picked cards code as his own in the tricks.
    A run of other cards (``called_king``) changes no hand."""

    def __init__(self, talon: list[int]) -> None:
        self.talon = sum(1 << card for card in talon)
        self.cards, self.after_pick = 0, False

    def after(self, run: list[int], hands: list[int]) -> None:
        """Take in a run that is not a trick, once its cards are known."""
        if self.after_pick:
            declarer = next((seat for card in run for seat, hand in enumerate(hands) if hand >> card & 1), -1)
            for card in run:
                _played(card, hands)
                self.cards &= ~(1 << card)
            if declarer >= 0:
                hands[declarer] |= self.cards
                self.cards = 0
        mask = sum(1 << card for card in run)
        self.after_pick = mask & self.talon == mask
        if self.after_pick:
            self.cards |= mask

    def after_trick(self) -> None:
        self.after_pick = False


def _decode_cards(lengths: list[int], code: _Decoder) -> list[list[int]]:
    """The runs ``_code_cards`` coded, given their lengths."""
    shape = _shape(lengths)
    if shape is None:
        raise ValueError("record_packed: a version-2 skeleton that opens with no deal")
    players, size, talon_size = shape
    runs: list[list[int]] = [[] for _ in range(players + 1)]
    caps = [size] * players + [talon_size]
    for card in range(len(CODES)):
        total = sum(caps)
        seat = next(seat for seat, cap in enumerate(caps) if cap)
        if caps[seat] < total:
            target, seat, cum = code.target(total), 0, 0
            while target >= cum + caps[seat]:
                cum += caps[seat]
                seat += 1
            code.take(cum, caps[seat])
        runs[seat].append(card)
        caps[seat] -= 1
    left, talon = runs[players], []
    for _ in range(talon_size):
        talon.append(left.pop(_get_uniform(code, len(left))))
    runs[players] = talon
    hands = [sum(1 << card for card in run) for run in runs[:players]]
    winner, picked = -1, _Picked(talon)
    for length in lengths[players + 1:]:
        if length != players:
            runs.append([_get_loose(code, talon) for _ in range(length)])
            picked.after(runs[-1], hands)
            winner = -1
            continue
        picked.after_trick()
        leader = _get_seat(code, winner, players)
        run: list[int] = []
        for k in range(players):
            seat = (leader + k) % players
            hand = hands[seat]
            weights = _Weights(hand, run)
            target = code.target(weights.total)
            card = weights.card_at(target)
            if card >= 0:
                code.take(*weights.share(card))
                hands[seat] = hand & ~(1 << card)
            else:
                code.take(weights.total - 1, 1)
                card = _get_loose(code, talon)
                _played(card, hands)
            run.append(card)
        runs.append(run)
        winner = (leader + _best(run)) % players
    return runs


def _get_uniform(code: _Decoder, total: int) -> int:
    if total == 1:
        return 0
    value = code.target(total)
    code.take(value, 1)
    return value


def _get_loose(code: _Decoder, talon: list[int]) -> int:
    at = _get_uniform(code, len(talon) + 1)
    return talon[at] if at < len(talon) else _get_uniform(code, len(CODES))


def _nth_card(hand: int, n: int) -> int:
    """The ``n``-th card (from 0, lowest first) of a hand's bitmask."""
    for _ in range(n):
        hand &= hand - 1
    return (hand & -hand).bit_length() - 1
