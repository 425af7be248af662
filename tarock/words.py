"""How counts are written for people: "1 deal", "2 deals"."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and the noun it takes: ``noun`` for exactly one, else ``nouns`` (default ``noun + "s"``);
    the count with thousands separated ("1,240 deals")."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"
