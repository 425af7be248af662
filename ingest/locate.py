"""Where the store is: the ``--store`` option, ``$TAROCK_STORE`` or ``data/store``, and whether one is there.

Apart from ``ingest.commands`` (which imports these) so that a command that only needs the path --
``tarock advise`` with a saved model -- finds it without loading the ingest pipeline.
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_STORE = Path("data/store")


def resolve_store(store: str | os.PathLike[str] | None) -> Path:
    """The store directory: the one given, else ``$TAROCK_STORE``, else ``data/store``."""
    if store:
        return Path(store)
    return Path(os.environ.get("TAROCK_STORE") or DEFAULT_STORE)


class NoStore(ValueError):
    """The path names no store: nothing is there, or a directory no ingest has written to."""


def existing_store(store_dir: str | os.PathLike[str], *, exported: bool = False) -> Path:
    """``store_dir`` if it holds a store (a ``CURRENT`` file: ``ingest.layout``), else ``NoStore``.

    A command that reads a store says so rather than answer with the empty tables a missing
    directory reads as (a mistyped ``--store`` looked like an empty store).  ``exported``:
    a DuckDB file written by ``tarock export`` is accepted too (``tarock report`` reads one).
    """
    path = Path(store_dir)
    if path.is_dir() and (path / "CURRENT").is_file():
        return path
    if exported and path.is_file():
        return path
    if path.is_dir():
        raise NoStore(f"no store at {path} (the directory holds no CURRENT file: no ingest has written there)")
    raise NoStore(f"no store at {path}")
