"""The body of ``tarock advise``: what a dealt hand is worth in each contract it may bid.

The hand is given as card codes (any alias ``tarock.cards.parse_card`` reads, space- or comma-separated)
or as a stored deal's player (``hand_of_deal``).  The model is the one saved beside the store
(``analysis.hand_model``), fitted from the store first when none is saved or when asked to refit.  Per
declared contract of the ruleset's ladder it gives the win probability, its 95 % interval (the logistic
model's, see ``analysis.hand_model``) and the expected score; a contract with too few deals gets none.
Formats: ``table`` (rich) and ``json`` (a list, one object per contract: ``contract``,
``win_probability``, ``low``, ``high``, ``expected_score``, ``deals``).
"""

from __future__ import annotations

import os
import sys
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, TextIO

import orjson
from rich.console import Console
from rich.table import Table

from analysis.hand_model import HandModel, hand_features, load, model_dir
from tarock.cards import CODES, AmbiguousCardError, UnknownCardError, card_text, cards_of, parse_card
from tarock.deal import RULESETS
from tarock.rules.rulesets import contract_label

if TYPE_CHECKING:
    from analysis.store import Store

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
    from analysis.store import Store  # here: a typed hand and a saved model need neither DuckDB nor polars

    store = Store.of(source)
    with store if store is not source else nullcontext(store):
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


def advice(model: HandModel, cards: list[int], ruleset: str, n_players: int) -> list[dict[str, Any]]:
    """Per declared contract, ranked by expected score: ``HandModel.advise`` of the hand's features."""
    return model.advise(hand_features(cards), ruleset, n_players)


def print_advice(rows: list[dict[str, Any]], model: HandModel, cards: list[int], fmt: str = "table",
                 stream: TextIO | None = None) -> None:
    """Print ``advice`` rows as a table (what the model rests on below it) or as JSON."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    out = stream or sys.stdout
    if fmt == "json":
        out.write(orjson.dumps(rows).decode() + "\n")
        return
    table = Table(title="Hand: " + " ".join(card_text(CODES[c]) for c in sorted(cards)))
    for column, justify in (("contract", "left"), ("win probability", "right"), ("95 % interval", "right"),
                            ("expected score", "right"), ("deals", "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for row in rows:
        if row["win_probability"] is None:
            table.add_row(contract_label(row["contract"]), "no estimate", "too few deals", "", f"{row['deals']:,}")
            continue
        table.add_row(contract_label(row["contract"]), f"{100 * row['win_probability']:.1f} %",
                      f"{100 * row['low']:.1f} – {100 * row['high']:.1f} %", f"{row['expected_score']:+.0f}",
                      f"{row['deals']:,}")
    about = model.about
    table.caption = (f"Fitted on {about.get('fitted_on', '?'):,} declared deals of {about.get('store', '?')} "
                     f"({about.get('fitted_at', '?')}); a contract needs {about.get('min_deals', '?')} deals for "
                     "an estimate. Refit: --refit.")
    Console(file=out).print(table)
