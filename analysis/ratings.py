"""Player ratings with their uncertainty: the derived ``ratings`` table, kept up to date, and read back.

Each rated deal is one match (docs/analysis.md, Ratings), rated with
OpenSkill's Plackett-Luce model on side means, made zero-sum
(``analysis/rating_update.py``), in its own
pool per ruleset and number of players (a Königrufen rating says nothing
about Slovenian three-handed play):

* a deal with a declarer: the players are split by side (declarer and
  partner against the opponents) and by their own ``results.won``; the
  winners rank first, the losers second (Königrufen's several declarers of
  one negative game each stand with those of the same result);
* Klop and Trischaken (no declarer): each player is a team of one, ranked
  by their own score (equal scores share a place);
* not rated: deals in error, deals without a result (annulled, no score)
  and deals whose players all share one result.

Deals are taken in the order ``date`` (deals without a date last),
``session``, ``seq`` (missing last), ``deal_id``, ``content_hash`` — a
stable order for any store.  Every player of a rated deal gets a row: the
rating after that deal, ``games`` (their rated deals in the pool so far),
and the dealt hand's ``taroks`` and ``kings`` (from the ``hands`` table;
null when the record has no hands), the luck beside the skill.

**Incremental.**  The table's file keeps, in its Parquet metadata, each
pool's state after its last deal (``PoolState``: how many deals of the pool
were taken, the last one's content hash, and every player's μ, σ and games
at full precision; the table's own ``mu`` and ``sigma`` are rounded to
float32 for the pages).  ``update`` rates only what is new: a pool whose
taken deals still come first in the rating order continues from its state
with the deals after them; a pool where a new deal sorts among the taken ones
(an older date) is rated again from its start; other pools are left as they
are.  Rating deals in order from a state is what ``rebuild`` does from the
start, so ``update`` after every ingest gives the same table as ``rebuild``
(``tests/analysis/test_ratings_incremental.py``).

Both write the table as one Parquet file of the current generation
(``StoreLayout.derived_path``), replaced whole, under the store's lock; the
CLI runs ``update`` after every ``tarock ingest`` and ``rebuild`` as
``tarock ratings rebuild``.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from math import exp, sqrt
from pathlib import Path
from collections.abc import Callable
from typing import Any, cast

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from analysis.filters import NO_FILTERS, Filters, partition_where
from analysis.rating_update import BETA, KAPPA, MU, SIGMA, TAU, Z, rate
from analysis.sql import TRUE, Fragment, param, run
from analysis.store import Store
from ingest.layout import StoreLayout
from ingest.schema import RATINGS
from ingest.store import open_store

_ORDER = """
CREATE TEMP TABLE rating_order AS
SELECT shard, source_file, source_pos, deal_id, content_hash, ruleset, n_players, date, contract,
       row_number() OVER (PARTITION BY ruleset, n_players
                          ORDER BY date NULLS LAST, session NULLS LAST, seq NULLS LAST, deal_id, content_hash) AS g
FROM deals WHERE status <> 'error'
"""
"""Every deal not in error numbered ``g`` (from 1) in its pool's rating order: a temp table the next
queries share."""

_POOLS = """
SELECT ruleset, n_players, max(g) AS seen, arg_max(content_hash, g) AS last, list(DISTINCT shard) AS shards
FROM rating_order GROUP BY ALL
"""
"""Each pool's deals in order so far: how many, the last one's content hash, and the shards holding them (its
next ``PoolState``)."""

_TAKEN = """
SELECT o.ruleset, o.n_players, o.content_hash
FROM rating_order o JOIN (SELECT unnest($rulesets) AS ruleset, unnest($players) AS n_players,
                                 unnest($seen) AS seen) s USING (ruleset, n_players)
WHERE o.g = s.seen
"""
"""The deal now at each stored pool's last taken place: the stored one when no new deal sorts before it."""

