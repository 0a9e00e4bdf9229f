"""Peer fixtures for ActiGraphCountsTests, produced by ActiGraph's own `agcounts` (PyPI 0.2.6).

Run (outside the repository's build; Python is never needed to build or test sleepsta):

    python3 -m venv /tmp/venv-agc && /tmp/venv-agc/bin/pip install agcounts==0.2.6
    /tmp/venv-agc/bin/python make_fixtures.py /path/to/shared/external

Writes, next to this script:

* agcounts_100hz_stages.csv  -- the first 900 samples (30 s) of the 30 Hz stages for the
  ActiGraph Link 100 Hz example (../shared/external/agcounts_link_100hz): the resampled
  signal rounded to 1 mg (the exact BPF input) and the scaled band-pass output, per axis.
* agcounts_100hz_10hz.csv    -- all 1800 10 Hz values (after trimming and 3-sample averaging).
* agcounts_100hz_lfe_5s.csv -- 5-s counts of the same example with the Low Frequency
  Extension, from agcounts' reference loop `legacy._extract_slow(lfe_select=True)` (the
  vectorised path cannot run LFE in 0.2.6).
* agcounts_synthetic_counts.csv -- 1-s counts from agcounts for a deterministic integer-valued
  synthetic signal (definition below; the Swift test regenerates it bit-for-bit) at every
  sample rate agcounts accepts, so that every resampling path is checked against the peer.
"""

import sys

import numpy as np
from agcounts.extract import _bpf_filter, _resample, _resample_10hz, _trim_data, get_counts
from agcounts.legacy import _extract_slow


def synthetic(rate_hz: int, seconds: int = 60) -> np.ndarray:
    """Integer-valued test signal in units of 1/1024 g (exact in binary floating point)."""
    n = rate_hz * seconds
    periods = [rate_hz, rate_hz // 2, 2 * rate_hz]  # 1 Hz, 2 Hz, 0.5 Hz triangles
    seeds = [1, 2, 3]
    out = np.zeros((n, 3))
    for axis in range(3):
        state = seeds[axis]
        for i in range(n):
            state = (1103515245 * state + 12345) & 0x7FFFFFFF
            noise = (state >> 16) % 65 - 32
            second = i // rate_hz
            amp = [(second * 7 + 3) % 10, (second * 3 + 1) % 10, second % 10][axis]
            t = (2 * i * 1024 // periods[axis]) % 2048
            tri = abs(t - 1024) - 512
            gravity = 1024 if axis == 2 else 0
            out[i, axis] = (tri * amp + noise + gravity) / 1024.0
    return out


def main(external: str) -> None:
    raw = np.loadtxt(
        f"{external}/agcounts_link_100hz/example_raw_100hz_pygt3x.csv",
        delimiter=",", skiprows=1, usecols=(1, 2, 3),
    )
    resampled = _resample(raw, 100)  # axes x rows, rounded to 3 decimals
    bpf = _bpf_filter(resampled)
    tenhz = _resample_10hz(_trim_data(bpf, False))
    with open("agcounts_100hz_stages.csv", "w") as f:
        f.write("resampled_x,resampled_y,resampled_z,bpf_x,bpf_y,bpf_z\n")
        for i in range(900):
            f.write(",".join([repr(float(resampled[a, i])) for a in range(3)]
                             + [repr(float(bpf[a, i])) for a in range(3)]) + "\n")
    with open("agcounts_100hz_10hz.csv", "w") as f:
        f.write("x,y,z\n")
        for i in range(tenhz.shape[1]):
            f.write(",".join(str(int(tenhz[a, i])) for a in range(3)) + "\n")
    lfe = [_extract_slow(raw[:, [a]], 100, True, 5)[0] for a in range(3)]
    with open("agcounts_100hz_lfe_5s.csv", "w") as f:
        f.write("x,y,z\n")
        for e in range(len(lfe[0])):
            f.write(",".join(str(int(lfe[a][e])) for a in range(3)) + "\n")
    with open("agcounts_synthetic_counts.csv", "w") as f:
        f.write("rate_hz,epoch,x,y,z\n")
        for rate in [30, 40, 50, 60, 70, 80, 90, 100, 32, 64, 128, 256]:
            counts = get_counts(synthetic(rate), freq=rate, epoch=1)
            for e, row in enumerate(counts):
                f.write(f"{rate},{e},{row[0]},{row[1]},{row[2]}\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../../../../../shared/external")
