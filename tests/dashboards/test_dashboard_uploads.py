"""Uploads into the store (``dashboards.uploads``) and the server's command line (``dashboards.launch``)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
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
    assert refused.reason.startswith("bomb.jsonl.gz decompresses to more than 1000 bytes, the limit for an upload")
    assert not (tmp_path / "b").exists()


_BOMB = """
import json, resource, sys, zlib
from dashboards import uploads
packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip, fed a MiB at a time: the 50 MB are never held
zeros = bytes(1 << 20)
bomb = b"".join(packer.compress(zeros) for _ in range(50)) + packer.flush()  # 50 MB of zeros in about 50 KB
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = uploads.ingest_uploads([("bomb.json.gz", bomb)], sys.argv[1])
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"limit": uploads.MAX_DECOMPRESSED_BYTES, "grew_kib": after - before, "gz": len(bomb),
                  "refused": [r.reason for r in result.refused], "stored": result.summary is not None}))
"""


@pytest.mark.slow
def test_a_gzip_bomb_is_refused_while_it_inflates(tmp_path: Path) -> None:
    """The inflated size is counted as it inflates: the process's peak memory hardly moves (issue 24)."""
    env = {**os.environ, uploads.INFLATED_MB_ENV: "16"}
    out = subprocess.run([sys.executable, "-c", _BOMB, str(tmp_path / "store")], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    found = json.loads(out)
    assert found["limit"] == 16 << 20 and found["gz"] < 1 << 20 and not found["stored"]
    assert found["refused"] == ["bomb.json.gz decompresses to more than 16 MB, the limit for an upload "
                                "($TAROCK_UPLOAD_MAX_INFLATED_MB): nothing was stored; `tarock ingest` takes "
                                "larger files"]
    assert found["grew_kib"] < 32 * 1024  # a few chunks, never the 50 MB (nor the 16 MB limit and more)
    assert not (tmp_path / "store").exists()


def test_the_inflated_limit_is_256_mb_unless_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(uploads.INFLATED_MB_ENV, raising=False)
    assert uploads._inflated_limit() == 256 << 20
    monkeypatch.setenv(uploads.INFLATED_MB_ENV, "64")
    assert uploads._inflated_limit() == 64 << 20
    monkeypatch.setenv(uploads.INFLATED_MB_ENV, "lots")
    assert uploads._inflated_limit() == 256 << 20


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


def test_an_upload_that_goes_on_with_a_stored_session_rescores_it_whole(tmp_path: Path) -> None:
    """The uploaded file is deleted once ingested; the session's stored deals are what the next upload's
    group reads (ingest.groups), so the radelci carry as in one upload of the whole session."""
    lines = SEED.read_bytes().splitlines(keepends=True)
    store = tmp_path / "store"
    first = uploads.ingest_uploads([("first.jsonl", b"".join(lines[:2]))], str(store)).summary
    second = uploads.ingest_uploads([("second.jsonl", b"".join(lines[2:]))], str(store)).summary
    assert first is not None and second is not None
    assert (first.sessions_rescored, second.sessions_rescored) == (0, 1)
    uploads.ingest_uploads([("whole.jsonl", SEED.read_bytes())], str(tmp_path / "whole"))
    query = "SELECT r.deal_id, r.player, r.score, r.radelci_before, r.radelci_after FROM results r"
    assert sorted(sql(store, query).rows()) == sorted(sql(tmp_path / "whole", query).rows())
