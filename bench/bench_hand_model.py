"""Hand model figures for the closing note: held-out Brier score and log loss against the contract's base rate,
the gradient-boosted alternative beside them, and the reliability diagram's bins.

    .venv/bin/python bench/bench_hand_model.py [--simulated 200000] [--min-deals 500]
    .venv/bin/python bench/bench_hand_model.py --advise-only STORE

The store is the bundled sample (``data/sample``) plus simulated deals (``tarock simulate``, written once
into ``bench/out/``, git-ignored, and kept between runs): 75 % Slovenian 4 players, 15 % Slovenian 3
players, 10 % Königrufen, in sessions of 20.  Every fifth deal by content hash is held out
(``analysis.hand_fit.HELD_OUT``).  Printed per contract with at least ``--min-deals`` deals: the held-out
deals, Brier score and log loss of the model, of the base rate (the contract's win rate on the fitted
deals), and of one HistGradientBoostingClassifier over every contract; then the reliability bins of the
held-out deals; then how long ``tarock advise`` takes with the model saved (wall and CPU seconds: on a
shared machine the CPU figure is the one that stays put), for the hands of ``ADVISED`` -- the play-outs of every
contract included; ``--advise-only STORE`` times just that, on any store.  Tests never assert these.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
SHARES = (("slovenian", 4, 0.75), ("slovenian", 3, 0.15), ("koenigrufen", 4, 0.10))
SESSION = 20


def simulated_files(total: int) -> list[Path]:
    """The simulated record files of ``total`` deals (made once, with ``tarock simulate``)."""
    files = []
    for ruleset, players, share in SHARES:
        sessions = max(1, round(total * share / SESSION))
        path = OUT / f"hands-{ruleset}-{players}-{sessions * SESSION}.jsonl.gz"
        if not path.exists():
            started = time.perf_counter()
            subprocess.run([str(ROOT / ".venv" / "bin" / "tarock"), "simulate", "--out", str(path), "--ruleset",
                            ruleset, "--players", str(players), "--sessions", str(sessions), "--deals-per-session",
                            str(SESSION), "--seed", "25", "--workers", "2"], check=True)
            print(f"simulated {sessions * SESSION:,} {ruleset} deals of {players} players in "
                  f"{time.perf_counter() - started:.0f}s", flush=True)
        files.append(path)
    return files


def main() -> None:
    from analysis import hand_fit
    from analysis.store import Store
    from ingest.commands import ingest

    ap = argparse.ArgumentParser()
    ap.add_argument("--simulated", type=int, default=200_000)
    ap.add_argument("--min-deals", type=int, default=500)
    ap.add_argument("--advise-only", type=Path, metavar="STORE",
                    help="only time `tarock advise` on this store (its model fitted first when none is saved)")
    args = ap.parse_args()
    if args.advise_only is not None:
        from analysis.hand_model import load, model_dir

        if load(model_dir(args.advise_only)) is None:
            hand_fit.fit_store(args.advise_only)
        time_advise(args.advise_only)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    inputs = OUT / f"hands-inputs-{args.simulated}"
    shutil.rmtree(inputs, ignore_errors=True)
    inputs.mkdir()
    for path in [*sorted((ROOT / "data" / "sample").glob("*.jsonl.gz")), *simulated_files(args.simulated)]:
        (inputs / path.name).symlink_to(path)
    store = OUT / f"hands-store-{args.simulated}"
    if not (store / "CURRENT").exists():
        started = time.perf_counter()
        summary = ingest([inputs], store, executor="local:2", quiet=True)
        print(f"ingested {summary.stored:,} deals in {time.perf_counter() - started:.0f}s", flush=True)

    pl.Config.set_tbl_rows(100)
    pl.Config.set_tbl_cols(20)
    pl.Config.set_tbl_width_chars(200)
    pl.Config.set_float_precision(4)
    with Store(store) as handle:
        frame = hand_fit.training_frame(handle)
        started = time.perf_counter()
        compared = hand_fit.compare(frame)
        print(f"{frame.height:,} declared deals with hands ({int(frame['held_out'].sum()):,} held out); "
              f"models fitted and compared in {time.perf_counter() - started:.0f}s")
        counts = frame.group_by("ruleset", "n_players", "contract").agg(deals=pl.len())
        table = (compared.join(counts, on=["ruleset", "n_players", "contract"])
                 .filter(pl.col("deals") >= args.min_deals).sort("deals", descending=True)
                 .select("ruleset", "n_players", "contract", "deals", "held_out", "brier", "brier_base",
                         "brier_boosted", "log_loss", "log_loss_base", "log_loss_boosted"))
        print(f"Held-out scores per contract with at least {args.min_deals} deals (lower is better):")
        print(table)
        beats = table.filter(pl.col("brier") < pl.col("brier_base")).height
        print(f"the model's Brier score is below the base rate's for {beats} of {table.height} contracts; "
              f"below the boosted model's for "
              f"{table.filter(pl.col('brier') < pl.col('brier_boosted')).height} of {table.height}")
        model = hand_fit.fit(frame.filter(~pl.col("held_out")))
        print("Reliability diagram of the held-out deals (every contract with an estimate):")
        print(hand_fit.reliability(model, frame.filter(pl.col("held_out"))))
    hand_fit.fit_store(store)
    time_advise(store)


ADVISED = (("slovenian", 4, "T22 T21 T20 T19 T18 T17 T16 T15 HK DK SK CK"),
           ("slovenian", 4, "T2 T3 H1 H2 H3 D1 D2 S7 S8 C7 C8 C9"),
           ("slovenian", 4, "T21 T20 T15 T12 T8 T5 HK H3 DQ S7 C9 CK"),
           ("slovenian", 3, "T21 T20 T19 T15 T12 T8 T5 T2 HK H3 DQ DK S7 C9 CK C10"))
"""The hands ``time_advise`` asks about: the strong and the weak hand of issue 37, a middling one, a 3-player one."""


def time_advise(store: Path) -> None:
    """Wall and CPU seconds of ``tarock advise HAND`` with the model saved beside ``store`` (the whole command: the
    interpreter's start, the imports, the store's hands like this one, the play-outs of every contract)."""
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    for ruleset, players, hand in ADVISED:
        for _ in range(3):
            started, cpu = time.perf_counter(), _children_cpu()
            subprocess.run([sys.executable, "-m", "tarock.cli", "advise", "--store", str(store), "-f", "json",
                            "--ruleset", ruleset, "--players", str(players), *hand.split()],
                           check=True, stdout=subprocess.DEVNULL, env=env)
            print(f"tarock advise {hand} ({players} players) with the model saved: "
                  f"{time.perf_counter() - started:.2f}s wall, {_children_cpu() - cpu:.2f}s CPU "
                  f"(load average {os.getloadavg()[0]:.1f})", flush=True)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    sys.exit(main())
