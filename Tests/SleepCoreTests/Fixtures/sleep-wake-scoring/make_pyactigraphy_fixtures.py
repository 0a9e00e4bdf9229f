"""Make the pyActigraphy 1.2.2 reference labels used by ScorerReferenceTests.swift.

Run with a Python that has pyActigraphy 1.2.2 (`pip install --no-deps pyactigraphy==1.2.2` next to numpy<2,
pandas<2.2, scipy, numba, statsmodels, lmfit, pyexcel, accelerometer==6.2.3, imbalanced-learn), from any folder:

    python make_pyactigraphy_fixtures.py /path/to/shared/external  > pyactigraphy_labels.txt

Output: one line per series, `name,epoch_seconds,labels`, where labels is a string with one character per
epoch in pyActigraphy's convention: '1' = sleep (rest), '0' = wake. pyActigraphy writes '0' also for epochs it
cannot score (incomplete window at the edges, missing counts), because it compares NaN scores with a threshold.

The inputs are NOT copied here: they are read from the external reference folder (and the synthetic Webster
sequences are generated below from a fixed seed), so the test reads the same inputs from ../shared/external.
"""
import csv
import sys

import numpy as np
import pandas as pd

# pyActigraphy 1.2.2's Oakley() still uses the alias np.float, removed in NumPy 1.24; restore it (same type).
if not hasattr(np, "float"):
    np.float = float
from pyActigraphy.sleep.scoring_base import ScoringMixin, _sadeh, _oakley, _actiware_automatic_threshold
from pyActigraphy.sleep.scoring.utils import rescore


class Series(ScoringMixin):
    def __init__(self, values, seconds, start="2000-01-01 00:00:00"):
        index = pd.date_range(start=start, periods=len(values), freq=pd.Timedelta(seconds=seconds))
        self.data = pd.Series(np.asarray(values, dtype=float), index=index)


def labels(series):
    return "".join("1" if v == 1 else "0" for v in series.values)


def emit(name, seconds, series):
    print(f"{name},{seconds},{labels(series)}")


def actilife_axis1(root):
    with open(f"{root}/actigraph_sleepr_actilife/GT3XPlus-RawData-Day01-10sec60sec.csv") as f:
        return [float(r["axis1"]) for r in csv.DictReader(f)]


def actiware_activity(root, name, french):
    with open(f"{root}/actiware_rpx/{name}", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    first = "Ligne" if french else "Line"
    header_at = [i for i, r in enumerate(rows) if r and r[0] == first and len(r) > 6][-1]
    header = rows[header_at]
    column = header.index("Activité" if french else "Activity")
    out = []
    for r in rows[header_at + 1:]:
        if not r or not r[0]:
            continue
        v = r[column]
        out.append(float("nan") if v.upper() == "NAN" else float(v.replace(",", ".")))
    return out


def qut_counts(root, name):
    with open(f"{root}/qut_applewatch_actiwatch/{name}") as f:
        rows = list(csv.DictReader(f))
    return [float("nan") if r["Actiwatch activity counts"] == "NA" else float(r["Actiwatch activity counts"])
            for r in rows]


def main(root):
    # 1. Webster rescoring on synthetic sleep/wake sequences (1 = sleep), fixed seed.
    rng = np.random.default_rng(20240611)
    for k in range(60):
        seq = []
        state = int(rng.integers(0, 2))
        while len(seq) < 150:
            run = int(rng.geometric(1 / (8 if state == 1 else 6)))
            seq.extend([state] * run)
            state = 1 - state
        seq = np.array(seq[:150], dtype=int)
        print(f"webster_input_{k},60,{''.join(map(str, seq))}")
        mask = rescore(seq.copy(), sleep_score=1)
        print(f"webster_output_{k},60,{''.join(str(int(v)) for v in seq * mask)}")

    # 2. ActiGraph GT3X+ 60-s axis1 counts: CK ("mean" settings), Sadeh, Scripps, Oakley.
    axis1 = Series(actilife_axis1(root), 60)
    emit("gt3xplus_ck_mean", 60, axis1.CK(settings="mean", rescoring=False))
    emit("gt3xplus_ck_mean_rescored", 60, axis1.CK(settings="mean", rescoring=True))
    emit("gt3xplus_sadeh", 60, axis1.Sadeh())
    emit("gt3xplus_scripps", 60, axis1.Scripps())
    emit("gt3xplus_oakley_40", 60, axis1.Oakley(threshold=40))
    emit("gt3xplus_oakley_auto", 60, axis1.Oakley(threshold="automatic"))
    print(f"gt3xplus_oakley_auto_threshold,60,{_actiware_automatic_threshold(axis1.data)!r}")

    # 3. Actiware exports (30 s English, 60 s French with missing counts) and a QUT night (15 s).
    for name, seconds, values in [
        ("actiware_eng", 30, actiware_activity(root, "test_sample_rpx_eng.csv", False)),
        ("actiware_fr", 60, actiware_activity(root, "test_sample_rpx_fr.csv", True)),
        ("qut_p02_n01", 15, qut_counts(root, "p02_n01_ready.csv")),
    ]:
        s = Series(values, seconds)
        emit(f"{name}_oakley_40", seconds, s.Oakley(threshold=40))
        emit(f"{name}_oakley_auto", seconds, s.Oakley(threshold="automatic"))
        print(f"{name}_oakley_auto_threshold,{seconds},{_actiware_automatic_threshold(s.data)!r}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../../../../../shared/external")
