"""A large synthetic store, written directly as Parquet shards in the store layout (no replay).

Ingesting a million records takes a while; timing queries needs only tables
of the right shape and realistic value distributions.  This module makes
them: sessions of 20–60 deals at 4-player (85 %) and 3-player tables from a
pool of players, seats rotating with the dealer, a contract mix like club
play (Tri and Dva most often, Klop and Berač regularly, valats rarely),
declarer card points around the 36 threshold, called kings (own king and
king in the talon follow from the shuffled hands), announcements and
kontras at plausible rates, radelci carried through each session, 5 %
renons and 2 % error deals, disputed scores in about 1 % of deals, and real
shuffled hands with 12 (16) tricks of 4 (3) cards won by the strongest card.
The numbers are plausible, not the rules' exact consequences (no legal-play
check, no scoring engine): a real ingested store is what checks answers.

Shards are published with ``ingest.writer.publish_shard`` (one per
``shard_size`` deals, like ingest's shards) and ``CURRENT`` names the
generation, so ``ingest.store.open_store`` reads the result like any store.
The bulky tables (tricks, plays) are built column-wise with numpy; the
per-deal tables row by row.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pyarrow as pa

from ingest.layout import StoreLayout
from ingest.packed_record import pack
from ingest.rows import source_pos
from ingest.schema import DEAL_ONLY_KEY, SHARD_TABLES, file_schema
from ingest.writer import publish_shard, write_atomic
from tarock.cards import CARD_POINTS, CODES
from tarock.rules.rulesets import ALL_COMPONENTS as COMPONENTS
from tarock.rules.slovenian.scoring import BONUS_VALUES, CONTRACT_VALUES

GENERATION = "gen-synthetic"
SEATS = {3: ("forehand", "second", "dealer"), 4: ("forehand", "second", "third", "dealer")}
CONTRACT_MIX = {
    4: {"klop": 7, "tri": 28, "dva": 24, "ena": 10, "solo_tri": 6, "solo_dva": 4, "solo_ena": 2,
        "berac": 11, "solo_brez": 3, "odprti_berac": 3, "barvni_valat": 1, "valat": 1},
    3: {"klop": 10, "tri": 34, "dva": 25, "ena": 12, "berac": 12, "solo_brez": 3, "odprti_berac": 2,
        "barvni_valat": 1, "valat": 1},
}
NORMAL = ("tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena")
KING_CALLS = ("tri", "dva", "ena")
WIN_RATE = {"berac": 0.55, "solo_brez": 0.6, "odprti_berac": 0.45, "barvni_valat": 0.7, "valat": 0.75}
KINGS = ("HK", "DK", "SK", "CK")
RENONS_CODES = ("R_FOLLOW_SUIT", "R_MUST_TAROK", "R_PAGAT", "R_MUST_OVERTRUMP", "R_OUT_OF_TURN", "R_STASH")
RENONS_WEIGHTS = (0.45, 0.25, 0.05, 0.1, 0.1, 0.05)
ERROR_CODES = ("E_NOT_IN_HAND", "E_SEQUENCE", "E_BID", "E_DECK")
STATUSES = ("ok", "renons", "error")
BONUS_RATES = (("trula", 0.06), ("kings", 0.03), ("pagat_ultimo", 0.04), ("king_ultimo", 0.015),
               ("valat", 0.004), ("mondfang", 0.01))
CARD_INDEX = {code: i for i, code in enumerate(CODES)}
CODE_ARRAY = np.array(CODES, dtype=object)
POINTS = np.array(CARD_POINTS, dtype=np.int32)
SUIT = np.array([0 if c < 22 else 1 + (c - 22) // 8 for c in range(54)], dtype=np.int32)
FIRST_DAY = dt.date(2018, 1, 1)

_KEY = ("deal_id", "content_hash", "source_file", "source_line", "source_pos", "shard")
_COPY_KEY = tuple(k for k in _KEY if k not in DEAL_ONLY_KEY)
"""The key a child table's file repeats from its deal (``ingest.schema.DEAL_ONLY_KEY``: the rest only in deals)."""
COLUMNS: dict[str, tuple[str, ...]] = {
    "deals": ("deal_id", "content_hash", "players", "session", "seq", "date", "dealer", "forehand", "contract",
              "declarer", "partner", "called_king", "status", "won", "declarer_points", "opponents_points",
              "card_points_json", "n_tricks", "n_findings", "n_renons", "has_recorded", "score_mismatch",
              "options_hash", "options_json", "engine_version", "source_file", "source_line", "source_pos", "shard",
              "record"),
    "results": ("deal", "player", "seat", "seat_no", "role", "score", "recorded_score", "score_diff",
                "radelci_before", "radelci_after", "penalty_policy", "won", "breakdown_json", *COMPONENTS),
    "findings": ("deal", "idx", "code", "severity", "trick", "position", "player", "message", "file", "line"),
    "bids": ("deal", "idx", "player", "bid"),
    "announcements": ("deal", "idx", "player", "bonus", "kontra", "level"),
}
"""The columns of the row tuples built per deal (``deal``: the row's deal index in its partition)."""

