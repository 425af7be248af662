"""The options of Königrufen: the decisions of docs/koenigrufen.md, one field each.

Each field lists its possible values, the default first (``tarock.rules.choices.option``); the loader in
``tarock.options`` checks records and command lines against them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from tarock.rules.choices import OptionError, OptionsBase, option

PENALTIES = ("austrian_renonce", "record_as_played", "annul")
"""The renons policies Königrufen's zero-sum sheet implements (docs/penalties.md)."""


@dataclass(frozen=True, slots=True)
class KoenigrufenOptions(OptionsBase):
    """Options of the ``koenigrufen`` ruleset; defaults are docs/koenigrufen.md's decisions.

    ``counting`` ``1/3`` counts card points in thirds ("points and Blatt";
    a side wins with 35⅔); ``1/1`` counts raw card values (deck 106) and then
    ``min_win_score`` (raw points a side needs) is required.  ``values`` picks
    the cup's table of game values.  ``quapil``: the IIII ultimo bonus exists.
    ``emperor_trick``: Kaiserstich in positive tarock-trump games.
    ``pagat_restriction``: in negative games the Pagat only as the last
    tarock.  ``color_discard_restriction``: in colour games taroks are laid
    away first.  ``kontra_in_score``: kontras multiply the score (the money
    view; false: the cups' tournament score).  ``triccolo``: the game exists.
    ``trischaken_talon``: the talon goes one card each to the winners of the
    first six tricks, or whole to the winner of the last.
    ``kings_in_color_games``: Vier Könige counts in colour games.
    ``valat_keeps_announced``: beside a valat (made or failed) every announced bonus still scores, made or
    failed (the cups' texts); ``false``: the valat replaces every other line.
    ``concession_pays_announced``: a concession pays each opponent the game value plus the announced value
    of every bonus the declarer's side announced; ``false``: the game value only.
    ``trischaken_ties``: ``share`` — of several players tied for most card points forehand loses alone if
    among them, else every tied player loses; ``earliest``: the first of them in playing order loses.
    ``trischaken_jungfrau``: ``pot`` — players who took no trick (Jungfrauen) collect everything the losers
    pay, split equally (a share rounded up, the loser paying the rounding); ``double``: a Jungfrau receives
    double and the others their single share.
    ``zwiccolo``: Zwiccolo and Zwiccolo ouvert are played.  ``several_declarers``: Piccolo, Zwiccolo and
    Triccolo may be played by several declarers at once (``false``: a later bid of the same game must outbid).
    ``sechserdreier_doubles_valat``: a lost Sechserdreier doubles the valat too (not only the game).
    ``king_ultimo_by_party``: König ultimo is made when the called king's party takes the last trick holding
    it (``false``: the called king itself must take it).  ``valat_takes_game_kontra``: the game's kontra
    multiplies the valat too (only where kontras count, ``kontra_in_score``).
    """

    ruleset: ClassVar[str] = "koenigrufen"
    counting: str = option("1/3", "1/1")
    min_win_score: int | None = option(None, values=range(1, 107))
    values: str = option("raiffeisen", "wien", "tirol", "sauwald")
    quapil: bool = option(False, True)
    emperor_trick: bool = option(True, False)
    pagat_restriction: bool = option(True, False)
    color_discard_restriction: bool = option(False, True)
    kontra_in_score: bool = option(True, False)
    triccolo: bool = option(False, True)
    trischaken_talon: str = option("first_six", "last_trick")
    kings_in_color_games: bool = option(True, False)
    penalty: str = option(*PENALTIES)
    valat_keeps_announced: bool = option(True, False)
    concession_pays_announced: bool = option(True, False)
    trischaken_ties: str = option("share", "earliest")
    trischaken_jungfrau: str = option("pot", "double")
    zwiccolo: bool = option(True, False)
    several_declarers: bool = option(True, False)
    sechserdreier_doubles_valat: bool = option(False, True)
    king_ultimo_by_party: bool = option(False, True)
    valat_takes_game_kontra: bool = option(False, True)

    def __post_init__(self) -> None:
        if self.counting == "1/1" and self.min_win_score is None:
            raise OptionError("counting 1/1 needs min_win_score (the raw card points a side needs to win)")
        if self.counting == "1/3" and self.min_win_score is not None:
            raise OptionError("min_win_score belongs to counting 1/1; counting 1/3 wins with 35 points and 2 Blatt")


PRESETS: Mapping[str, Mapping[str, Any]] = {
    # the Upper-Austrian cup table (OÖ cup rules 4/2023): Raiffeisen's values and rules except these
    # (docs/koenigrufen.md, "Preset oberoesterreich")
    "oberoesterreich": {
        "zwiccolo": False,
        "triccolo": False,
        "several_declarers": False,
        "quapil": True,
        "trischaken_talon": "last_trick",
        "emperor_trick": False,
        "color_discard_restriction": True,
        "sechserdreier_doubles_valat": True,
        "king_ultimo_by_party": True,
        "valat_takes_game_kontra": True,
        "kontra_in_score": False,
    },
}
"""Named rule tables of Königrufen: ``-o preset=NAME`` or ``{"preset": NAME}`` in a record's options."""
