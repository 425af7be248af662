"""The read handle every analysis function takes: a store directory or an exported DuckDB file.

Either way the same table names answer the same SQL: a store directory is
read through ``ingest.store.open_store`` (views over the Parquet files of the
completed shards, duplicates hidden), an exported ``.duckdb`` file is opened
``read_only`` (its tables carry the same names and columns).  The database
is opened once per ``Store`` and shared: ``connect()`` hands out a cursor of
it, which is cheap and safe to use from one thread each (a dashboard serves
every session from its own thread).  A directory store notices a new state of
the store (another ingest's shards, a rescore's generation: ``StoreLayout.stamp``,
a few ``stat`` calls per cursor) and reopens, so a long-lived handle never
keeps views over files a later ingest deletes; ``refresh()`` reopens at once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import duckdb
import polars as pl

from ingest.layout import StoreLayout, StoreStamp
from ingest.store import open_store


class Store:
    """A store directory or an exported DuckDB file, opened lazily and read only."""

    def __init__(self, source: str | os.PathLike[str]) -> None:
        self.source = Path(source)
        self._db: duckdb.DuckDBPyConnection | None = None
        self._stamp: StoreStamp | None = None
        """The store's stamp when ``_db`` was opened (directory stores)."""
        self._lock = threading.Lock()

    @classmethod
    def of(cls, source: Store | str | os.PathLike[str]) -> Store:
        """``source`` itself when it is a ``Store``, else a new handle on that path."""
        return source if isinstance(source, Store) else cls(source)

    @classmethod
    @contextmanager
    def opened(cls, source: Store | str | os.PathLike[str]) -> Iterator[Store]:
        """``Store.of(source)`` for a ``with`` block, closed at its end only when opened here (a ``Store``
        handed in stays its owner's)."""
        store = cls.of(source)
        if store is source:
            yield store
        else:
            with store:
                yield store

    @property
    def is_file(self) -> bool:
        """Whether the source is an exported DuckDB file rather than a store directory."""
        return self.source.is_file()

    def _database(self) -> duckdb.DuckDBPyConnection:
        with self._lock:
            if self._db is None:
                if self.is_file:
                    self._db = duckdb.connect(str(self.source), read_only=True)
                else:
                    self._stamp = StoreLayout.at(self.source).stamp()
                    self._db = open_store(self.source)
            elif self._stamp is not None and (stamp := StoreLayout.at(self.source).stamp()) != self._stamp:
                # another ingest changed the store: new views; the old database is left to the cursors still
                # using it (closing it would break their queries) and freed with the last of them
                self._stamp = stamp
                self._db = open_store(self.source)
            return self._db

    def connect(self) -> duckdb.DuckDBPyConnection:
        """A new cursor on the store's database: the tables as views (directory) or tables (file)."""
        return self._database().cursor()

    def query(self, sql: str, params: dict[str, Any] | None = None) -> pl.DataFrame:
        """Run one parameterised query (``$name`` placeholders bound from ``params``) into polars."""
        with self.connect() as con:
            return con.sql(sql, params=params or None).pl()

    def has_rows(self, table: str) -> bool:
        """Whether ``table`` exists and holds a row (a solver's table: empty until analysed; absent in an export
        made before it existed)."""
        found = self.query("SELECT count(*) AS n FROM information_schema.tables WHERE table_name = $t", {"t": table})
        return bool(found["n"][0]) and not self.query(f"SELECT 1 FROM {table} LIMIT 1").is_empty()

    def refresh(self) -> None:
        """Forget the open database, so the next query sees shards completed since it was opened."""
        self.close()

    def close(self) -> None:
        """Close the shared database (cursors handed out before stop working)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
                self._stamp = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({str(self.source)!r})"