Announcement = tuple[str, str | None, str | None, int | None]
"""(player, bonus, kontra target, level)."""
Finding = tuple[str, str, int | None, int | None, str, str]
"""(code, severity, trick, position, player, message)."""


def _hex(rng: np.random.Generator, n_bytes: int) -> str:
    return rng.bytes(n_bytes).hex()


@dataclass(frozen=True, slots=True)
class _Seat:
    """One deal's place: its session, position in it, date, players in playing order, source line."""

    session: str
    seq: int
    date: dt.date
    players: list[str]
    line: int


class _Cards:
    """Shuffled hands and talon of every deal of a partition, and the tricks played from them.

    Trick ``t`` takes card ``t`` of each hand, in turn from the leader; the
    strongest card wins (a tarok, else the led suit), and the winner leads next.
    """

    def __init__(self, rng: np.random.Generator, deals: int, n: int) -> None:
        per = 48 // n
        self.per = per
        decks = rng.permuted(np.tile(np.arange(54, dtype=np.int32), (deals, 1)), axis=1)
        self.hands = decks[:, :n * per].reshape(deals, n, per)
        self.talon = decks[:, n * per:]
        self.seats = np.empty((deals, per, n), dtype=np.int32)
        self.cards = np.empty((deals, per, n), dtype=np.int32)
        self.winner = np.empty((deals, per), dtype=np.int32)
        rows = np.arange(deals)[:, None]
        leader = np.zeros(deals, dtype=np.int32)
        for t in range(per):
            order = (leader[:, None] + np.arange(n)) % n
            cards = self.hands[rows, order, t]
            led = SUIT[cards[:, :1]]
            strength = np.where(cards < 22, cards + 200, np.where(SUIT[cards] == led, cards + 100, cards))
            leader = order[np.arange(deals), np.argmax(strength, axis=1)].astype(np.int32)
            self.seats[:, t], self.cards[:, t], self.winner[:, t] = order, cards, leader

    def holder(self, d: int, card: int) -> int | None:
        """The seat dealt ``card`` in deal ``d``, None when it lies in the talon."""
        seats = np.nonzero((self.hands[d] == card).any(axis=1))[0]
        return int(seats[0]) if len(seats) else None


