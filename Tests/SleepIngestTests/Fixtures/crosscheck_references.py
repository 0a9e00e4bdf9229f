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

    for name in ["spec_activity12.gt3x", "spec_idle_to_end.gt3x", "spec_nhanes_activity.gt3x"]:
        with FileReader(os.path.join(HERE, name)) as r:
            df = r.to_pandas()  # calibrated: raw / Acceleration Scale; idle-sleep seconds filled
        times = list(df.index)
        if name == "spec_nhanes_activity.gt3x":
            # pygt3x 0.7.1 starts the older format's times at Start Date's .NET ticks / 1e9 (not
            # seconds since 1970); its steps of 1 / rate are right. Rebased on the file's start,
            # 2024-06-14 22:50:00 on the device clock (make_raw_fixtures.py).
            times = [1718405400 + (t - times[0]) for t in times]
        write(name + ".pygt3x.csv.gz", times, df[["X", "Y", "Z"]].to_numpy().tolist())
    # The LSB export calibrated by pygt3x's CalibrationV2Service with the .agdc's parameters.
    import json
    import zipfile
    import numpy as np
    from pygt3x.calibration import CalibrationV2Service
    with zipfile.ZipFile(os.path.join(HERE, "spec_actilife_raw_lsb.agdc")) as z:
        calibration = json.loads(z.read("calibration.json").decode("utf-8-sig"))
    with open(os.path.join(HERE, "spec_actilife_raw_lsb.csv")) as f:
        rows = [list(map(float, line.split(","))) for line in f.read().splitlines()[11:]]
    g = CalibrationV2Service(calibration, 32).calibrate_samples(np.array(rows))
    start = 1718406000  # Start Date 6/14/2024, Start Time 23:00:00 (device clock)
    write("spec_actilife_raw_lsb.csv.pygt3x.csv.gz", [start + k / 32 for k in range(len(rows))], g.tolist())
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
