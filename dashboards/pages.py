"""The dashboard's pages, and which of them a server offers: read-only unless uploads are allowed.

The Ingest page writes into the store.  ``tarock dashboard`` binds 127.0.0.1, where only people
on this machine reach it; served on another address (``--host``) it leaves that page out unless
``--allow-uploads`` says otherwise, and ``--read-only`` leaves it out on any address (behind a
reverse proxy on this machine, say: ``dashboards.launch``).  The Ingest page checks the same
switch itself, so a typed ``/ingest`` address never reaches the uploader of a read-only server.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

UPLOADS_ENV = "TAROCK_DASHBOARD_UPLOADS"
"""``1``: the server offers uploads, ``0``: read-only; unset: decided by the address the server binds."""

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
"""Addresses only this machine reaches."""


@dataclass(frozen=True, slots=True)
class PageSpec:
    """One page: its script (under ``dashboards/``), title, icon and address."""

    script: str
    title: str
    icon: str
    url_path: str | None = None
    default: bool = False


PAGES = (
    PageSpec("app_pages/overview.py", "Overview", ":material/dashboard:", default=True),
    PageSpec("app_pages/contracts.py", "Contracts", ":material/bar_chart:", "contracts"),
    PageSpec("app_pages/players.py", "Players", ":material/groups:", "players"),
    PageSpec("app_pages/audit.py", "Audit", ":material/gavel:", "audit"),
    PageSpec("app_pages/replay.py", "Replay", ":material/playing_cards:", "replay"),
    PageSpec("app_pages/whatif.py", "What-if", ":material/compare_arrows:", "whatif"),
    PageSpec("app_pages/hands.py", "Hands", ":material/style:", "hands"),
    PageSpec("app_pages/ingest.py", "Ingest", ":material/upload_file:", "ingest"),
)
WRITES = frozenset({"app_pages/ingest.py"})
"""The pages that change the store: left out of a read-only server."""


def uploads_allowed(host: str | None, allow_uploads: bool | None = None) -> bool:
    """Whether a server bound to ``host`` offers uploads: as ``allow_uploads`` says, else only on a
    loopback address (None: the default address, 127.0.0.1)."""
    if allow_uploads is not None:
        return allow_uploads
    return host is None or host in LOOPBACK


def uploads_enabled() -> bool:
    """Whether this server offers uploads: ``TAROCK_DASHBOARD_UPLOADS``, else by its bind address."""
    said = os.environ.get(UPLOADS_ENV)
    if said in ("0", "1"):
        return said == "1"
    import streamlit as st  # here, not at the top: the CLI imports this module without starting Streamlit

    return uploads_allowed(st.get_option("server.address") or None)


def page_specs(uploads: bool) -> list[PageSpec]:
    """The pages a server offers: all of them, or without the ones that write (``uploads`` False)."""
    return [spec for spec in PAGES if uploads or spec.script not in WRITES]