class _Partition:
    """The rows of one partition (``n`` players) of a shard."""

    def __init__(self, rng: np.random.Generator, n: int, seats: list[_Seat], file: str, shard: str) -> None:
        self.rng, self.n, self.seats, self.file, self.shard = rng, n, seats, file, shard
        self.rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in COLUMNS}
        size = len(seats)
        self.cards = _Cards(rng, size, n)
        mix = CONTRACT_MIX[n]
        weights = np.array(list(mix.values()), dtype=float)
        self.contracts = np.array(list(mix))[rng.choice(len(mix), size=size, p=weights / weights.sum())]
        self.statuses = np.array(STATUSES)[rng.choice(3, size=size, p=[0.93, 0.05, 0.02])]
        self.declarer_seat = rng.integers(0, n, size=size)
        self.uniform = rng.random((size, 16))
        self.normal = rng.normal(0, 9, size=size)
        self.radelci: dict[str, dict[str, int]] = {}

    def build(self) -> dict[str, pa.Table]:
        for d, seat in enumerate(self.seats):
            self._deal(d, seat)
        keys = pa.table({name: pa.array([row[COLUMNS["deals"].index(name)] for row in self.rows["deals"]],
                                        file_schema("deals").field(name).type) for name in _KEY})
        out = {"deals": self._table("deals", self.rows["deals"], None)}
        for name in ("results", "findings", "bids", "announcements"):
            out[name] = self._table(name, self.rows[name], keys)
        out.update(self._tricks_and_plays(keys))
        return out

    @staticmethod
    def _table(name: str, rows: list[tuple[Any, ...]], keys: pa.Table | None) -> pa.Table:
        """Row tuples (``COLUMNS`` order) as the table's file schema; the deal key taken from ``keys``."""
        schema = file_schema(name)
        filled: dict[str, Any] = dict(zip(COLUMNS[name], zip(*rows))) if rows else {}
        if keys is not None:
            take = pa.array(filled.pop("deal", []), pa.int32())
            filled.update({k: keys[k].take(take) for k in _COPY_KEY})
        if "record" in filled:  # stored packed, as ingest stores it (ingest.schema.PACKED_COLUMNS)
            filled["record_packed"] = pack(pa.array(list(filled.pop("record")), pa.string()))
        arrays = [filled[f.name] if isinstance(filled.get(f.name), (pa.Array, pa.ChunkedArray))
                  else pa.array(filled.get(f.name, [None] * len(rows)), f.type) for f in schema]
        return pa.Table.from_arrays(arrays, schema=schema)

    def _tricks_and_plays(self, keys: pa.Table) -> dict[str, pa.Table]:
        c, n = self.cards, self.n
        deals = len(self.seats)
        names = np.array([s.players for s in self.seats], dtype=object).reshape(deals, n)
        rows = np.arange(deals)[:, None]
        trick_deal = np.repeat(np.arange(deals, dtype=np.int32), c.per)
        flat_cards = CODE_ARRAY[c.cards.reshape(-1)]
        flat_players = names[np.repeat(np.arange(deals), c.per * n), c.seats.reshape(-1)]
        offsets = pa.array(np.arange(0, deals * c.per * n + 1, n, dtype=np.int32))
        tricks = {
            **{k: keys[k].take(pa.array(trick_deal)) for k in _COPY_KEY},
            "trick_no": pa.array(np.tile(np.arange(1, c.per + 1, dtype=np.int32), deals)),
            "leader": pa.array(names[rows, c.seats[:, :, 0]].reshape(-1), pa.string()),
            "winner": pa.array(names[rows, c.winner].reshape(-1), pa.string()),
            "cards": pa.ListArray.from_arrays(offsets, pa.array(flat_cards, pa.string())),
            "players": pa.ListArray.from_arrays(offsets, pa.array(flat_players, pa.string())),
            "points": pa.array(POINTS[c.cards].sum(axis=2).reshape(-1)),
        }
        illegal = {(f[0], f[4], f[5]): f[2] for f in self.rows["findings"]
                   if f[3] in ("renons", "error") and f[4] is not None}
        legal = np.ones(deals * c.per * n, dtype=bool)
        codes = np.full(deals * c.per * n, None, dtype=object)
        for (d, trick, pos), code in illegal.items():
            at = (d * c.per + trick - 1) * n + pos
            legal[at], codes[at] = False, code
        plays = {
            **{k: keys[k].take(pa.array(np.repeat(trick_deal, n))) for k in _COPY_KEY},
            "trick_no": pa.array(np.repeat(tricks["trick_no"].to_numpy(), n)),
            "position": pa.array(np.tile(np.arange(n, dtype=np.int32), deals * c.per)),
            "player": pa.array(flat_players, pa.string()),
            "card": pa.array(flat_cards, pa.string()),
            "legal": pa.array(legal),
            "code": pa.array(codes, pa.string()),
        }
        return {name: pa.Table.from_arrays([cols[f.name] for f in file_schema(name)], schema=file_schema(name))
                for name, cols in (("tricks", tricks), ("plays", plays))}

    def _deal(self, d: int, seat: _Seat) -> None:
        rng, n, u = self.rng, self.n, self.uniform[d]
        players = seat.players
        contract, status = str(self.contracts[d]), str(self.statuses[d])
        klop = contract == "klop"
        declarer = None if klop else players[0] if contract == "tri" else players[int(self.declarer_seat[d])]
        called_king = partner = None
        if n == 4 and contract in KING_CALLS:
            called_king = KINGS[int(u[0] * 4)]
            holder = self.cards.holder(d, CARD_INDEX[called_king])
            if holder is not None and players[holder] != declarer:
                partner = players[holder]
        side = {p for p in (declarer, partner) if p is not None}
        points: int | None = None
        won: bool | None = None
        if not klop:
            if contract in NORMAL or contract == "solo_brez":
                mean = 39 - 2 * NORMAL.index(contract) if contract in NORMAL else 33
                points = int(np.clip(round(mean + self.normal[d]), 0, 70))
                won = points >= 36
            else:
                points = int(u[1] * 71)
                won = bool(u[2] < WIN_RATE[contract])
        if status == "error":
            won = None
        announcements = self._announcements(contract, players, declarer, side)
        findings = self._findings(status, players)
        ledger = self.radelci.setdefault(seat.session, dict.fromkeys(players, 0))
        scores, lines = self._scores(contract, players, declarer, side, won, points, ledger, status, announcements)
        recorded = bool(u[3] < 0.3) and scores is not None
        disputed = players[int(u[4] * n)] if recorded and u[5] < 0.04 else None
        if disputed is not None:
            assert scores is not None
            message = (f"recorded {scores[disputed] + 10:+d} for {disputed}, recomputed {scores[disputed]:+d}: "
                       "the difference is rounded the other way")
            findings.append(("A_SCORE_MISMATCH", "audit", None, None, disputed, message))
        before = dict(ledger)
        if scores is not None:
            _update_radelci(contract, declarer, won, ledger)
        deal_id, content_hash = _hex(rng, 8), _hex(rng, 32)
        for idx, f in enumerate(findings):
            self.rows["findings"].append((d, idx, *f, self.file, seat.line))
        for idx, (who, bid) in enumerate(_bids(players, contract, declarer)):
            self.rows["bids"].append((d, idx, who, bid))
        for idx, a in enumerate(announcements):
            self.rows["announcements"].append((d, idx, *a))
        for seat_no, p in enumerate(players):
            role = "klop" if klop else "declarer" if p == declarer else "partner" if p in side else "opponent"
            score = None if scores is None else scores[p]
            rec = None if not recorded or score is None else score + (10 if p == disputed else 0)
            diff = None if rec is None or score is None else rec - score
            pwon = None if won is None or klop else (won if role != "opponent" else not won)
            comps = [None] * len(COMPONENTS) if scores is None else [lines[p].get(c, 0) for c in COMPONENTS]
            breakdown = None if scores is None else orjson.dumps([
                {"players": [p], "component": c, "detail": f"{c}: {v:+d}", "value": v}
                for c, v in lines[p].items() if v]).decode()
            self.rows["results"].append((
                d, p, SEATS[n][seat_no], seat_no, role, score, rec, diff,
                None if scores is None else before[p], None if scores is None else ledger[p],
                "slovenian_renons", pwon, breakdown, *comps))
        self.rows["deals"].append((
            deal_id, content_hash, players, seat.session, seat.seq, seat.date, players[-1], players[0], contract,
            declarer, partner, called_king, status, won, points, None if points is None else 70 - points,
            None if points is None else orjson.dumps({"declarer_side": points, "opponents": 70 - points}).decode(),
            self.cards.per, len(findings), sum(f[1] == "renons" for f in findings), recorded, disputed is not None,
            "0f3c", "{}", "synthetic", self.file, seat.line, source_pos(seat.line, 0), self.shard,
            self._record(d, seat, deal_id, contract, declarer, called_king, announcements)))

    def _record(self, d: int, seat: _Seat, deal_id: str, contract: str, declarer: str | None,
                called_king: str | None, announcements: list[Announcement]) -> str:
        """The canonical record text (hands, talon, tricks as played)."""
        c = self.cards
        record: dict[str, Any] = {
            "format": "tarock-record/1", "id": deal_id, "session": seat.session, "seq": seat.seq,
            "date": seat.date.isoformat(), "ruleset": "slovenian", "players": seat.players,
            "hands": {p: [CODES[x] for x in c.hands[d, i]] for i, p in enumerate(seat.players)},
            "talon": [CODES[x] for x in c.talon[d]], "contract": contract, "declarer": declarer,
            "called_king": called_king,
            "announcements": [{"player": a[0], "bonus": a[1]} if a[1] else {"player": a[0], "kontra": a[2],
                                                                           "level": a[3]} for a in announcements],
            "tricks": [[CODES[x] for x in trick] for trick in c.cards[d]],
        }
        return orjson.dumps({k: v for k, v in record.items() if v is not None and v != []},
                            option=orjson.OPT_SORT_KEYS).decode()

    def _announcements(self, contract: str, players: list[str], declarer: str | None,
                       side: set[str]) -> list[Announcement]:
        rng = self.rng
        if contract not in NORMAL or declarer is None:
            return []
        out: list[Announcement] = []
        opponents = [p for p in players if p not in side]
        draws = rng.random(len(BONUS_RATES) + 4)
        for i, (bonus, p) in enumerate(BONUS_RATES):
            if draws[i] < p:
                who = opponents[0] if bonus == "mondfang" or draws[-1] < 0.2 else declarer
                out.append((who, bonus, None, None))
                if bonus == "pagat_ultimo" and draws[-2] < 0.25:
                    against = opponents if who in side else sorted(side)
                    out.append((against[0], None, bonus, 2))
        if draws[-3] < 0.06:
            out.append((opponents[-1], None, "game", 2))
            if draws[-4] < 0.25:
                out.append((declarer, None, "game", 4))
        return out

    def _findings(self, status: str, players: list[str]) -> list[Finding]:
        rng, n = self.rng, self.n
        out: list[Finding] = []
        if status == "renons":
            for _ in range(1 + int(rng.random() < 0.15)):
                code = RENONS_CODES[int(rng.choice(len(RENONS_CODES), p=RENONS_WEIGHTS))]
                who = players[int(rng.integers(0, n))]
                trick = None if code == "R_STASH" else int(rng.integers(1, 48 // n + 1))
                position = None if trick is None else int(rng.integers(1, n))
                out.append((code, "renons", trick, position, who, f"{who} broke a rule ({code})"))
        elif status == "error":
            code = ERROR_CODES[int(rng.integers(0, len(ERROR_CODES)))]
            out.append((code, "error", None, None, players[0], f"the record has an error ({code})"))
        if rng.random() < 0.005:
            out.append(("W_MISDEAL", "warning", None, None, players[1], f"{players[1]} was dealt no tarok"))
        return out

    def _scores(self, contract: str, players: list[str], declarer: str | None, side: set[str], won: bool | None,
                points: int | None, radelci: dict[str, int], status: str, announcements: list[Announcement],
                ) -> tuple[dict[str, int] | None, dict[str, dict[str, int]]]:
        """Scores and component lines per player (the playing side writes, as on the sheet)."""
        rng = self.rng
        if status == "error":
            return None, {}
        lines: dict[str, dict[str, int]] = {p: {} for p in players}
        if contract == "klop":
            piles = rng.multinomial(70, np.ones(len(players)) / len(players))
            for p, pts in zip(players, piles):
                lines[p]["klop"] = 70 if pts == 0 else -70 if pts > 35 else -int(pts)
        else:
            assert declarer is not None and won is not None
            kontra = max([a[3] or 1 for a in announcements if a[2] == "game"], default=1)
            line = {"game": (1 if won else -1) * CONTRACT_VALUES[contract] * kontra}
            if contract in NORMAL and points is not None:
                line["difference"] = 5 * ((points - 35 + 2) // 5) * kontra
                announced = {a[1]: a[0] for a in announcements if a[1]}
                draws = rng.random(8)
                for i, bonus in enumerate(("trula", "kings", "pagat_ultimo", "king_ultimo")):
                    silent, loud = BONUS_VALUES[bonus]
                    if bonus in announced:
                        sign = 1 if announced[bonus] in side else -1
                        line[bonus] = sign * loud * (1 if draws[i] < 0.7 else -1)
                    elif draws[i + 4] < 0.05:
                        line[bonus] = silent * (1 if draws[i] < 0.6 else -1)
            if radelci[declarer] > 0:
                line["radelc"] = sum(line.values())
            for p in side:
                lines[p].update(line)
            if contract in NORMAL and rng.random() < 0.01:
                lines[players[int(rng.integers(0, len(players)))]]["mondfang"] = -21
        if status == "renons":
            lines[players[int(rng.integers(0, len(players)))]]["penalty"] = -max(CONTRACT_VALUES[contract], 70)
        return {p: sum(c.values()) for p, c in lines.items()}, lines


def _bids(players: list[str], contract: str, declarer: str | None) -> list[tuple[str, str]]:
    bids = [(p, "pass") for p in players[1:] if p != declarer]
    if declarer is not None:
        bids.append((declarer, contract))
    return bids


def _update_radelci(contract: str, declarer: str | None, won: bool | None, radelci: dict[str, int]) -> None:
    """A won hand cancels one of the declarer's radelci; Klop and Berač or higher give everyone one."""
    if declarer is not None and won and radelci[declarer] > 0:
        radelci[declarer] -= 1
    if contract == "klop" or CONTRACT_VALUES[contract] >= CONTRACT_VALUES["berac"]:
        for p in radelci:
            radelci[p] += 1


def make_shard(index: int, size: int, pool: list[str], seed: int) -> tuple[str, str, dict[str, list[Any]]]:
    """(key, source file, tables split by partition as ``publish_shard`` takes them) of one shard."""
    rng = np.random.default_rng([seed, index])
    key = hashlib.sha256(f"synthetic-{seed}-{index}".encode()).hexdigest()[:24]
    file = f"records/club-{index % 7}/log-{index:04d}.jsonl"
    by_n: dict[int, list[_Seat]] = {3: [], 4: []}
    line = 0
    while line < size:
        n = 4 if rng.random() < 0.85 else 3
        seating = [str(p) for p in rng.choice(pool, size=n, replace=False)]
        session = f"s-{index:04d}-{_hex(rng, 4)}"
        date = FIRST_DAY + dt.timedelta(days=int(rng.integers(0, 365 * 8)))
        for seq in range(1, min(int(rng.integers(20, 61)), size - line) + 1):
            line += 1
            shift = (seq - 1) % n
            by_n[n].append(_Seat(session, seq, date, seating[shift:] + seating[:shift], line))
    tables: dict[str, list[Any]] = {name: [] for name in SHARD_TABLES}
    for n, seats in by_n.items():
        if seats:
            for name, table in _Partition(rng, n, seats, file, key).build().items():
                tables[name].append(({"ruleset": "slovenian", "n_players": n}, table))
    tables["rejects"].append(({}, file_schema("rejects").empty_table()))
    return key, file, tables


def _publish(store_dir: str, index: int, size: int, n_pool: int, seed: int) -> None:
    """Make one shard and publish it (the unit of work of ``build_store``'s processes)."""
    pool = [f"player-{i:04d}" for i in range(n_pool)]
    key, file, tables = make_shard(index, size, pool, seed)
    publish_shard(StoreLayout.at(store_dir), GENERATION, key, tables,
                  {"path": file, "counts": {"read": size, "stored": size}})


def build_store(store_dir: str | Path, deals: int, shard_size: int = 20_000, seed: int = 7,
                n_pool: int = 2_000, workers: int = 1, progress: bool = False) -> Path:
    """Write a synthetic store of ``deals`` deals into ``store_dir`` (``workers`` processes); returns it."""
    layout = StoreLayout.at(store_dir)
    shards = (deals + shard_size - 1) // shard_size
    sizes = [min(shard_size, deals - index * shard_size) for index in range(shards)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        jobs = [pool.submit(_publish, str(store_dir), index, size, n_pool, seed) for index, size in enumerate(sizes)]
        for done, job in enumerate(as_completed(jobs), 1):
            job.result()
            if progress:
                print(f"  shard {done}/{shards} written", flush=True)
    body = f"{GENERATION}\n".encode()
    write_atomic(layout.current_file, lambda fh: fh.write(body))
    return layout.root
