"""The body of ``tarock advise``: what a dealt hand is worth in each contract it may bid.

The hand is given as card codes (any alias ``tarock.cards.parse_card`` reads, space- or comma-separated)
or as a stored deal's player (``hand_of_deal``; ``deal_outcome`` then says what they bid and how it went).
Per contract the table may declare, two figures side by side (``analysis.hand_advice``): the play-outs of the
hand by the simulator's players, and the club's estimate -- the hand model saved beside the store
(``analysis.hand_model``, fitted from the store first when none is saved or when asked to refit) shrunk toward
the play-outs where the store holds few hands like this one.  Formats: ``table`` (rich, a line under it
saying what each figure is) and ``json`` (``{"hand", "about", "contracts", "deal"?}``: ``about`` those lines,
``contracts`` the rows of ``hand_advice``, ``deal`` the outcome of ``--deal``).
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

import orjson
from rich.console import Console
from rich.table import Table

from analysis.hand_advice import hand_advice
from analysis.hand_model import HandModel, hand_features, load, model_dir
from analysis.similar_hands import similar_record
from analysis.store import Store
from tarock.cards import CODES, AmbiguousCardError, UnknownCardError, card_text, cards_of, parse_card
from tarock.deal import RULESETS
from tarock.rules.rulesets import contract_label
from tarock.sim.playouts import CAP
from tarock.words import moment

FORMATS = ("table", "json")
CARDS_PER_HAND = {("slovenian", 3): 16, ("slovenian", 4): 12, ("koenigrufen", 4): 12}
"""How many cards a hand is dealt, by ruleset and players (tarock/rules/*/contracts.py)."""


def parse_hand(texts: list[str], ruleset: str, n_players: int) -> list[int]:
    """The cards of a hand written as codes or aliases; ValueError for an unknown card, a card twice, or a
    hand of the wrong size for the table."""
    if ruleset not in RULESETS:
        raise ValueError(f"ruleset must be one of {', '.join(RULESETS)}, not {ruleset!r}")
    size = CARDS_PER_HAND.get((ruleset, n_players))
    if size is None:
        raise ValueError(f"{ruleset} is not played by {n_players} players")
    words = [word for text in texts for word in text.replace(",", " ").split()]
    try:
        cards = [parse_card(word) for word in words]
    except AmbiguousCardError as exc:
        raise ValueError(str(exc)) from None
    except UnknownCardError as exc:
        raise ValueError(f"unknown card {exc.text!r}: write a card as drawn (XXI, Škis, K♥, 10♠) or as its "
                         "code (T21, T22, HK, S10)") from None
    twice = sorted({card_text(CODES[c]) for c in cards if cards.count(c) > 1})
    if twice:
        raise ValueError(f"a card given twice: {', '.join(twice)}")
    if len(cards) != size:
        raise ValueError(f"a {ruleset} hand of {n_players} players has {size} cards, not {len(cards)}")
    return cards


def hand_of_deal(source: Store | str | os.PathLike[str], deal_id: str, player: str) -> tuple[list[int], str, int]:
    """(cards, ruleset, players) of a player's dealt hand in a stored deal; ValueError when there is none."""
    with Store.opened(source) as store:
        rows = store.query("SELECT h.hand_mask, h.ruleset, h.n_players FROM stored.hands h JOIN deals d "
                           "USING (shard, source_file, source_pos) WHERE d.deal_id = $deal AND h.player = $player "
                           "LIMIT 1",
                           {"deal": deal_id, "player": player}).rows()
    if not rows:
        raise ValueError(f"no dealt hand of {player!r} in deal {deal_id!r} in {store.source}")
    mask, ruleset, n_players = rows[0]
    return list(cards_of(int(mask))), str(ruleset), int(n_players)


def model_for(source: str | os.PathLike[str], refit: bool = False) -> HandModel:
    """The model saved beside the store, or one fitted (and saved) now."""
    model = None if refit else load(model_dir(source))
    if model is None:
        from analysis.hand_fit import fit_store  # here: answering from a saved model needs no fitting code

        model = fit_store(source)
    return model


def advice(source: Store | str | os.PathLike[str], model: HandModel, cards: list[int], ruleset: str,
           n_players: int) -> list[dict[str, Any]]:
    """Per contract the table may declare, ranked by the club's expected score: the play-outs beside the club's
    estimate (``analysis.hand_advice.hand_advice``; the store read for its hands like this one)."""
    with Store.opened(source) as store:
        similar = similar_record(store, hand_features(cards), ruleset, n_players)
    return hand_advice(model, cards, ruleset, n_players, similar)


def deal_outcome(source: Store | str | os.PathLike[str], deal_id: str, player: str) -> dict[str, Any]:
    """What ``player`` bid in a stored deal and how it went: ``bids`` (theirs, in order), the deal's
    ``contract``, ``declarer``, ``partner`` and ``won``, and the player's ``score``."""
    with Store.opened(source) as store:
        deal = store.query("SELECT d.contract, d.declarer, d.partner, d.won, r.score FROM deals d "
                           "LEFT JOIN stored.results r USING (shard, source_file, source_pos) "
                           "WHERE d.deal_id = $deal AND r.player = $player LIMIT 1",
                           {"deal": deal_id, "player": player}).rows()
        bids = store.query("SELECT b.bid FROM deals d JOIN stored.bids b USING (shard, source_file, source_pos) "
                           "WHERE d.deal_id = $deal AND b.player = $player ORDER BY b.idx",
                           {"deal": deal_id, "player": player}).rows()
    if not deal:
        raise ValueError(f"no result of {player!r} in deal {deal_id!r} in {store.source}")
    contract, declarer, partner, won, score = deal[0]
    return {"deal": deal_id, "player": player, "bids": [bid for (bid,) in bids], "contract": contract,
            "declarer": declarer, "partner": partner, "won": won, "score": score}


def outcome_line(outcome: dict[str, Any]) -> str:
    """One sentence of ``deal_outcome``: what the player bid, what was played by whom, and how it went."""
    bids = ", ".join(contract_label(b) if b != "pass" else "pass" for b in outcome["bids"]) or "nothing"
    player, declarer = outcome["player"], outcome["declarer"]
    played = contract_label(outcome["contract"])
    if declarer is None:
        went = f"{played} was played"
    else:
        side = ("declared" if player == declarer else "partnered" if player == outcome["partner"]
                else f"defended against {declarer}'s")
        result = "won" if outcome["won"] else "lost" if outcome["won"] is not None else "no result"
        went = f"{player} {side} {played}: {result}"
    score = "" if outcome["score"] is None else f", {outcome['score']:+d} for {player}"
    return f"In deal {outcome['deal']} {player} bid {bids}; {went}{score}."


PLAYOUTS_ARE = ("Play-outs: the simulator's players deal the unseen cards around this hand and play the contract "
                "out (no announcements), until the 95 % interval is ±5 points or {cap} deals; they assume the "
                "simulator's defence, not your club's.")
CLUB_IS = ("Club: the hand model fitted on this store's declared deals, shrunk toward the play-outs where the store "
           "holds few hands like this one (same kings, taroks and taroks from XV ±1); the weight is the store's.")


def about_lines(model: HandModel) -> dict[str, str]:
    """What each figure is, in one line each (``playouts``, ``club``), and what the model was fitted on."""
    about = model.about
    return {"playouts": PLAYOUTS_ARE.format(cap=CAP), "club": CLUB_IS,
            "model": f"Model fitted on {about.get('fitted_on', 0):,} declared deals of {about.get('store', '?')} "
                     f"(on {moment(about.get('fitted_at', '?'))}); refit: --refit."}


def _figure(part: dict[str, Any] | None) -> str:
    """A figure as the table prints it: the win probability, its interval and the expected score, in whole
    points (the intervals are some ±5 points wide: a decimal would claim more)."""
    if part is None:
        return "—"
    return (f"{100 * part['win_probability']:.0f} % ({100 * part['low']:.0f}–{100 * part['high']:.0f}) "
            f"{part['expected_score']:+.0f}")


def print_advice(rows: list[dict[str, Any]], model: HandModel, cards: list[int], fmt: str = "table",
                 stream: TextIO | None = None, outcome: dict[str, Any] | None = None) -> None:
    """Print ``advice`` rows as a table (what each figure is below it, and the stored deal's outcome when given)
    or as JSON: ``{"hand", "about", "contracts": rows, "deal"?: outcome}``."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    out = stream or sys.stdout
    lines = about_lines(model)
    if fmt == "json":
        body: dict[str, Any] = {"hand": [CODES[c] for c in sorted(cards)], "about": lines, "contracts": rows}
        if outcome is not None:
            body["deal"] = outcome | {"said": outcome_line(outcome)}
        out.write(orjson.dumps(body).decode() + "\n")
        return
    table = Table(title="Hand: " + " ".join(card_text(CODES[c]) for c in sorted(cards)))
    for column, justify in (("contract", "left"), ("play-outs", "right"), ("n", "right"), ("club", "right"),
                            ("weight", "right"), ("alike", "right")):
        table.add_column(column, justify=justify, no_wrap=column != "contract")  # type: ignore[arg-type]
    for row in rows:
        record, playouts, club = row["record"], row["playouts"], row["club"]
        table.add_row(contract_label(row["contract"]), _figure(playouts),
                      "" if playouts is None else f"{playouts['playouts']:,}",
                      "no estimate" if club is None else _figure(club),
                      "" if club is None else f"{100 * club['weight']:.0f} %", f"{record['wins']:,}/{record['deals']:,}")
    table.caption = "\n".join(("Each figure: win probability (95 % interval) expected score. n: play-outs; "
                                "weight: the store's share of the club's figure; alike: won/declared by the "
                                "store's hands like this one.", lines["playouts"], lines["club"], lines["model"]))
    console = Console(file=out)
    console.print(table)
    if outcome is not None:
        console.print(outcome_line(outcome), highlight=False, markup=False)
