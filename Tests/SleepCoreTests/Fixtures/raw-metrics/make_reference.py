#!/usr/bin/env python3
"""Reference ENMO / MAD / angle-z for RawMetricsTests.

An INDEPENDENT reimplementation of GGIR's definitions (wadpac/GGIR R/g.applymetrics.R) in
numpy/pandas, written from the definitions, not GGIR itself (R/CRAN is not reachable here).
It shares no code with sleepsta: the rolling median is pandas' `rolling(center=True).median()`,
epoch means are numpy means over reshaped blocks of consecutive samples (GGIR's epochs).

Input: ../shared/external/agcounts_link_100hz/example_raw_100hz_pygt3x.csv (ActiGraph Link,
100 Hz, 3 min, gap-free, starts on a whole second; see shared/external/SOURCES.md section 4).

Definitions reproduced (per epoch of sf*E consecutive samples):
  ENMO   = mean(max(0, |a| - 1))
  MAD    = mean(| |a| - mean(|a|) |)
  anglez = mean over samples of atan(zm / sqrt(xm^2 + ym^2)) / (pi/180), where xm, ym, zm are the
           centred rolling medians of each axis:
           variant "ggir":      every step = max(floor(sf/10), 1)-th sample enters, window
                                round(r*5) made odd (r = 10 if step > 1 else sf), each median held
                                for the step samples from its own sample on (GGIR since Sept 2022);
           variant "full-rate": every sample enters, window round(sf*5) made odd (older GGIR).
  Edges (sleepsta's documented choice): samples before the first full-window median get the first
  one, samples after the last get the last one. GGIR 3.x fills the tail differently and replaces
  genuine zero medians near the start; this script prints how many medians would be affected.

Run: /tmp/venv-rawmetrics/bin/python make_reference.py <path to example_raw_100hz_pygt3x.csv>
     (venv: python3 -m venv /tmp/venv-rawmetrics && pip install "numpy<2" "pandas<2.2";
      made with numpy 1.26.4, pandas 2.1.4). Writes raw_metrics_reference.csv next to this script.
"""
import os
import sys

import numpy as np
import pandas as pd


def r_round(v):
    # R's round() at 0 digits rounds halves to even, as numpy's rint does.
    return int(np.rint(v))


def window(variant, sf):
    if variant == "ggir":
        step = max(int(np.floor(sf / 10)), 1)
        r = 10 if step > 1 else sf
    else:
        step, r = 1, sf
    w = r_round(r * 5)
    if w % 2 == 0:
        w += 1
    return step, w


def per_sample_angle(xyz, sf, variant):
    step, w = window(variant, sf)
    n = len(xyz)
    dec = pd.DataFrame(xyz[::step], columns=["x", "y", "z"])
    med = dec.rolling(window=w, center=True).median()  # NaN where the window is incomplete
    zero_medians = {c: int((med[c] == 0).sum()) for c in "xyz"}
    med = med.bfill().ffill()
    full = np.repeat(med.to_numpy(), step, axis=0)[:n]
    ang = np.arctan(full[:, 2] / np.sqrt(full[:, 0] ** 2 + full[:, 1] ** 2)) / (np.pi / 180)
    return ang, step, w, zero_medians


def main():
    src = sys.argv[1]
    df = pd.read_csv(src)
    t = pd.to_datetime(df["timestamp_local"], format="%Y-%m-%dT%H:%M:%S.%f")
    dt = np.diff(t.to_numpy().astype("datetime64[ns]").astype(np.int64))
    assert (dt == 10_000_000).all(), "expected samples exactly 10 ms apart"
    assert t.iloc[0].microsecond == 0, "expected a start on a whole second"
    sf = 100
    xyz = df[["x_g", "y_g", "z_g"]].to_numpy(dtype=np.float64)
    norm = np.sqrt((xyz ** 2).sum(axis=1))
    rows = []
    for variant in ("ggir", "full-rate"):
        ang, step, w, zeros = per_sample_angle(xyz, sf, variant)
        print(f"{variant}: step {step}, window {w}; exactly-zero rolling medians per axis "
              f"(GGIR 3.x would replace those in its head/tail ranges): {zeros}")
        for E in (1, 5):
            spe = sf * E
            ne = len(xyz) // spe  # complete epochs only, as GGIR
            nb = norm[: ne * spe].reshape(ne, spe)
            enmo = np.maximum(nb - 1, 0).mean(axis=1)
            mad = np.abs(nb - nb.mean(axis=1, keepdims=True)).mean(axis=1)
            az = ang[: ne * spe].reshape(ne, spe).mean(axis=1)
            for k in range(ne):
                start = t.iloc[k * spe].strftime("%Y-%m-%dT%H:%M:%S")
                rows.append((variant, E, start, spe, repr(float(enmo[k])), repr(float(mad[k])), repr(float(az[k]))))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "raw_metrics_reference.csv")
    with open(out, "w") as f:
        f.write("variant,epoch_seconds,epoch_start_local,samples,enmo_g,mad_g,anglez_deg\n")
        for r in rows:
            f.write(",".join(str(v) for v in r) + "\n")
    print(f"wrote {len(rows)} rows to {out}")


if __name__ == "__main__":
    main()
