"""Find the record files to ingest and fingerprint each one.

A fingerprint says "this is the same file as last time" without reading all
of it: size, modification time and a SHA-256 of the first and last MiB (of
the whole file when it is at most 2 MiB).  It goes into every shard key, so
an unchanged file is skipped on a re-run and a changed one is ingested anew.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tarock.formats.reader import SkipNotice, iter_record_files, open_regular

_EDGE = 1 << 20
"""Bytes hashed at each end of a large file."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A record file to ingest.

    ``path`` is the path as found (it becomes ``source_file`` in the store,
    as ``tarock check`` prints it); ``abspath`` identifies the file across
    runs started from other directories.  ``fingerprint`` is ``None`` when
    the file cannot be read (the reader turns that into a reject).
    """

    path: str
    abspath: str
    size: int
    fingerprint: str | None


def fingerprint(path: str | os.PathLike[str]) -> tuple[int, str | None]:
    """(size, fingerprint) of a file; fingerprint None when it cannot be read.

    Only a regular file is opened (``open_regular``: a FIFO would block the open, a device
    such as ``/dev/zero`` never ends) and at most ``2 * _EDGE`` bytes of it are read; any
    other path gets None, and the reader turns it into a reject naming it.
    """
    try:
        with open_regular(path) as fh:
            st = os.fstat(fh.fileno())
            digest = hashlib.sha256()
            if st.st_size <= 2 * _EDGE:
                digest.update(fh.read(2 * _EDGE))
            else:
                digest.update(fh.read(_EDGE))
                fh.seek(-_EDGE, os.SEEK_END)
                digest.update(fh.read(_EDGE))
    except OSError:
        return 0, None
    return st.st_size, f"{st.st_size}:{st.st_mtime_ns}:{digest.hexdigest()}"


def discover(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
             on_skip: SkipNotice | None = None) -> list[SourceFile]:
    """The record files under ``paths`` (directories searched recursively), fingerprinted.

    Directories contribute their regular ``.json``/``.jsonl``/``.ndjson``/``.trk``
    files and the ``.gz`` of those, sorted, and tell ``on_skip`` of every other
    file; a file named directly is taken whatever its name or kind (see
    ``tarock.formats.reader.iter_record_files``).
    """
    found = []
    for path in iter_record_files(paths, on_skip):
        size, fp = fingerprint(path)
        found.append(SourceFile(str(path), os.path.abspath(path), size, fp))
    return found


JSON_LINES_SUFFIXES = (".jsonl", ".ndjson")
"""Files holding one record per line (also with ``.gz``): the only ones cut into several shards."""


def is_json_lines(path: str) -> bool:
    """Whether a file holds one record per line, so any line range of it can be read on its own."""
    return Path(path).name.removesuffix(".gz").endswith(JSON_LINES_SUFFIXES)
