#!/usr/bin/env python3
"""Decodes the spec-built binary fixtures with independent readers from PyPI and writes what they
read as <fixture>.<reader>.csv.gz (columns time_s, x, y, z; time as the reader reports it, in
seconds since 1970 on the device clock; acceleration in g). SleepIngestTests compare sleepsta's
readers against these files sample by sample.

Run in throwaway virtual environments (never committed); versions used for the committed files:

    python3 -m venv /tmp/venv-peers && /tmp/venv-peers/bin/pip install actfast==1.3.0 pygt3x==0.7.1 numpy pandas
    python3 -m venv /tmp/venv-om && /tmp/venv-om/bin/pip install "numpy<2" "pandas<2" openmovement==0.0.1
    /tmp/venv-peers/bin/python Tests/SleepIngestTests/Fixtures/crosscheck_references.py peers
    /tmp/venv-om/bin/python Tests/SleepIngestTests/Fixtures/crosscheck_references.py openmovement

(openmovement 0.0.1 breaks with numpy 2 / pandas 3, hence its own environment.)
"""
import gzip
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, times, xyz):
    path = os.path.join(HERE, name)
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as f:
            f.write(b"time_s,x,y,z\n")
            for t, (x, y, z) in zip(times, xyz):
                f.write(b"%.6f,%.9g,%.9g,%.9g\n" % (t, x, y, z))
    print("wrote", name, len(times), "samples")


def peers():
    import actfast
    from pygt3x.reader import FileReader

    gt3x = os.path.join(HERE, "spec_activity12.gt3x")
    with FileReader(gt3x) as r:
        df = r.to_pandas()  # calibrated: raw / Acceleration Scale; idle-sleep seconds filled
    write("spec_activity12.gt3x.pygt3x.csv.gz", list(df.index), df[["X", "Y", "Z"]].to_numpy().tolist())
    for name in ["spec_activity12.gt3x", "spec_ax3_packed.cwa", "spec_ax6_16bit.cwa", "spec_geneactiv.bin"]:
        a = actfast.read(os.path.join(HERE, name))
        series = a["timeseries"]
        acc = series["acceleration"] if "acceleration" in series else series["high_frequency"]
        times = [int(t) / 1e9 for t in acc["datetime"]]
        write(name + ".actfast.csv.gz", times, acc["acceleration"].astype(float).tolist())


def openmovement():
    from openmovement.load import CwaData

    for name in ["spec_ax3_packed.cwa", "spec_ax6_16bit.cwa"]:
        with CwaData(os.path.join(HERE, name), include_gyro=False) as c:
            v = c.get_sample_values()
        write(name + ".openmovement.csv.gz", v[:, 0].tolist(), v[:, 1:4].tolist())


if __name__ == "__main__":
    {"peers": peers, "openmovement": openmovement}[sys.argv[1]]()
