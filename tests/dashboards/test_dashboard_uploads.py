"""Uploads into the store (``dashboards.uploads``) and the server's command line (``dashboards.launch``)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from dashboards import uploads
from dashboards.launch import MAX_UPLOAD_MB, dashboard_env, streamlit_command
from ingest.store import sql
from tests.support.paths import ROOT

SEED = ROOT / "data" / "examples" / "seed_session.jsonl"


def stored_deals(store: Path) -> int:
    return int(sql(store, "SELECT count(*) AS n FROM deals")["n"][0])


def test_a_gzipped_record_file_is_stored(tmp_path: Path) -> None:
    result = uploads.ingest_uploads([("seed.jsonl.gz", gzip.compress(SEED.read_bytes()))], str(tmp_path / "store"))
    assert result.refused == [] and result.summary is not None
    assert (result.summary.stored, result.summary.rejected) == (4, 0)
    assert stored_deals(tmp_path / "store") == 4
    assert Path(result.stored_as["seed.jsonl.gz"]).name == "seed.jsonl.gz"
    assert not Path(result.stored_as["seed.jsonl.gz"]).exists()  # the upload itself is not kept


@pytest.mark.parametrize(("name", "content", "reason"), [
    ("notes.txt", b"{}", "the name must end in"),
    ("empty.jsonl", b"", "is empty"),
    ("table.json", b"deal,contract\n1,tri\n", "no tarock record could be read"),
    ("broken.jsonl.gz", b"not gzip at all", "no tarock record could be read"),
])
def test_files_that_are_not_record_files_store_nothing(tmp_path: Path, name: str, content: bytes,
                                                       reason: str) -> None:
    store = tmp_path / "store"
    result = uploads.ingest_uploads([(name, content)], str(store))
    assert result.summary is None and len(result.refused) == 1
    assert reason in result.refused[0].reason
    assert not store.exists()


def test_size_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uploads, "MAX_UPLOAD_BYTES", 100)
    [refused] = uploads.ingest_uploads([("seed.jsonl", SEED.read_bytes())], str(tmp_path / "a")).refused
    assert refused.reason == "seed.jsonl is larger than 100 bytes"
    monkeypatch.setattr(uploads, "MAX_UPLOAD_BYTES", 1 << 20)
    monkeypatch.setattr(uploads, "MAX_DECOMPRESSED_BYTES", 1000)
    bomb = gzip.compress(b"\n" * 100_000)  # 100 KB of blank lines from a few hundred bytes
    [refused] = uploads.ingest_uploads([("bomb.jsonl.gz", bomb)], str(tmp_path / "b")).refused
    assert refused.reason == "bomb.jsonl.gz decompresses to more than 1000 bytes"
    assert not (tmp_path / "b").exists()


def test_upload_names_are_made_safe() -> None:
    assert uploads.safe_name("../../etc/passwd.json") == "passwd.json"
    assert uploads.safe_name("C:\\Users\\ana\\my deals (1).jsonl") == "my_deals_1_.jsonl"


def test_the_server_is_local_headless_and_quiet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    command = streamlit_command(8600)
    options = dict(zip(command[5::2], command[6::2]))
    assert command[1:4] == ["-m", "streamlit", "run"] and command[4].endswith("dashboards/app.py")
    assert options == {
        "--server.headless": "true", "--server.address": "127.0.0.1", "--server.port": "8600",
        "--server.fileWatcherType": "none", "--server.maxUploadSize": str(MAX_UPLOAD_MB),
        "--browser.gatherUsageStats": "false", "--client.toolbarMode": "viewer",
    }
    monkeypatch.setenv("TAROCK_STORE", "/elsewhere")
    assert dashboard_env(None)["TAROCK_STORE"] == "/elsewhere"
    assert dashboard_env(tmp_path / "s")["TAROCK_STORE"] == str((tmp_path / "s").resolve())
