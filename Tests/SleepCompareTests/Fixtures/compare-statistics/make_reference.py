"""Reference values for the interval-length comparison statistics, computed independently of
sleepsta with numpy/scipy (Bland-Altman), pingouin (ICC) and scikit-learn (accuracy, Cohen's kappa).

Run in a throwaway virtual environment (not part of the build):
    python3 -m venv /tmp/venv-compare
    /tmp/venv-compare/bin/pip install pingouin scikit-learn pandas
    /tmp/venv-compare/bin/python make_reference.py > reference.json

Checked with numpy 2.4.6, scipy 1.17.1, pandas 3.1.1, pingouin 0.7.0, scikit-learn 1.9.1.
Inputs are generated here with fixed seeds and written into the JSON next to the results, so the
Swift test feeds exactly these inputs to its own code.
"""
import json
import math
import random

import numpy as np
import pandas as pd
import pingouin as pg
from scipy import stats
from sklearn.metrics import accuracy_score, cohen_kappa_score


def metric_case(name, reference, test):
    r = np.asarray(reference, dtype=float)
    t = np.asarray(test, dtype=float)
    d = t - r
    n = len(d)
    bias = float(d.mean())
    sd = float(d.std(ddof=1))
    tq = float(stats.t.ppf(0.975, n - 1))
    se = sd / math.sqrt(n)
    long = pd.DataFrame({
        "night": list(range(n)) * 2,
        "length": ["reference"] * n + ["test"] * n,
        "value": list(r) + list(t),
    })
    icc = pg.intraclass_corr(data=long, targets="night", raters="length", ratings="value").set_index("Type")["ICC"]
    return {
        "name": name, "reference": list(map(float, r)), "test": list(map(float, t)),
        "bias": bias, "sd": sd, "loa_lower": bias - 1.96 * sd, "loa_upper": bias + 1.96 * sd,
        "bias_ci_lower": bias - tq * se, "bias_ci_upper": bias + tq * se,
        "limit_ci_half_width": tq * se * math.sqrt(3),
        "mean_abs_difference": float(np.abs(d).mean()),
        "icc1": float(icc["ICC(1,1)"]), "icc2": float(icc["ICC(A,1)"]), "icc3": float(icc["ICC(C,1)"]),
    }


def metric_cases():
    cases = []
    # Bland & Altman (1986) Lancet i:307-310, Table 1: first readings of the Wright peak flow meter
    # (reference) and the mini Wright meter (test), 17 subjects, l/min.
    wright = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178, 423, 427]
    mini = [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260, 477, 259, 350, 451]
    cases.append(metric_case("bland-altman-1986-pefr", wright, mini))
    rng = random.Random(20240614)
    # TST at 10 and 15 minutes: multiples of the interval length, the longer one mostly shorter.
    tst10 = [10 * rng.randint(33, 48) for _ in range(14)]
    tst15 = [15 * round((x - rng.choice([0, 0, 10, 20, 30, -10])) / 15) for x in tst10]
    cases.append(metric_case("tst-10m-vs-15m", tst10, tst15))
    # Awakenings: small counts with many ties.
    aw10 = [rng.randint(0, 6) for _ in range(30)]
    aw15 = [max(0, a - rng.choice([0, 0, 1, 1, 2])) for a in aw10]
    cases.append(metric_case("awakenings-10m-vs-15m", aw10, aw15))
    # SE in percent with a proportional component.
    se10 = [round(rng.uniform(70, 97), 3) for _ in range(9)]
    se15 = [round(x - 0.05 * (100 - x) + rng.gauss(0, 1.5), 3) for x in se10]
    cases.append(metric_case("se-percent", se10, se15))
    return cases


def expand(seq, start, length, cell, lo, hi):
    """Labels per common-grid cell [c, c+cell) for lo <= c < hi, from an interval sequence."""
    return {c: seq[(c - start) // length] for c in range(lo, hi, cell) if start <= c < start + len(seq) * length}


def grid_case(name, rng, origin, in_bed, ref_len, test_len):
    # A 1-minute truth: wake, then sleep with awakenings of 1-30 min, then wake.
    minutes = (in_bed[1] - in_bed[0]) // 60 + 40
    truth = []
    while len(truth) < minutes:
        truth += ["S"] * rng.randint(8, 60) + ["W"] * rng.choice([1, 2, 3, 5, 8, 12, 20, 30])
    truth = ["W"] * 20 + truth[: minutes - 30] + ["W"] * 10
    truth_start = in_bed[0] - 7 * 60  # data starts 7 minutes before the first in-bed cell

    def intervals(length):
        first = origin + ((truth_start - origin) // length) * length
        end = truth_start + len(truth) * 60
        seq_states, seq_stages = [], []
        c = first
        while c < end:
            labels = [truth[(m - truth_start) // 60] for m in range(c, c + length, 60) if truth_start <= m < end]
            if len(labels) < 2:
                state = "-"  # no scored epoch
            else:
                state = "S" if labels.count("S") >= labels.count("W") else "W"
            seq_states.append(state)
            c += length
        onset = seq_states.index("S")
        wake = len(seq_states) - 1 - seq_states[::-1].index("S")
        for i, s in enumerate(seq_states):
            if onset <= i <= wake and s == "S":
                seq_stages.append("D" if rng.random() < 0.3 else "L")
            else:
                seq_stages.append("W")
        return {"start": first, "seconds": length, "states": "".join(seq_states), "stages": "".join(seq_stages)}

    ref = intervals(ref_len)
    test = intervals(test_len)
    cell = math.gcd(ref_len, test_len)
    lo = origin + ((max(ref["start"], test["start"], in_bed[0]) - origin) // cell) * cell
    hi = min(ref["start"] + len(ref["states"]) * ref_len, test["start"] + len(test["states"]) * test_len, in_bed[1])
    rs = expand(ref["states"], ref["start"], ref_len, cell, lo, hi)
    ts = expand(test["states"], test["start"], test_len, cell, lo, hi)
    rp = expand(ref["stages"], ref["start"], ref_len, cell, lo, hi)
    tp = expand(test["stages"], test["start"], test_len, cell, lo, hi)
    common = [c for c in rs if c in ts]
    sw = [c for c in common if rs[c] != "-" and ts[c] != "-"]
    y1 = [rs[c] for c in sw]
    y2 = [ts[c] for c in sw]
    p1 = [rp[c] for c in common]
    p2 = [tp[c] for c in common]
    return {
        "name": name, "origin": origin, "in_bed": list(in_bed), "reference": ref, "test": test, "cell_seconds": cell,
        "sleep_wake": {"cells": len(y1), "accuracy": accuracy_score(y1, y2), "kappa": cohen_kappa_score(y1, y2)},
        "phases": {"cells": len(p1), "accuracy": accuracy_score(p1, p2), "kappa": cohen_kappa_score(p1, p2)},
    }


def grid_cases():
    rng = random.Random(31)
    noon = 1_718_359_200  # 2024-06-14T12:00:00+02:00
    cases = []
    for k, (a, b) in enumerate([(600, 900), (600, 1800), (300, 900), (90, 600), (600, 900)]):
        start = noon + 11 * 3600 + rng.randint(0, 50) * 60
        in_bed = (start, start + rng.randint(6 * 60, 9 * 60) * 60 + rng.randint(0, 59))
        cases.append(grid_case(f"grid-{k}-{a}s-vs-{b}s", rng, noon, in_bed, a, b))
    return cases


print(json.dumps({"metric_pairs": metric_cases(), "grids": grid_cases()}, indent=1))
