"""How counts and times are written for people: "1 deal", "2 deals", "6 Dec 2026, 21:17 UTC"."""

from __future__ import annotations

from datetime import UTC, datetime


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and the noun it takes: ``noun`` for exactly one, else ``nouns`` (default ``noun + "s"``);
    the count with thousands separated ("1,240 deals")."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"


def moment(iso: object) -> str:
    """An ISO 8601 time as a reader writes it: "2026-12-06T21:17:14+00:00" as "6 Dec 2026, 21:17 UTC" (one
    without a zone is taken as UTC); anything else as it is."""
    try:
        when = datetime.fromisoformat(str(iso))
    except ValueError:
        return str(iso)
    when = when.astimezone(UTC) if when.tzinfo else when
    return f"{when.day} {when:%b %Y, %H:%M} UTC"
