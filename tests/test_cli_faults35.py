"""Issue 35: what an adversarial user found, each a message and an exit code instead of damage or a traceback.

Every test runs the real command on real files in a temporary directory; the numbers are the issue's faults.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ingest.commands import ingest
from tarock.cli import app
from tests.support.paths import EXAMPLES

SEED = EXAMPLES / "seed_session.jsonl"
runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def seed_lines() -> list[str]:
    return SEED.read_text().splitlines()


@pytest.fixture
def store(tmp_path: Path) -> Path:
    store = tmp_path / "store"
    ingest([SEED], store, executor="local:1", quiet=True)
    return store


def test_10_a_rulesets_defaults_table_is_no_options(store: Path) -> None:
    """``--rules slovenian`` is the ruleset's defaults: the store ingested with no options takes it."""
    code, out = run("ingest", str(SEED), "--store", str(store), "--rules", "slovenian", "--quiet")
    assert code == 0, out
    assert "other options" not in out
    assert len(list(store.glob("gen-*"))) == 1
    code, out = run("ingest", str(SEED), "--store", str(store), "--rules", "openspiel", "--quiet")
    assert code == 2 and "other options" in out


def test_12_a_score_past_64_bits_names_the_range(tmp_path: Path) -> None:
    """``10**30`` reaches the codec as a float (orjson's reading): the message names the allowed range."""
    obj = json.loads(seed_lines()[0])
    obj["recorded"] = {"scores": {"Ana": 10**30}}
    records = tmp_path / "big.jsonl"
    records.write_text(json.dumps(obj) + "\n")
    code, out = run("check", str(records))
    assert code == 1, out
    assert "E_PARSE" in out
    assert "recorded.scores.Ana must be between -1000000000 and 1000000000, not 1e+30" in out


RULES_COMMANDS = [
    ["rules", "show", "{table}"],
    ["score", "--rules", "{table}", str(SEED)],
    ["check", "--rules", "{table}", str(SEED)],
    ["ingest", "--rules", "{table}", str(SEED), "--store", "{tmp}/store", "--quiet"],
]


def run_limited(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``tarock ARGS`` in its own process, bounded in time and memory: reading ``/dev/zero`` whole fails
    fast instead of filling the machine, a FIFO's wait ends at the timeout."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    return subprocess.run([sys.executable, "-m", "tarock.cli", *args], capture_output=True, text=True,
                          timeout=60, preexec_fn=limit, cwd=tmp_path)


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
@pytest.mark.parametrize("command", RULES_COMMANDS, ids=lambda c: c[0])
def test_6_a_rules_table_that_is_no_regular_file_is_refused(tmp_path: Path, kind: str, command: list[str]) -> None:
    table = tmp_path / "house.toml"
    if kind == "fifo":
        os.mkfifo(table)
    else:
        table.symlink_to("/dev/zero")
    args = [a.replace("{table}", str(table)).replace("{tmp}", str(tmp_path)) for a in command]
    done = run_limited(args, tmp_path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"tarock: {table}: the file is {'a named pipe (FIFO)' if kind == 'fifo' else 'a character device'}, "
        "not a regular file: only regular files are read"]
    assert not (tmp_path / "store").exists()


@pytest.mark.parametrize(("text", "message"), [
    (b'ruleset = ["slovenian"]\n', "ruleset = ['slovenian'] is not allowed; allowed: 'slovenian', 'koenigrufen'"),
    (b"ruleset = {a = 1}\n", "ruleset = {'a': 1} is not allowed; allowed: 'slovenian', 'koenigrufen'"),
    (b'ruleset = "slovenian"\nname = "Caf\xe9"\n', "not valid TOML (not UTF-8: byte 0xe9 at offset 33)"),
])
@pytest.mark.parametrize("command", RULES_COMMANDS, ids=lambda c: c[0])
def test_6_a_bad_rules_table_names_the_file_and_the_key(tmp_path: Path, text: bytes, message: str,
                                                         command: list[str]) -> None:
    table = tmp_path / "house.toml"
    table.write_bytes(text)
    args = [a.replace("{table}", str(table)).replace("{tmp}", str(tmp_path)) for a in command]
    code, out = run(*args)
    assert code == 2, out
    assert out.strip().splitlines() == [f"tarock: {table}: {message}"]
    assert not (tmp_path / "store").exists()


