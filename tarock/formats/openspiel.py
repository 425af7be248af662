"""Import games played by OpenSpiel's ``tarok`` into `tarock-record/1` records.

An input file is JSON Lines, one game per line::

    {"players": 4, "rng_seed": 17, "actions": [0, 3, 0, 0, 0, 3, 45, 1, 30, 41, ...]}

``actions`` is ``state.history()`` of the game: the chance action that deals
(always 0: OpenSpiel deals with the game's own random generator, seeded by
the game parameter ``rng_seed``), then every bid, the king call, the talon
group chosen, the discards and the cards played.  The deal is that of the
first state of a freshly loaded game, so ``rng_seed`` and the history
reproduce it.  Games taken from a long-lived game object have no such seed:
give ``"serialized": state.serialize()`` instead (its first line is the
dealing seed, the others are the actions after the deal).

The game is replayed in pyspiel (the optional extra ``openspiel``), every
action checked against ``state.legal_actions()``, and written as a record
with ``"options": {"preset": "openspiel"}``: players ``P0`` … in OpenSpiel's
seat order, which is our playing order (``P0`` is forehand, the last is the
dealer; OpenSpiel's bidding starts with ``P1`` and ends with forehand, our
``bidding_order: forehand_last``).  docs/openspiel.md lists where OpenSpiel
reads the rules differently.

``random_games`` plays such games in pyspiel (seeded random legal play, the
bidding steered so that every contract is played) for the differential test
and bench/bench_openspiel.py.
"""

from __future__ import annotations

import gzip
import os
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from tarock.cards import CODES
from tarock.deal import SLOVENIAN_CONTRACTS, Deal
from tarock.findings import Finding
from tarock.formats.codec import deal_from_obj, RecordError
from tarock.formats.items import ReaderLimits
from tarock.formats.reader import open_problem, open_regular
from tarock.formats.writer import Counts, write_records

OPENSPIEL_CONTRACTS = SLOVENIAN_CONTRACTS
"""Our contract for OpenSpiel's bid action ``a`` (1 … 12) is ``OPENSPIEL_CONTRACTS[a - 1]``: both ladders
run Klop, Three, Two, One, Solo three, Solo two, Solo one, Beggar, Solo without, Open beggar, Colour valat
without, Valat without."""
PASS_ACTION = 0
PLAYABLE_CONTRACTS: Mapping[int, tuple[str, ...]] = {
    4: OPENSPIEL_CONTRACTS,
    3: tuple(c for c in OPENSPIEL_CONTRACTS if c not in ("solo_tri", "solo_dva", "solo_ena")),
}
"""The contracts OpenSpiel's tarok offers at a table of 4 and of 3 players (3: no Solo three, two or one)."""


class OpenSpielError(ValueError):
    """A game line that cannot be replayed in OpenSpiel; the text says why and at which action."""


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        # tarock is not on the package index: the extra installs from a checkout (scripts/setup.sh)
        raise OpenSpielError("importing OpenSpiel games needs OpenSpiel (the openspiel extra): from the checkout, "
                             "run `bash scripts/setup.sh openspiel` or `.venv/bin/pip install -e '.[openspiel]'`"
                             ) from None
    return pyspiel


def player_names(n: int) -> tuple[str, ...]:
    """``P0`` … ``P{n-1}``: OpenSpiel's seats, forehand first (our playing order)."""
    return tuple(f"P{i}" for i in range(n))


@dataclass(slots=True)
class GameLog:
    """What one OpenSpiel game consisted of, phase by phase, as seats and card ints."""

    n: int
    hands: list[list[int]]
    talon: list[int]
    bids: list[tuple[int, int]] = field(default_factory=list)
    king: int | None = None
    talon_pick: list[int] | None = None
    stash: list[int] = field(default_factory=list)
    plays: list[tuple[int, int]] = field(default_factory=list)
    returns: list[int] = field(default_factory=list)


def new_state(n_players: int, rng_seed: int | None = None, deal_seed: int | None = None) -> Any:
    """An OpenSpiel tarok state right after the deal: from a fresh game's ``rng_seed`` or a dealing seed."""
    pyspiel = _pyspiel()
    if n_players not in (3, 4):
        raise OpenSpielError(f"players must be 3 or 4, not {n_players!r}")
    if deal_seed is not None:
        game = pyspiel.load_game("tarok", {"players": n_players})
        return game.deserialize_state(str(deal_seed))
    if rng_seed is None or rng_seed < 0:
        raise OpenSpielError("rng_seed must be a whole number ≥ 0 (OpenSpiel's -1 deals from the clock)")
    game = pyspiel.load_game("tarok", {"players": n_players, "rng_seed": rng_seed})
    state = game.new_initial_state()
    state.apply_action(0)
    return state


