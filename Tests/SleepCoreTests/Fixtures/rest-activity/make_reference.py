"""Reference values for RestActivityTests.swift, computed by pyActigraphy 1.2.2 itself.

Reads the two Actiware exports of ../shared/external/actiware_rpx/ with pyActigraphy's own
reader and writes pyactigraphy_reference.json next to this script.

Environment (outside the repository; never needed by the Swift build):
    python3 -m venv /tmp/venv-peers
    /tmp/venv-peers/bin/pip install "numpy<2" "pandas<2.2" scipy statsmodels scikit-learn \
        imbalanced-learn joblib lmfit plotly numba pyexcel pyexcel-ods3 pyexcel-xlsx spm1d \
        "stochastic>=0.6.0" pytz tqdm matplotlib
    /tmp/venv-peers/bin/pip install --no-deps pyactigraphy==1.2.2 accelerometer==6.2.3
    /tmp/venv-peers/bin/python make_reference.py [path/to/shared/external]

Generated with numpy 1.26.4, pandas 2.1.4, Python 3.11.
"""
import json
import os
import sys
import warnings

import numpy as np
import pandas as pd
import pyActigraphy
from pyActigraphy.metrics.metrics import _lmx
from pyActigraphy.sleep.scoring.sri import sri

warnings.simplefilter("ignore")

HERE = os.path.dirname(os.path.abspath(__file__))
EXTERNAL = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../../../../shared/external")
FILES = [
    ("actiware_rpx/test_sample_rpx_eng.csv", "ENG_UK"),
    ("actiware_rpx/test_sample_rpx_fr.csv", "FR"),
]


def seconds_since_midnight(td):
    """pyActigraphy returns window starts as Timedelta on a 2-day cyclic axis."""
    return int(td.total_seconds()) % 86400


def metrics(raw, binarize, freq="1H"):
    data = raw.binarized_data(4) if binarize else raw.data
    l5_start, l5 = _lmx(data, "5H", lowest=True)
    m10_start, m10 = _lmx(data, "10H", lowest=False)
    return {
        "IS": raw.IS(freq=freq, binarize=binarize, threshold=4),
        "IV": raw.IV(freq=freq, binarize=binarize, threshold=4),
        "L5": raw.L5(binarize=binarize, threshold=4),
        "M10": raw.M10(binarize=binarize, threshold=4),
        "RA": raw.RA(binarize=binarize, threshold=4),
        # _lmx is the function L5()/M10() call; its start is reported modulo 24 h.
        "L5_start_seconds": seconds_since_midnight(l5_start),
        "L5_start_raw": str(l5_start),
        "M10_start_seconds": seconds_since_midnight(m10_start),
        "M10_start_raw": str(m10_start),
        # value of _lmx (must equal L5()/M10())
        "L5_lmx": l5,
        "M10_lmx": m10,
    }


out = {
    "_generator": "make_reference.py",
    "_versions": {
        "pyActigraphy": pyActigraphy.__version__,
        "numpy": np.__version__,
        "pandas": pd.__version__,
    },
    "recordings": {},
}
for rel, language in FILES:
    raw = pyActigraphy.io.read_raw_rpx(os.path.join(EXTERNAL, rel), language=language)
    sw = raw.sleep_wake
    rec = {
        "language": language,
        "start": str(raw.start_time),
        "epoch_seconds": int(raw.frequency.total_seconds()),
        # read_raw_rpx(drop_na=True) drops epochs whose activity is NaN (here: trailing ones)
        "n_epochs": int(len(raw.data)),
        "n_activity_nan": int(raw.data.isna().sum()),
        "n_sleep_wake_nan": int(sw.isna().sum()),
        "binarized_1h": metrics(raw, True),
        "counts_1h": metrics(raw, False),
        "binarized_30min": {
            "IS": raw.IS(freq="30min"),
            "IV": raw.IV(freq="30min"),
        },
        # SRI on Actiware's own sleep/wake column (0 = sleep, 1 = wake): the function
        # SleepRegularityIndex(bin_threshold=0) applies to the scoring; NaN -> 0 (sleep).
        "SRI_actiware_sleep_wake_threshold0": sri(sw, threshold=0),
        # SRI of binarized activity (> 4 counts = 1), an independent pattern for the same code.
        "SRI_activity_threshold4": sri(raw.data, threshold=4),
    }
    out["recordings"][os.path.basename(rel)] = rec

with open(os.path.join(HERE, "pyactigraphy_reference.json"), "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
    f.write("\n")
print(json.dumps(out, indent=1, sort_keys=True))
