"""How names from the store are shown: contract labels, percentages, signed scores."""

from __future__ import annotations

from tarock.rules import rulesets
from tarock.rules.slovenian.contracts import speaking_order
from tarock.rules.slovenian.options import SlovenianOptions

DISPUTED = "A_SCORE_MISMATCH"
"""The finding that says a deal's recorded score sheet disagrees with the recomputed score."""


def deal_status(status: str, codes: object) -> tuple[str, str]:
    """(icon, words) for a deal's status line: a deal whose only trouble is a recorded score that differs
    from the recomputed one is "disputed", not "ok"."""
    if status == "ok" and DISPUTED in set(codes):  # type: ignore[call-overload]
        return "⚖", "disputed: the recorded score differs from the recomputed one"
    return {"ok": "✓", "renons": "⚠", "error": "✖"}.get(status, ""), status


def pool_label(ruleset: str, n_players: int) -> str:
    """A table of play in words, as ratings and win rates are kept apart by it: "Slovenian, 4 players"."""
    return f"{rulesets.ruleset_label(ruleset)}, {n_players} players"


def contract_label(name: str | None) -> str:
    """The contract's display name in either ruleset ("Solo tri", "Berač", "Piccolo ouvert")."""
    return "—" if name is None else rulesets.contract_label(name)


PERCENT_D3 = ".1%"
"""The one percentage format, as charts write it (d3): ``0.625`` as ``62.5%``."""
PERCENT_PRINTF = "%.1f%%"
"""The same format for a table column holding percentages (``widgets.table`` scales a rate column by 100)."""


def percent(value: float | None, digits: int = 1) -> str:
    """``0.625`` as ``62.5%`` (the format of every percentage the dashboard shows); an unknown rate blank."""
    return "" if value is None else f"{100 * value:.{digits}f}%"


_MARKDOWN_SPECIALS = set("\\`*_{}[]<>()#+-.!|~:$")


def plain(text: object) -> str:
    """``text`` for a place Streamlit renders as Markdown (labels, messages): every special character
    backslash-escaped, so names and ids from records or the URL show as typed and never become links,
    images or markup."""
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIALS else ch for ch in str(text))


def seat_order_caption(n_players: int = 4) -> str:
    """What the seats mean, from the rules rather than fixed text: the playing order, and who speaks first and
    last in the Slovenian bidding under the default ``bidding_order`` (issue 23)."""
    seats = rulesets.SEATS[n_players]
    options = SlovenianOptions()
    order = [seats[i] for i in speaking_order(n_players, options)]
    return (f"Seats in playing order, {' → '.join(seats)}. In the Slovenian bidding (default "
            f"bidding_order: {options.bidding_order}) {order[0]} speaks first and {order[-1]} last.")