def replay_game(state: Any, actions: list[int]) -> GameLog:
    """Apply ``actions`` (those after the deal) to ``state``, checking each, and log the game."""
    n = state.num_players()
    log = GameLog(n, [list(state.player_cards(p)) for p in range(n)], list(state.talon()))
    for index, action in enumerate(actions):
        if state.is_terminal():
            raise OpenSpielError(f"action {index + 1} ({action}) comes after the end of the game")
        if type(action) is not int or action not in state.legal_actions():
            raise OpenSpielError(f"action {index + 1} ({action!r}) is not legal in {_phase(state)}; "
                                 f"legal: {state.legal_actions()}")
        _log_action(log, state, action)
        state.apply_action(action)
    if not state.is_terminal():
        raise OpenSpielError(f"the game is not finished after {len(actions)} actions (in {_phase(state)})")
    log.returns = [int(r) for r in state.returns()]
    return log


def _phase(state: Any) -> str:
    return state.current_game_phase().name.lower().replace("_", " ")


def _log_action(log: GameLog, state: Any, action: int) -> None:
    """Note one action in the log, by the phase it is played in."""
    phase = state.current_game_phase().name
    player = state.current_player()
    if phase == "BIDDING":
        log.bids.append((player, action))
    elif phase == "KING_CALLING":
        log.king = action
    elif phase == "TALON_EXCHANGE" and len(state.talon()) == 6:
        log.talon_pick = list(state.talon_sets()[action])
    elif phase == "TALON_EXCHANGE":
        log.stash.append(action)
    else:
        log.plays.append((player, action))


def _bidding(bids: list[tuple[int, int]]) -> tuple[list[tuple[int, str]], int, str]:
    """Our bidding, the declarer's seat and the contract, from OpenSpiel's bid actions.

    OpenSpiel makes the last bidder declare once more after all others have
    passed, repeating the bid or raising it; a repeat is not a bid in our
    records (a raise stays: the final declaration).
    """
    declarer, last = bids[-1]
    contract = OPENSPIEL_CONTRACTS[last - 1]
    earlier = [a for p, a in bids[:-1] if p == declarer and a != PASS_ACTION]
    kept = bids[:-1] if earlier and earlier[-1] == last else bids
    ours = [(p, "pass" if a == PASS_ACTION else OPENSPIEL_CONTRACTS[a - 1]) for p, a in kept]
    return ours, declarer, contract


def log_to_obj(log: GameLog) -> dict[str, Any]:
    """The `tarock-record/1` object of a logged game (``preset: openspiel``, named plays)."""
    names = player_names(log.n)
    bidding, declarer, contract = _bidding(log.bids)
    obj: dict[str, Any] = {
        "ruleset": "slovenian",
        "options": {"preset": "openspiel"},
        "players": list(names),
        "hands": {names[p]: [CODES[c] for c in log.hands[p]] for p in range(log.n)},
        "talon": [CODES[c] for c in log.talon],
        "bidding": [[names[p], bid] for p, bid in bidding],
        "contract": contract,
    }
    if contract != "klop":
        obj["declarer"] = names[declarer]
    if log.king is not None:
        obj["called_king"] = CODES[log.king]
    if log.talon_pick is not None:
        obj["talon_pick"] = [CODES[c] for c in log.talon_pick]
        obj["stash"] = [CODES[c] for c in log.stash]
    plays = [f"{names[p]}:{CODES[c]}" for p, c in log.plays]
    obj["tricks"] = [plays[i:i + log.n] for i in range(0, len(plays), log.n)]
    return obj


def game_to_deal(line: Any) -> Deal:
    """The record of one input line (an object as in the module docstring); OpenSpielError when unusable."""
    if type(line) is not dict:
        raise OpenSpielError("a game line must be a JSON object")
    n = line.get("players")
    if type(n) is not int:
        raise OpenSpielError("players must be 3 or 4")
    serialized = line.get("serialized")
    if serialized is not None:
        if type(serialized) is not str or not serialized.strip():
            raise OpenSpielError("serialized must be the text of state.serialize()")
        first, *rest = serialized.strip().split("\n")
        state = new_state(n, deal_seed=_whole(first, "the first line of serialized"))
        actions = [_whole(a, "an action of serialized") for a in rest]
        source: dict[str, Any] = {"serialized_seed": int(first)}
    else:
        seed = line.get("rng_seed")
        if type(seed) is not int:
            raise OpenSpielError("rng_seed must be a whole number (or give serialized)")
        state = new_state(n, rng_seed=seed)
        actions = _actions_after_deal(line.get("actions"))
        source = {"rng_seed": seed}
    log = replay_game(state, actions)
    obj = log_to_obj(log)
    obj["openspiel"] = {**source, "returns": log.returns}
    if isinstance(line.get("id"), str):
        obj["id"] = line["id"]
    try:
        return deal_from_obj(obj)
    except RecordError as exc:  # not expected: OpenSpiel's games are well formed
        raise OpenSpielError(f"the game makes no valid record: {exc}") from None


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise OpenSpielError(f"{what} must be a whole number, not {text!r}") from None