@pytest.mark.parametrize("broken_only", [False, True], ids=["with-sessions", "broken-line-only"])
def test_9_compare_reports_a_broken_line_as_score_does(tmp_path: Path, broken_only: bool) -> None:
    records = tmp_path / "records.jsonl"
    lines = [] if broken_only else seed_lines()
    records.write_text("\n".join([*lines, '{"format": "tarock-record/1", "id": ']) + "\n")
    code, plain = run("score", str(records))
    e_parse = [line for line in plain.splitlines() if "E_PARSE" in line]
    assert code == 1 and len(e_parse) == 1 and f"E_PARSE line {len(lines) + 1} is not valid JSON" in e_parse[0]
    code, compared = run("score", "--compare", "slovenian,openspiel", str(records))
    assert code == 1, compared
    assert [line for line in compared.splitlines() if "E_PARSE" in line] == e_parse
    for fmt in ("json", "csv"):
        assert run("score", "-f", fmt, str(records))[0] == run("score", "--compare", "slovenian,openspiel",
                                                                "-f", fmt, str(records))[0] == 1


def store_files(store: Path) -> dict[str, bytes]:
    return {str(p.relative_to(store)): p.read_bytes() for p in sorted(store.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("inside", ["CURRENT", "new.duckdb", "gen-dir/x.duckdb", "via-link", "link-to-store/x.duckdb"])
def test_1_export_refuses_a_target_inside_the_store(store: Path, tmp_path: Path, inside: str) -> None:
    before = store_files(store)
    (tmp_path / "via-link").symlink_to(store / "CURRENT")
    (tmp_path / "link-to-store").symlink_to(store)
    generation = next(store.glob("gen-*")).name
    target = {"CURRENT": store / "CURRENT", "new.duckdb": store / "new.duckdb",
              "gen-dir/x.duckdb": store / generation / "x.duckdb", "via-link": tmp_path / "via-link",
              "link-to-store/x.duckdb": tmp_path / "link-to-store" / "x.duckdb"}[inside]
    code, out = run("export", "--duckdb", str(target), "--store", str(store))
    assert code == 2
    assert out.splitlines() == [f"tarock: {target} is inside the store {store}: write the DuckDB file outside it"]
    assert store_files(store) == before
    assert run("sql", "SELECT count(*) FROM deals", "--store", str(store), "-f", "csv")[0] == 0


@pytest.mark.parametrize("where", ["under-a-file", "proc"])
def test_7d_export_to_an_unwritable_place_is_one_line(store: Path, tmp_path: Path, where: str) -> None:
    (tmp_path / "a-file").write_text("")
    target = tmp_path / "a-file" / "x.duckdb" if where == "under-a-file" else Path("/proc/x.duckdb")
    code, out = run("export", "--duckdb", str(target), "--store", str(store))
    assert code == 2
    assert len(out.splitlines()) == 1 and out.startswith(f"tarock: cannot write {target}: "), out
    assert (tmp_path / "a-file").read_text() == ""


@pytest.fixture
def immutable(tmp_path: Path) -> Iterator[Callable[[Path], None]]:
    """Make a directory tree read-only for root too (``chattr +i``: root's writes fail with EPERM, where a
    ``chmod -w`` does not stop root); undone after the test.  Skipped where the file system has no such flag."""
    made: list[Path] = []

    def freeze(path: Path) -> None:
        done = subprocess.run(["chattr", "-R", "+i", str(path)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(f"chattr +i is not available here: {done.stderr.decode().strip()}")
        made.append(path)
        with pytest.raises(PermissionError):
            (path / "probe").write_text("")

    yield freeze
    for path in made:
        subprocess.run(["chattr", "-R", "-i", str(path)], check=True)


@pytest.mark.parametrize("command", [["ingest", str(EXAMPLES / "koenigrufen_session.jsonl")], ["ratings", "rebuild"]],
                         ids=lambda c: c[0])
def test_7b_a_read_only_store_is_one_line(store: Path, immutable: Callable[[Path], None], command: list[str]) -> None:
    immutable(store)
    before = store_files(store)
    code, out = run(*command, "--store", str(store))
    assert code == 2
    assert len(out.splitlines()) == 1, out
    assert out.startswith(f"tarock: cannot write the store {store}: Operation not permitted (")
    assert store_files(store) == before


@pytest.mark.parametrize("store_arg", ["a-file", "a-file/store"])
def test_7c_a_store_that_is_a_regular_file_is_one_line(tmp_path: Path, store_arg: str) -> None:
    (tmp_path / "a-file").write_text("mine\n")
    target = tmp_path / store_arg
    code, out = run("ingest", str(SEED), "--store", str(target))
    assert code == 2
    assert out.splitlines() == [f"tarock: cannot write the store {target}: a file stands where a directory is "
                                f"needed ({target})"]
    assert (tmp_path / "a-file").read_text() == "mine\n"


def test_7f_a_derived_step_that_fails_is_one_line_and_keeps_the_ingests_exit(tmp_path: Path) -> None:
    """polars that cannot be imported (a real import failure: a broken package first on the path) fails the
    ratings and totals, not the ingest: its deals are stored and its exit status is 0."""
    broken = tmp_path / "broken" / "polars"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('raise ImportError("polars cannot load here")\n')
    store = tmp_path / "store"
    done = subprocess.run([sys.executable, "-m", "tarock.cli", "ingest", str(SEED), "--store", str(store),
                           "--executor", "local:1", "--quiet"], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(broken.parent)})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "read 4 = stored 4 + rejected 0" in done.stderr
    assert [line for line in done.stderr.splitlines() if line.startswith("tarock:")] == [
                                        "tarock: ratings not updated: polars cannot load here",
                                        "tarock: totals not updated: polars cannot load here"]
    code, out = run("sql", "SELECT count(*) AS n FROM deals", "--store", str(store), "-f", "csv")
    assert code == 0 and out.splitlines() == ["n", "4"]


@pytest.mark.parametrize("date", ["9999-12-31", "0001-01-02"])
def test_7e_the_calendar_draws_the_first_and_last_years(tmp_path: Path, date: str) -> None:
    """The weeks around 9999-12-31 (and 0001-01-01) reach past what a Python date holds."""
    obj = json.loads(seed_lines()[0])
    obj["date"] = date
    records = tmp_path / "far.jsonl"
    records.write_text(json.dumps(obj) + "\n")
    store = tmp_path / "store"
    ingest([records], store, executor="local:1", quiet=True)
    code, out = run("report", "--calendar", "Ana", "--store", str(store))
    assert code == 0, out
    assert out.splitlines()[1] == date[:4].lstrip("0")
    assert f"best day {date}: +40 over 1 deals" in out


def test_7a_a_record_nested_a_thousand_deep_is_one_finding(tmp_path: Path) -> None:
    """A key the fast path skips unread, nested 1,000 brackets deep, beside a session's records: one E_PARSE
    finding for that record and the session's deals checked (and stored) as ever."""
    lines = seed_lines()
    deep = lines[0].replace('"id": "seed-session-hand-1"', '"id": "deep", "events": ' + "[" * 1000 + "]" * 1000)
    records = tmp_path / "deep.jsonl"
    records.write_text("\n".join([*lines[:2], deep, *lines[2:]]) + "\n")
    code, out = run("check", str(records))
    assert code == 1, out
    assert out.splitlines() == [f"{records}:3 -: E_PARSE line 3 nests JSON deeper than 64 levels",
                                "5 deals: 4 ok, 0 renons, 1 error; 1 finding"]
    code, out = run("ingest", str(records), "--store", str(tmp_path / "store"), "--executor", "local:1")
    assert code == 0, out
    assert "read 5 = stored 4 + rejected 1" in out and "Traceback" not in out


AMBIGUOUS_SK = "'sk' is ambiguous: SK is the king of spades, T22 (or Škis) the 22nd tarok"


def test_11_advise_refuses_the_ambiguous_sk(store: Path) -> None:
    hand = ["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11"]
    code, out = run("advise", *hand, "sk", "--players", "4", "--store", str(store))
    assert code == 2
    assert " ".join(out.replace("│", " ").split()).count(AMBIGUOUS_SK) == 1, out


@pytest.mark.parametrize("suffix", ["jsonl", "trk"])
def test_11_a_record_with_the_ambiguous_sk_is_rejected(tmp_path: Path, suffix: str) -> None:
    """Ana holds SK in the seed session's first deal: ``sk`` there is E_PARSE naming both meanings, while the
    documented spellings (``SK``, ``T22``, ``Škis``, lower-case codes of other cards) still read."""
    canonical = tmp_path / f"seed.{suffix}"
    assert run("convert", str(SEED), str(canonical))[0] == 0
    text = canonical.read_text()
    first = text.index("SK")
    records = tmp_path / f"sk.{suffix}"
    records.write_text(text[:first] + "sk" + text[first + 2:])
    code, out = run("check", str(records))
    assert code == 1
    assert out.count("E_PARSE") == 1 and AMBIGUOUS_SK in out, out
    kept = tmp_path / f"kept.{suffix}"
    kept.write_text(text.replace("T22", "Škis", 1).replace("C10", "c10", 1))
    code, out = run("check", str(kept))
    assert code == run("check", str(canonical))[0] and "E_PARSE" not in out, out
