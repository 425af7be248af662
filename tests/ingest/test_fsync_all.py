"""``ingest.writer.fsync_all``: a shard's files and directories made durable together, errors not lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.writer import fsync_all


def test_files_and_directories_are_synced_together(tmp_path: Path) -> None:
    files = [tmp_path / f"part-{i}.parquet" for i in range(12)]
    for i, path in enumerate(files):
        path.write_bytes(bytes([i]) * 1000)
    folders = [tmp_path / "a", tmp_path / "b"]
    for folder in folders:
        folder.mkdir()
    fsync_all([*files, *folders])  # a file opened as a directory (or the reverse) would raise
    assert [p.read_bytes() for p in files] == [bytes([i]) * 1000 for i in range(12)]  # untouched


@pytest.mark.parametrize("count", [1, 5])
def test_a_path_that_cannot_be_synced_raises(tmp_path: Path, count: int) -> None:
    """One path alone (no threads) or among others: its error reaches the caller, who then publishes nothing."""
    present = [tmp_path / f"f{i}" for i in range(count - 1)]
    for path in present:
        path.write_bytes(b"x")
    missing = tmp_path / "gone.parquet"
    with pytest.raises(FileNotFoundError) as raised:
        fsync_all([*present, missing])
    assert raised.value.filename == str(missing)