def _actions_after_deal(actions: Any) -> list[int]:
    """The actions of ``state.history()`` after its first entry, the dealing chance action 0."""
    if type(actions) is not list or not actions:
        raise OpenSpielError("actions must be the list state.history() gives")
    if actions[0] != 0:
        raise OpenSpielError("actions must start with the deal (chance action 0), as state.history() does")
    return actions[1:]


def read_games(path: str | os.PathLike[str], limits: ReaderLimits = ReaderLimits()) -> Iterator[Deal | Finding]:
    """Each game line of a JSONL file as a Deal, or an ``E_PARSE`` finding naming the line and the reason."""
    file = str(path)
    for line_no, obj, problem in _lines(file, limits):
        if problem is None:
            try:
                yield game_to_deal(obj)
                continue
            except OpenSpielError as exc:
                problem = str(exc)
        yield Finding(code="E_PARSE", message=f"line {line_no}: {problem}", file=file, line=line_no)


def _lines(file: str, limits: ReaderLimits) -> Iterator[tuple[int, Any, str | None]]:
    """(line, parsed JSON, problem) of each non-blank line; a line past ``max_line_bytes`` is a problem."""
    try:
        raw = open_regular(file)  # never a FIFO (it would wait for a writer) nor a device
    except OSError as exc:
        yield 0, None, open_problem(exc)
        return
    stream = gzip.GzipFile(fileobj=raw, mode="rb") if file.endswith(".gz") else raw
    with raw, stream:
        number = 0
        while raw := stream.readline(limits.max_line_bytes + 2):
            number += 1
            if len(raw.rstrip(b"\r\n")) > limits.max_line_bytes:
                while raw and not raw.endswith(b"\n"):  # read past the rest of the long line
                    raw = stream.readline(limits.max_line_bytes)
                yield number, None, f"the line is longer than {limits.max_line_bytes} bytes"
            elif raw.strip():
                try:
                    yield number, orjson.loads(raw), None
                except orjson.JSONDecodeError as exc:
                    yield number, None, f"not valid JSON: {exc.msg}"


def import_openspiel(in_path: str | os.PathLike[str], out_path: str | os.PathLike[str],
                     limits: ReaderLimits = ReaderLimits()) -> Counts:
    """Convert a JSONL file of OpenSpiel games into a record file (format by ``out_path``'s name)."""
    _pyspiel()
    rejects: list[Finding] = []

    def deals() -> Iterator[Deal]:
        for item in read_games(in_path, limits):
            if isinstance(item, Finding):
                rejects.append(item)
            else:
                yield item

    written = write_records(deals(), out_path)
    return Counts(written, len(rejects), tuple(rejects))


# --------------------------------------------------------------------------- generating games


def random_game(n_players: int, rng_seed: int, contract: str | None, free: bool = False) -> dict[str, Any]:
    """One game played in pyspiel, as an input line: a fresh game with ``rng_seed``, steered bids, random play.

    Every choice is drawn from a generator seeded by ``rng_seed`` and
    ``n_players``: the same arguments give the same game.  One bidder
    (forehand for Klop and Tri, else a seat drawn at random) bids ``contract``
    once it is legal for them and the others pass, so ``contract`` is played;
    with ``free``, every other bid is, with chance 0.35, one drawn from the
    legal ones (competitive bidding: another contract may win).
    """
    rng = random.Random(rng_seed * 7919 + n_players)
    state = new_state(n_players, rng_seed=rng_seed)
    bidder = 0 if contract in ("klop", "tri") else rng.randrange(n_players)
    while not state.is_terminal():
        if state.current_game_phase().name == "BIDDING":
            action = _choose_bid(state, rng, contract, bidder, free)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    return {"players": n_players, "rng_seed": rng_seed, "actions": list(state.history())}


def _choose_bid(state: Any, rng: random.Random, contract: str | None, bidder: int, free: bool) -> int:
    """Steer the bidding towards ``contract`` by ``bidder``; others pass (or, when ``free``, bid at random)."""
    legal = state.legal_actions()
    if contract is not None and state.current_player() == bidder:
        steered = OPENSPIEL_CONTRACTS.index(contract) + 1
        if steered in legal:
            return steered
    if free and rng.random() < 0.35:
        return rng.choice(legal)
    return PASS_ACTION if PASS_ACTION in legal else rng.choice(legal)


def random_games(per_contract: Mapping[int, int], first_seed: int = 1, free_every: int = 4) -> list[dict[str, Any]]:
    """``per_contract[n]`` ``random_game``s for each contract of ``PLAYABLE_CONTRACTS[n]``, table sizes in order.

    The games take the ``rng_seed``s ``first_seed``, ``first_seed + 1`` … in
    turn; one whose seed is a multiple of ``free_every`` bids freely.  Example:
    ``random_games({4: 70, 3: 44})`` is 840 four-player and 396 three-player games.
    """
    plan = [(n, contract) for n, per in per_contract.items() for contract in PLAYABLE_CONTRACTS[n]
            for _ in range(per)]
    return [random_game(n, seed, contract, free=seed % free_every == 0)
            for seed, (n, contract) in enumerate(plan, first_seed)]
