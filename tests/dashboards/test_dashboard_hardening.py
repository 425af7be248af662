"""The dashboard under hostile input (issue 24, fault 7): URL junk, shared upload directories, a missing seq.

* ``/replay?deal=…&step=²`` raised ``ValueError`` (``str.isdigit`` accepts '²', ``int`` does not): junk
  in any URL parameter is now ignored with a notice, never a traceback;
* uploads were written to ``/tmp/tarock-uploads/<hash>/<name>``, a predictable shared path, following a
  symbolic link planted there; now each batch goes to a private directory (``mkdtemp``, 0700), the file
  is created exclusively without following links, and the directory is removed afterwards, also when the
  ingest fails;
* the Replay header and the deal picker said ``#None`` for a deal with a session but no ``seq``.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import orjson
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import uploads
from ingest.commands import ingest
from tests.support.dashboard_fixture import EXAMPLES, build_store
from tests.support.paths import ROOT

APP = ROOT / "dashboards" / "app.py"
SEED = EXAMPLES / "seed_session.jsonl"


@pytest.fixture(scope="module")
def fixture_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = build_store(tmp_path_factory.mktemp("hardening"))
    no_seq = orjson.loads(SEED.read_bytes().splitlines()[0])
    no_seq.pop("seq")
    no_seq |= {"id": "no-seq-1", "session": "loose-session"}
    extra = store.parent / "no_seq.json"
    extra.write_bytes(orjson.dumps(no_seq))
    assert ingest([extra], store, executor="local:1", quiet=True).stored == 1
    return store


@pytest.fixture(autouse=True)
def env(fixture_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAROCK_DASHBOARD_WARMUP", "0")
    monkeypatch.setenv("TAROCK_STORE", str(fixture_store))


def open_at(page: str, **query: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params.update(query)
    at.switch_page(page)
    at.run()
    return at


def notices(at: AppTest) -> str:
    return "\n".join([t.value for t in at.toast] + [w.value for w in at.warning])


@pytest.mark.parametrize("query", [
    {"deal": "example-r_follow_suit", "step": "²"},
    {"deal": "example-r_follow_suit", "step": "٣"},  # an Arabic-Indic digit: isdigit() and int() accept it
    {"deal": "example-r_follow_suit", "step": "9" * 40},
    {"deal": "example-r_follow_suit", "step": "-1"},
    {"deal": "example-r_follow_suit", "step": "1e3"},
])
def test_junk_steps_fall_back_with_a_notice(query: dict[str, str]) -> None:
    at = open_at("app_pages/replay.py", **query)
    assert not at.exception, [e.message for e in at.exception]
    assert at.subheader, "the replay is shown"
    if query["step"] != "9" * 40:  # a step past the end shows the end (a deep link may say so)
        assert "step" in notices(at)


@pytest.mark.parametrize(("page", "query"), [
    ("app_pages/replay.py", {"deal": "no-such-deal\x00", "step": "2"}),
    ("app_pages/overview.py", {"players": "7", "ruleset": "<script>", "from": "2026-13-45", "to": "²"}),
    ("app_pages/contracts.py", {"player": "\x1b[2J", "from": "9999999-01-01"}),
])
def test_junk_in_any_parameter_never_raises(page: str, query: dict[str, str]) -> None:
    at = open_at(page, **query)
    assert not at.exception, [e.message for e in at.exception]
    assert at.title


def test_a_deal_with_a_session_but_no_seq() -> None:
    at = open_at("app_pages/replay.py", deal="no-seq-1", step="0")
    assert not at.exception, [e.message for e in at.exception]
    shown = "\n".join(element.proto.body for element in at.get("html"))
    assert "session loose-session" in shown and "#None" not in shown
    at.text_input(key="q_session").input("loose-session").run()
    labels = at.selectbox(key="replay_pick").options
    assert labels and all("#None" not in label for label in labels), labels


def test_uploads_go_to_a_private_directory_never_through_a_planted_link(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    data = SEED.read_bytes()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    import hashlib
    planted = shared / "tarock-uploads" / hashlib.sha256(data).hexdigest()[:16]
    planted.mkdir(parents=True)
    (planted / "seed.jsonl").symlink_to(victim)  # where the old code wrote, following the link

    seen: dict[str, int] = {}
    real_ingest = uploads.ingest

    def spy(paths, store_dir, **kwargs):  # type: ignore[no-untyped-def]
        folder = Path(paths[0]).parent
        while folder.parent != shared:
            folder = folder.parent
        seen["mode"] = stat.S_IMODE(folder.stat().st_mode)
        seen["file_links"] = int(Path(paths[0]).is_symlink())
        return real_ingest(paths, store_dir, **kwargs)

    monkeypatch.setattr(uploads, "ingest", spy)
    result = uploads.ingest_uploads([("seed.jsonl", data)], str(tmp_path / "store"))
    assert result.summary is not None and result.summary.stored == 4
    assert victim.read_text() == "precious"
    assert seen == {"mode": 0o700, "file_links": 0}
    assert sorted(p.name for p in shared.iterdir()) == ["tarock-uploads"]  # the private directory is gone


def test_uploads_are_removed_when_the_ingest_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    def fail(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("the store broke")

    monkeypatch.setattr(uploads, "ingest", fail)
    with pytest.raises(RuntimeError):
        uploads.ingest_uploads([("seed.jsonl", SEED.read_bytes())], str(tmp_path / "store"))
    assert list(tmp_path.iterdir()) == []


def test_two_uploads_with_one_name_are_both_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    os.mkdir(tmp_path / "tmp")
    lines = SEED.read_bytes().splitlines(keepends=True)
    result = uploads.ingest_uploads([("a/deals.jsonl", b"".join(lines[:2])), ("b/deals.jsonl", b"".join(lines[2:]))],
                                    str(tmp_path / "store"))
    assert result.summary is not None and result.summary.stored == 4
    assert len(set(result.stored_as.values())) == 2