_MATCHES = """
WITH files AS (SELECT shard, source_file, row_number() OVER (ORDER BY shard, source_file) AS file_no
               FROM (SELECT DISTINCT shard, source_file FROM rating_order)),
o AS (SELECT o.ruleset, o.n_players, o.g, o.deal_id, o.date, o.contract, o.source_pos, f.file_no
      FROM rating_order o JOIN files f USING (shard, source_file)
      JOIN (SELECT unnest($rulesets) AS ruleset, unnest($players) AS n_players, unnest($after) AS after) s
        USING (ruleset, n_players)
      WHERE o.g > s.after),
r AS (SELECT f.file_no, r.source_pos, r.seat_no, r.player, r.role, r.won, r.score
      FROM stored.results r JOIN files f USING (shard, source_file)),
h AS (SELECT f.file_no, h.source_pos, h.seat_no, h.taroks, h.kings
      FROM stored.hands h JOIN files f USING (shard, source_file))
SELECT o.ruleset, o.n_players, o.g, o.deal_id, o.date, o.contract, r.player, r.role, r.won, r.score,
       CAST(h.taroks AS TINYINT) AS taroks, CAST(h.kings AS TINYINT) AS kings
FROM o JOIN r ON r.file_no = o.file_no AND r.source_pos = o.source_pos
LEFT JOIN h ON h.file_no = r.file_no AND h.source_pos = r.source_pos AND h.seat_no = r.seat_no
ORDER BY o.ruleset, o.n_players, o.g, r.seat_no
"""
"""Every player of every deal of the given pools after place ``after``, in rating order, a deal's players
together in seat order, with their dealt hand's taroks and kings (``hands``: one row per seat of a deal
whose record gives the hands).  A row's deal is found by its file's number (``files``: one per shard and
source file of the rated deals) and line: the two big joins compare integers, not the shard's and file's
names (the query's CPU time 0.93-1.06 s -> 0.77-0.85 s on 200,000 deals)."""

STATE_KEY = b"tarock.ratings.state"
"""The Parquet metadata key of the ratings file holding every pool's ``PoolState`` (JSON)."""

MODEL_KEY, MODEL = b"tarock.ratings.model", b"2"
"""The Parquet metadata key of the rating model's version, and this module's: a file of another version (or
none: the sum model before issue 38) has states of another model, which ``update`` does not continue: it
rates everything again, as ``rebuild``.  Bump it whenever ``analysis/rating_update.py`` changes what it
computes."""

Pool = tuple[str, int]
"""A rating pool: ruleset and players at the table."""


