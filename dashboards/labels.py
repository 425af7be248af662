"""How names from the store are shown: contract labels, percentages, signed scores."""

from __future__ import annotations

from tarock.rules import rulesets


def contract_label(name: str | None) -> str:
    """The contract's display name in either ruleset ("Solo tri", "Berač", "Piccolo ouvert")."""
    return "—" if name is None else rulesets.contract_label(name)


def percent(value: float | None, digits: int = 1) -> str:
    """``0.125`` as ``12.5 %``; an unknown rate as a dash."""
    return "—" if value is None else f"{100 * value:.{digits}f} %"


_MARKDOWN_SPECIALS = set("\\`*_{}[]<>()#+-.!|~:$")


def plain(text: object) -> str:
    """``text`` for a place Streamlit renders as Markdown (labels, messages): every special character
    backslash-escaped, so names and ids from records or the URL show as typed and never become links,
    images or markup."""
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIALS else ch for ch in str(text))
