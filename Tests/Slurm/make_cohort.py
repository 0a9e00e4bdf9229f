#!/usr/bin/env python3
"""Writes the Slurm test's cohort (fixed seeds; Python stdlib only) into --out.

Phone nights follow Data/generate_samples.py's physiological script (its functions are reused):
  phones/p<k>.csv          1 Hz, ISO 8601 timestamps with offset (8 nights, 2024-05-01 ... 05-08)
  phones/e<k>.csv          1 Hz, epoch seconds, no zone (4 nights)
  fast/f<k>.csv            10 Hz, epoch milliseconds (2 nights)
  gz/g<k>.csv.gz           1 Hz, gzip (2 nights)
  gz/twin.csv + twin.csv.gz  two files of one stem whose nights share a date (one night id gets "-2")
  app/export-<k>.json      the app's JSON export (3 nights each, with surveys)
The Makefile adds a multi-day wrist .cwa (sleepsta-bench generate --only-cwa) and the readers'
small device fixtures (.gt3x, .cwa, .bin, SensorLog, Sleep as Android, ActiLife .csv.gz).
"""
import argparse
import datetime as dt
import gzip
import io
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Data"))
import generate_samples as g  # noqa: E402

BERLIN_SUMMER = dt.timezone(dt.timedelta(hours=2))


def night(seed, minutes):
    rng = random.Random(seed)
    stages, changes = g.night_script(rng, minutes)
    return rng, g.movement_amplitudes(rng, stages, changes)


def phone_lines(seed, start, minutes, rate_hz, stamp):
    rng, amp = night(seed, minutes)
    yield "timestamp,x,y,z\n"
    for second, frac, x, y, z in g.samples(rng, amp, rate_hz):
        yield f"{stamp(start, second, frac)},{x:.4f},{y:.4f},{z:.4f}\n"


def iso(start, second, frac):
    return (start + dt.timedelta(seconds=second)).isoformat()


def epoch_s(start, second, frac):
    return int(start.timestamp()) + second


def epoch_ms(start, second, frac):
    return int(start.timestamp()) * 1000 + second * 1000 + int(frac * 1000)


def write(path, lines, compress=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if compress:  # mtime 0: the same bytes on every run
        with gzip.GzipFile(path, "wb", mtime=0) as raw, io.TextIOWrapper(raw, encoding="utf-8") as f:
            f.writelines(lines)
    else:
        with open(path, "w") as f:
            f.writelines(lines)


def app_export(seed, first_night):
    rng = random.Random(seed)
    nights = []
    for k in range(3):
        local_start = first_night + dt.timedelta(days=k, minutes=rng.randint(-40, 40))
        start = int((local_start - dt.timedelta(hours=2)).replace(tzinfo=dt.timezone.utc).timestamp())
        minutes = rng.randint(6 * 60, 8 * 60)
        stages, changes = g.night_script(rng, minutes)
        amp = g.movement_amplitudes(rng, stages, changes)
        motion, total = [], 0.0
        for second, _, x, y, z in g.samples(rng, amp, 1):
            total += abs(x) + abs(y) + abs(z) / 3
            if (second + 1) % 600 == 0 or second + 1 == len(amp):
                motion.append({"motion": round(total, 4), "timestamp": start + second + 1})
                total = 0.0
        nights.append({"id": local_start.date().isoformat(), "intervalSeconds": 600, "motionData": motion,
                       "preBedSurvey": {"stress (1-5)": rng.randint(1, 5)}, "postBedSurvey": {"rested (1-5)": rng.randint(1, 5)}})
    return json.dumps({"timeZone": "Europe/Berlin", "nights": nights}, indent=1) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    out = ap.parse_args().out
    n = 0
    for k in range(8):
        start = dt.datetime(2024, 5, 1 + k, 22, 30 + k * 3, tzinfo=BERLIN_SUMMER)
        write(f"{out}/phones/p{k}.csv", phone_lines(1000 + k, start, 6 * 60 + 20 * k, 1, iso)); n += 1
    for k in range(4):
        start = dt.datetime(2024, 5, 10 + k, 23, 10, tzinfo=BERLIN_SUMMER)
        write(f"{out}/phones/e{k}.csv", phone_lines(2000 + k, start, 7 * 60, 1, epoch_s)); n += 1
    for k in range(2):
        start = dt.datetime(2024, 5, 20 + k, 23, 0, tzinfo=BERLIN_SUMMER)
        write(f"{out}/fast/f{k}.csv", phone_lines(3000 + k, start, 5 * 60, 10, epoch_ms)); n += 1
    for k in range(2):
        start = dt.datetime(2024, 5, 25 + k, 22, 50, tzinfo=BERLIN_SUMMER)
        write(f"{out}/gz/g{k}.csv.gz", phone_lines(4000 + k, start, 7 * 60, 1, iso), compress=True); n += 1
    twin = dt.datetime(2024, 5, 28, 22, 0, tzinfo=BERLIN_SUMMER)
    write(f"{out}/gz/twin.csv", phone_lines(5000, twin, 6 * 60, 1, iso)); n += 1
    write(f"{out}/gz/twin.csv.gz", phone_lines(5001, twin + dt.timedelta(minutes=30), 6 * 60, 1, iso), compress=True); n += 1
    for k in range(2):
        write(f"{out}/app/export-{k}.json", [app_export(6000 + k, dt.datetime(2024, 6, 1 + 5 * k, 23, 0))]); n += 1
    print(f"{out}: {n} recordings")


if __name__ == "__main__":
    main()