@dataclass(slots=True)
class PoolState:
    """Where a pool's rating stands after its last taken deal.

    ``seen``: the pool's deals (not in error) taken so far in rating order, rated or not; ``last``: the
    content hash of the last of them; ``rated``: the deals rated (the next ``deal_index``); ``players``:
    each player's μ, σ and rated deals, at full precision (the table stores them as float32); ``shards``:
    the shards their rows were read from (sorted).  A shard gone from the store (hidden by a group shard that
    scored its sessions again with a later part, or retired with an edited file) may have taken results
    with it that the ratings were built on, so its pool is rated again.
    """

    seen: int = 0
    last: str = ""
    rated: int = 0
    players: dict[str, tuple[float, float, int]] = field(default_factory=dict)
    shards: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What ``rebuild`` or ``update`` did: deals rated now, rows written now, the pools rated again from
    their start, the file (None: nothing to rate), and the seconds it took."""

    deals: int
    rows: int
    path: Path | None
    seconds: float
    restarted: int = 0


_SIDES = ("declarer", "partner", "opponent")
SKIP, TWO, SIDES, PLACES = 0, 1, 2, 3
"""How a deal is rated: not at all; winners against losers (the two-team closed form); several sides, each
split by result (``rating_update.rate``); or each player alone, placed by score (a Klop; ``rate`` too)."""


_BITS_SET = np.array([bin(i).count("1") for i in range(32)])
"""How many bits each of the five (side, result) groups' masks sets: how many groups a deal's players make."""


def _deal_starts(frame: pl.DataFrame) -> np.ndarray:
    """Where each deal's rows begin in ``frame`` (a deal's rows together, in pool and ``g`` order), and where the
    last one ends."""
    new = (pl.col("g") != pl.col("g").shift()) | (pl.col("ruleset") != pl.col("ruleset").shift()) \
        | (pl.col("n_players") != pl.col("n_players").shift())
    return np.append(np.flatnonzero(frame.select(new.fill_null(True)).to_series().to_numpy()), frame.height)


def _kinds(frame: pl.DataFrame, bounds: np.ndarray) -> np.ndarray:
    """Per deal (its rows from ``bounds``, ``_deal_starts``), how it is rated (see the module docstring).

    A deal with a declarer whose players' results differ is rated by sides: ``TWO`` when its players make two
    (side, result) groups, else ``SIDES``; a Klop whose scores differ by places; any other not at all.  A
    player without a role (none in a deal without a declarer that is no Klop: docs/store.md) passes either
    role test and counts as a side of its own: the deal is then rated as a Klop when its scores differ.
    """
    starts, rows = bounds[:-1], np.diff(bounds)
    role, won, score = frame["role"], frame["won"], frame["score"]
    no_role = role.is_null().to_numpy()

    def every(flags: np.ndarray) -> np.ndarray:
        return np.add.reduceat(flags.astype(np.int64), starts) == rows

    wins = np.add.reduceat(won.fill_null(False).to_numpy().astype(np.int64), starts)
    split = every(role.is_in(_SIDES).fill_null(False).to_numpy() | no_role) & every(won.is_not_null().to_numpy()) \
        & (wins > 0) & (wins < rows)
    side = np.where(no_role, 4, (role == "opponent").fill_null(False).to_numpy() * 2
                    + won.fill_null(False).to_numpy())
    groups = np.bitwise_or.reduceat(np.left_shift(1, side.astype(np.int64)), starts)
    two = _BITS_SET[groups] == 2
    points = score.fill_null(0).to_numpy()
    places = every((role == "klop").fill_null(False).to_numpy() | no_role) & every(score.is_not_null().to_numpy()) \
        & (np.minimum.reduceat(points, starts) != np.maximum.reduceat(points, starts))
    return np.where(split, np.where(two, TWO, SIDES), np.where(places, PLACES, SKIP)).astype(np.int8)


def compute(frame: pl.DataFrame, pools: dict[Pool, PoolState] | None = None, *,
            reference: bool = False) -> pl.DataFrame:
    """The ``ratings`` rows from ``_MATCHES``'s rows (a deal's players consecutive, deals in rating order),
    continuing from ``pools`` (a fresh start where a pool or player is missing), which are brought up to date
    in place (not ``seen``/``last``: the caller's, who knows the deals without results).

    The players' states live in flat arrays indexed by a number per pool and
    player, and the deals are rated one by one by ``_rate_deals`` (or its
    compiled projection ``analysis/_ratings.c``, unless ``reference``).  Only
    μ and σ need the deals in turn: which rows are kept, ``games`` and
    ``deal_index`` are counted column-wise after.
    """
    pools = {} if pools is None else pools
    if frame.is_empty():
        return _rows(frame.clear().with_columns(pl.lit(0, pl.Int32).alias("deal_index"),
                                                pl.lit(0, pl.Int32).alias("games"), pl.lit(0.0).alias("mu"),
                                                pl.lit(0.0).alias("sigma")))
    bounds = _deal_starts(frame)
    kind = _kinds(frame, bounds)
    kinds, ends = kind.tolist(), bounds[1:].tolist()
    who = frame.select("ruleset", "n_players", "player")
    key = who.select(pl.struct(pl.all()).rank("dense").cast(pl.Int64) - 1).to_series()
    known = who.with_columns(key.alias("key")).unique("key").sort("key")
    names: list[tuple[Pool, str]] = [((r, n), p) for r, n, p in
                                     zip(known["ruleset"].to_list(), known["n_players"].to_list(),
                                         known["player"].to_list())]
    for pool, _ in names:
        pools.setdefault(pool, PoolState())
    start = [pools[pool].players.get(player, (MU, SIGMA, 0)) for pool, player in names]
    compiled = None if reference else RATE
    if compiled is None:  # the reference, on plain lists
        rate_deals: Callable[..., None] = _rate_deals
        runs: tuple[Any, ...] = (kinds, ends, key.to_list(), frame["won"].to_list(),
                                 (frame["role"] == "opponent").to_list(), frame["score"].to_list())
        mu: Any = [s[0] for s in start]
        sigma: Any = [s[1] for s in start]
        out_mu: Any = [0.0] * frame.height
        out_sigma: Any = [0.0] * frame.height
    else:  # the accelerator, on arrays
        rate_deals = compiled
        runs = (kind, bounds[1:], key.to_numpy().astype(np.int64),
                frame["won"].fill_null(False).cast(pl.Int8).to_numpy(),
                (frame["role"] == "opponent").fill_null(False).cast(pl.Int8).to_numpy(),
                frame["score"].fill_null(0).cast(pl.Int64).to_numpy())
        mu, sigma = np.array([s[0] for s in start]), np.array([s[1] for s in start])
        out_mu, out_sigma = np.zeros(frame.height), np.zeros(frame.height)
    rate_deals(*runs, mu, sigma, out_mu, out_sigma, TAU * TAU, BETA * BETA, KAPPA)
    rated = np.repeat(kind != SKIP, np.diff(bounds))
    kept = frame.with_columns(key.alias("key"), pl.Series("mu", out_mu, pl.Float64),
                              pl.Series("sigma", out_sigma, pl.Float64))
    if not rated.all():
        kept = kept.filter(pl.Series(rated))
    return _counted(kept, pools, names, [float(x) for x in mu], [float(x) for x in sigma], start)


def _rate_deals(kinds: list[int], ends: list[int], keys: list[int], won: list[bool | None],
                opponent: list[bool | None], score: list[int | None], mu: list[float], sigma: list[float],
                out_mu: list[float], out_sigma: list[float], tau2: float, beta2: float, kappa: float) -> None:
    """Rate the deals in order: ``mu`` and ``sigma`` are the players' states (by key), written in place, and
    ``out_mu``, ``out_sigma`` each row's rating after its deal.  Winners against losers (``TWO``) by
    rating_update's two-team closed form, inline; ``SIDES`` and ``PLACES`` through its ``rate``.

    The reference of ``analysis/_ratings.c``, which does the same operations in the same order.
    """
    s = 0
    for how, e in zip(kinds, ends):
        if how == TWO:
            ks, ws = keys[s:e], won[s:e]
            vs = [sigma[k] * sigma[k] + tau2 for k in ks]
            tw = tl = mw = ml = 0.0
            nw = nl = 0
            for k, w, v in zip(ks, ws, vs):
                if w:
                    tw += v
                    mw += mu[k]
                    nw += 1
                else:
                    tl += v
                    ml += mu[k]
                    nl += 1
            c = sqrt(tw / (nw * nw) + tl / (nl * nl) + 2.0 * beta2)
            p = 1.0 / (1.0 + exp((ml / nl - mw / nw) / c))
            q = 1.0 - p
            # a player's step v·g/(n·c) with g = ±q, and the curvature v·pq·sqrt(V)/(n²·c³), V = t/n²
            gw, gl = q / (nw * c), -q / (nl * c)
            hw = p * q * sqrt(tw / (nw * nw)) / (nw * nw * c * c * c)
            hl = p * q * sqrt(tl / (nl * nl)) / (nl * nl * c * c * c)
            steps = [v * (gw if w else gl) for w, v in zip(ws, vs)]
            shift = sum(steps) / (tw + tl)  # the zero-sum correction, per unit of variance
            for r, k, w, v, d in zip(range(s, e), ks, ws, vs, steps):
                out_mu[r] = mu[k] = mu[k] + (d - v * shift)
                out_sigma[r] = sigma[k] = sqrt(v) * sqrt(max(1 - v * (hw if w else hl), kappa))
        elif how != SKIP:
            ks = keys[s:e]
            teams, ranks = _teams(how, opponent[s:e], won[s:e], score[s:e])
            new_mu, new_sigma = rate([mu[k] for k in ks], [sigma[k] for k in ks], teams, ranks)
            for r, k, m_, s_ in zip(range(s, e), ks, new_mu, new_sigma):
                out_mu[r] = mu[k] = m_
                out_sigma[r] = sigma[k] = s_
        s = e


def _load() -> Callable[..., None] | None:
    """``analysis._ratings.rate_deals``, or None: not built, switched off (``TAROCK_REFERENCE=1``), or it
    numbers the kinds otherwise than this module."""
    if os.environ.get("TAROCK_REFERENCE", "") not in ("", "0"):
        return None
    try:
        from analysis import _ratings  # type: ignore[attr-defined]  # compiled: no stub
    except ImportError:
        return None
    if (_ratings.SKIP, _ratings.TWO, _ratings.SIDES, _ratings.PLACES) != (SKIP, TWO, SIDES, PLACES):
        return None
    return cast(Callable[..., None], _ratings.rate_deals)


RATE = _load()
"""The compiled ``_rate_deals`` (``analysis/_ratings.c``), or None: then the reference runs."""


def _counted(kept: pl.DataFrame, pools: dict[Pool, PoolState], names: list[tuple[Pool, str]], mu: list[float],
             sigma: list[float], start: list[tuple[float, float, int]]) -> pl.DataFrame:
    """The rated rows with ``games`` (each player's rated deals in the pool, continuing from ``start``) and
    ``deal_index`` (the rated deals of each pool, continuing from its state); the states brought up to date.

    ``kept`` has a deal's rows together and the deals in pool and rating order, so both are running counts:
    of a player's rows (``key``) and of the deals begun in the row's pool.
    """
    keys = kept["key"].to_numpy()
    n = len(keys)
    games = np.array([s[2] for s in start], dtype=np.int64)
    order = np.argsort(keys, kind="stable")  # each player's rows together, in rating order
    sorted_keys = keys[order]
    at = np.arange(n)
    first_of_player = np.maximum.accumulate(np.where(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]], at, 0))
    seen = np.empty(n, np.int64)
    seen[order] = at - first_of_player + 1
    bounds = _deal_starts(kept)
    deal_begins = np.zeros(n, np.int64)
    deal_begins[bounds[:-1]] = 1
    begun = np.cumsum(deal_begins)  # deals begun so far, this row's included
    pool_new = kept.select((pl.col("ruleset") != pl.col("ruleset").shift())
                           | (pl.col("n_players") != pl.col("n_players").shift())).to_series().fill_null(True)
    pool_starts = np.flatnonzero(pool_new.to_numpy())
    runs = np.diff(np.append(pool_starts, n))
    heads = kept.select("ruleset", "n_players")[pool_starts.tolist()].rows()
    before = begun[pool_starts] - 1  # deals begun in earlier pools
    firsts = np.array([pools[(ruleset, n_players)].rated for ruleset, n_players in heads], dtype=np.int64)
    deal_index = np.repeat(firsts - before - 1, runs) + begun
    kept = kept.with_columns(pl.Series("games", games[keys] + seen, pl.Int32),
                             pl.Series("deal_index", deal_index, pl.Int32))
    games += np.bincount(keys, minlength=len(names))
    for k, (name_pool, player) in enumerate(names):
        pools[name_pool].players[player] = (mu[k], sigma[k], int(games[k]))
    ends = np.append(pool_starts[1:], n) - 1
    for (ruleset, n_players), deals in zip(heads, (begun[ends] - before).tolist()):
        pools[(ruleset, n_players)].rated += deals
    return _rows(kept)


def _teams(how: int, opponent: list[bool | None], won: list[bool | None],
           scores: list[int | None]) -> tuple[list[list[int]], list[int]]:
    """The teams (positions in the deal) and their places of a deal rated as ``SIDES`` or ``PLACES``: a
    Klop's players each alone, placed by score (equal scores share a place); else the sides (opponents or
    not) split by result, in the order they first sit, the winners first."""
    if how == PLACES:
        known = [x for x in scores if x is not None]
        return [[i] for i in range(len(known))], [1 + sum(1 for o in known if o > x) for x in known]
    sides: dict[tuple[bool | None, bool | None], list[int]] = {}
    for i, (side, w) in enumerate(zip(opponent, won)):
        sides.setdefault((side, w), []).append(i)
    return list(sides.values()), [1 if w else 2 for _, w in sides]


def _rows(kept: pl.DataFrame) -> pl.DataFrame:
    """The ``ratings`` columns of the rated rows (``mu`` and ``sigma`` at full precision)."""
    return kept.select("ruleset", "n_players", "deal_index", "deal_id", "date", "contract", "player", "games",
                       "mu", "sigma", "taroks", "kings")


def _read_state(path: Path) -> dict[Pool, PoolState] | None:
    """The pools' states kept in the ratings file's metadata (None: no file, one without them, or one of
    another rating model: ``MODEL``)."""
    try:
        meta = pq.read_schema(path).metadata or {}
    except FileNotFoundError:
        return None
    if STATE_KEY not in meta or meta.get(MODEL_KEY) != MODEL:
        return None
    return {(p["ruleset"], p["n_players"]): PoolState(p["seen"], p["last"], p["rated"],
                                                      {name: (m, s, g) for name, m, s, g in p["players"]},
                                                      p["shards"])
            for p in json.loads(meta[STATE_KEY])}


def _state_json(pools: dict[Pool, PoolState]) -> bytes:
    """The states as JSON (a float's ``repr`` reads back as the same float, so a continuation is exact)."""
    return json.dumps([{"ruleset": r, "n_players": n, "seen": s.seen, "last": s.last, "rated": s.rated,
                        "shards": s.shards,
                        "players": [[name, *v] for name, v in sorted(s.players.items())]}
                       for (r, n), s in sorted(pools.items())]).encode()


def _pool_list(pools: dict[Pool, int]) -> dict[str, list[object]]:
    return {"rulesets": [r for r, _ in pools], "players": [n for _, n in pools]}


def _rate(store_dir: str | os.PathLike[str], incremental: bool) -> Rebuilt:
    """Rate what is new (``incremental``) or everything, and write the file when anything changed."""
    began = time.perf_counter()
    layout = StoreLayout.at(store_dir)
    with layout.lock():
        generation = layout.read_current()
        if generation is None:
            return Rebuilt(0, 0, None, time.perf_counter() - began)
        path = layout.derived_path(generation, "ratings")
        stored = _read_state(path) if incremental else None
        con = open_store(store_dir)
        try:
            con.execute(_ORDER)
            now = {(r, n): (seen, last, sorted(shards))
                   for r, n, seen, last, shards in con.sql(_POOLS).fetchall()}
            pools, after, restarted = _plan(con, stored, now)
            frame = con.sql(_MATCHES, params={**_pool_list(after), "after": list(after.values())}).pl() \
                if after else None
        finally:
            con.close()
        if frame is None and path.exists() and stored is not None:
            return Rebuilt(0, 0, path, time.perf_counter() - began)
        taken = sum(state.rated for state in pools.values())
        rated = compute(frame if frame is not None else _empty_matches(), pools)
        deals = sum(state.rated for state in pools.values()) - taken  # the deals rated now (compute counts them)
        for pool, (seen, last, shards) in now.items():
            pools[pool].seen, pools[pool].last, pools[pool].shards = seen, last, shards
        table = _table(rated)
        if stored is not None and path.exists():
            kept = [pool for pool in stored if pool not in after or after[pool] > 0]
            table = _merged(pq.read_table(path), kept, table)
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        table = _with_latest(table).replace_schema_metadata({**(RATINGS.metadata or {}),
                                                             STATE_KEY: _state_json(pools),
                                                             MODEL_KEY: MODEL})
        pq.write_table(table, temp, **_WRITE)
        os.replace(temp, path)
    return Rebuilt(deals, rated.height, path, time.perf_counter() - began, restarted)


_WRITE: dict[str, Any] = {
    "compression": "zstd", "use_dictionary": ["ruleset", "deal_id", "contract", "player", "taroks", "kings"],
    "column_encoding": {"mu": "BYTE_STREAM_SPLIT", "sigma": "BYTE_STREAM_SPLIT"}}
"""How the file is written: μ and σ split by byte (their exponent bytes compress well; 7.2 MiB for 200,000
deals against 11.1 with a dictionary), the text columns and the hand's few counts by dictionary (``taroks``
and ``kings`` 0.84 -> 0.45 MiB: 6.8 MiB in all)."""


def _plan(con: duckdb.DuckDBPyConnection, stored: dict[Pool, PoolState] | None,
          now: dict[Pool, tuple[int, str, list[str]]]) -> tuple[dict[Pool, PoolState], dict[Pool, int], int]:
    """The states to continue from, the place after which each pool with new deals is rated, and how many
    stored pools start again (a new deal sorts among their taken ones, or a shard they were read from is
    gone)."""
    pools = dict(stored or {})
    still: set[Pool] = set()
    if pools:
        taken = {pool: s.seen for pool, s in pools.items()}
        rows = con.sql(_TAKEN, params={**_pool_list(taken), "seen": list(taken.values())}).fetchall()
        still = {(r, n) for r, n, h in rows if h == pools[(r, n)].last}
    restarted = 0
    after: dict[Pool, int] = {}
    for pool, (seen, _, shards) in now.items():
        if pool in still and set(pools[pool].shards) <= set(shards):
            if seen > pools[pool].seen:
                after[pool] = pools[pool].seen
            continue
        restarted += pool in pools
        pools[pool] = PoolState()
        after[pool] = 0
    return pools, after, restarted


def _empty_matches() -> pl.DataFrame:
    """``_MATCHES``'s columns without rows."""
    return pl.DataFrame(schema={"ruleset": pl.String, "n_players": pl.Int32, "g": pl.Int64, "deal_id": pl.String,
                                "date": pl.Date, "contract": pl.String, "player": pl.String, "role": pl.String,
                                "won": pl.Boolean, "score": pl.Int32, "taroks": pl.Int8, "kings": pl.Int8})


_RATED = pa.schema([f for f in RATINGS if f.name != "latest"])
"""The stored columns ``compute``'s rows give; ``latest`` depends on every row of the file (``_with_latest``)."""


def _table(rated: pl.DataFrame) -> pa.Table:
    """``compute``'s rows as stored (``_RATED``: μ and σ rounded to float32)."""
    return pa.Table.from_arrays([rated[f.name].to_arrow().cast(f.type) for f in _RATED], schema=_RATED)


def _merged(old: pa.Table, kept: list[Pool], new: pa.Table) -> pa.Table:
    """The stored rows of the ``kept`` pools and the new rows, sorted by pool and ``deal_index`` (a deal's rows
    stay in seat order)."""
    keep = pl.DataFrame({"ruleset": [r for r, _ in kept], "n_players": [n for _, n in kept]},
                        schema={"ruleset": pl.String, "n_players": pl.Int32})
    old_rows = pl.DataFrame(old.select(_RATED.names)).join(keep, on=["ruleset", "n_players"], how="semi",
                                                           maintain_order="left")
    both = pl.concat([old_rows, pl.DataFrame(new)], how="vertical")
    return both.sort("ruleset", "n_players", "deal_index", maintain_order=True).to_arrow().cast(_RATED)


def _with_latest(table: pa.Table) -> pa.Table:
    """The file's rows with ``latest``: whether the row is its player's last rated deal in its pool.

    The Players page's rating table asks for each player's rating after their last deal; without a date,
    contract or player filter those are exactly these rows (``current``), read instead of a group-by over
    every row (on a million deals 0.04 s against 0.21; docs/analysis.md, "Speed")."""
    last = pl.col("deal_index") == pl.col("deal_index").max().over("ruleset", "n_players", "player")
    latest = pl.DataFrame(table.select(["ruleset", "n_players", "player", "deal_index"])).select(last)
    return table.append_column(RATINGS.field("latest"), latest.to_series().to_arrow().cast(pa.bool_()))


def rebuild(store_dir: str | os.PathLike[str]) -> Rebuilt:
    """Rate every deal of the store again and replace its ``ratings`` file (idempotent: same store, same file).

    Holds the store's lock (``StoreBusy`` while an ingest runs).  A store
    with no generation yet has nothing to rate.
    """
    return _rate(store_dir, incremental=False)


def update(store_dir: str | os.PathLike[str]) -> Rebuilt:
    """Rate the deals added since the ratings file was written, continuing each pool from its stored state
    (a pool a new deal sorts into is rated again from its start; no file: everything, as ``rebuild``)."""
    return _rate(store_dir, incremental=True)


def up_to_date(store_dir: str | os.PathLike[str]) -> bool | None:
    """Whether the ratings file was rated from the deals the store holds now: every pool's state
    (``PoolState``: deals taken, the last one, their shards) is the store's, and no pool is missing or gone
    (None: no ratings file).  ``tarock verify`` reports a file that is not as stale."""
    layout = StoreLayout.at(store_dir)
    generation = layout.read_current()
    if generation is None:
        return None
    stored = _read_state(layout.derived_path(generation, "ratings"))
    if stored is None:
        return None
    con = open_store(store_dir)
    try:
        con.execute(_ORDER)
        now = {(r, n): (seen, last, sorted(shards)) for r, n, seen, last, shards in con.sql(_POOLS).fetchall()}
    finally:
        con.close()
    return now == {pool: (s.seen, s.last, sorted(s.shards)) for pool, s in stored.items()}


_CURRENT = """
SELECT g.ruleset, g.n_players, g.player, CAST(arg_max(g.mu, g.deal_index) AS DOUBLE) AS mu,
       CAST(arg_max(g.sigma, g.deal_index) AS DOUBLE) AS sigma,
       CAST(arg_max(g.mu, g.deal_index) AS DOUBLE) - {z} * CAST(arg_max(g.sigma, g.deal_index) AS DOUBLE) AS ordinal,
       max(g.games) AS games, max(g.date) AS last_date
FROM ratings g
WHERE {where} AND {only} AND {latest}
GROUP BY g.ruleset, g.n_players, g.player
ORDER BY g.ruleset, g.n_players, ordinal DESC, g.player
"""

_HISTORY = """
SELECT g.ruleset, g.n_players, g.player, CAST(g.deal_index AS BIGINT) AS deal_index, g.deal_id, g.date, g.games,
       CAST(g.mu AS DOUBLE) AS mu, CAST(g.sigma AS DOUBLE) AS sigma,
       CAST(g.mu AS DOUBLE) - {z} * CAST(g.sigma AS DOUBLE) AS ordinal
FROM ratings g
WHERE {where} AND list_contains({players}, g.player)
ORDER BY g.ruleset, g.n_players, g.player, g.deal_index
"""


def rated_where(filters: Filters, alias: str = "g") -> Fragment:
    """Every filter, on the ``ratings`` table under ``alias``, from its own columns: a rated deal's date and
    contract are on each of its rows, and its players are its rows (``filters.child_where`` would look each
    deal up in ``deals``)."""
    where = partition_where(filters, alias)
    for sql, name, value in ((f"{alias}.date >= $f_date_from", "f_date_from", filters.date_from),
                             (f"{alias}.date <= $f_date_to", "f_date_to", filters.date_to),
                             (f"{alias}.contract = $f_contract", "f_contract", filters.contract)):
        if value is not None:
            where = where & Fragment(sql, {name: value})
    if filters.player is not None:
        where = where & Fragment(
            f"EXISTS (SELECT 1 FROM ratings s WHERE s.ruleset = {alias}.ruleset AND s.n_players = {alias}.n_players"
            f" AND s.deal_index = {alias}.deal_index AND s.player = $f_player)", {"f_player": filters.player})
    return where


def _only(filters: Filters) -> Fragment:
    return TRUE if filters.player is None else Fragment("g.player = $f_player", {"f_player": filters.player})


def current(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Each player's rating after the last of their filtered deals, per pool (ruleset, n_players):
    mu, sigma, ordinal (μ − 3σ, the conservative value they are ranked by), games, last_date."""
    return run(store, _CURRENT, where=rated_where(filters), only=_only(filters), latest=_latest_only(filters),
               z=param("r_z", Z))


def _latest_only(filters: Filters) -> Fragment:
    """Each player's last row of a pool (``latest``) when the filters keep whole pools (ruleset, players), else
    TRUE: the last of a player's filtered deals may be an earlier row.  A file written before the column (null
    there) keeps every row, so ``current`` stays right, only slower."""
    if filters.date_from is None and filters.date_to is None and filters.contract is None and filters.player is None:
        return Fragment("g.latest IS NOT FALSE")
    return TRUE


def history(store: Store, players: list[str], filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """The rating after every filtered deal of these players, in order (the rating-band chart's rows)."""
    return run(store, _HISTORY, where=rated_where(filters), players=param("h_players", players),
               z=param("r_z", Z))


def has_ratings(store: Store) -> bool:
    """Whether the store's ``ratings`` table has rows (False: never built, or nothing rated)."""
    return bool(store.query("SELECT count(*) > 0 AS n FROM ratings")["n"][0])
