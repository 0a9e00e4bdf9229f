#!/usr/bin/env python3
"""sleepsta beside GGIR on the same wrist files: per night, sleep onset, wake, SPT, TST, WASO and the
fraction of the night invalid, and their differences; each tool's wall time and peak memory.

    make validate-ggir                      # the bench's 7-day .cwa and CSV (generated), both GGIR rules
    python3 bench/validate_ggir.py --sleepsta .build/release/sleepsta --work ggir-work FILE[:KIND[:TZ]] ...

GGIR runs through ../shared/peers/ggir (run_ggir.R: GGIR 3.3-6, parts 1-4, its defaults; `nw2013`:
GGIR 2.x's non-wear rule, the one sleepsta's wearable method implements). Without R or GGIR the
script says so and exits 0: GGIR is a reference to compare with, never a dependency.

KIND: device (.cwa, .bin, .gt3x; the default) or csvRATE for a raw CSV `timestamp,x,y,z` (epoch
seconds, g) at RATE Hz. TZ: the IANA zone both tools read the file in (default Europe/Berlin,
the bench generators' zone).

Nights are matched by their evening date. Clock times are hours after 00:00 of that date on the
local clock (GGIR's `sleeponset` / `wakeup` convention: 23.5 = 23:30, 31.25 = 07:15 next morning).
GGIR's `part4_nightsummary_sleep_full.csv` holds every night it analysed; `cleaned` says whether a
night is in its cleaned summary (the nights GGIR keeps by `includenightcrit`).
Python standard library only.
"""
import argparse
import csv
import datetime as dt
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GGIR_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "peers", "ggir"))


def run_measured(cmd, log):
    """Runs cmd; returns (exit status, wall seconds, peak resident MB) of that child alone."""
    start = time.monotonic()
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
    # ru_maxrss is in KiB on Linux, in bytes on macOS.
    peak = usage.ru_maxrss / (1024 * 1024) if sys.platform == "darwin" else usage.ru_maxrss / 1024
    return os.waitstatus_to_exitcode(status), time.monotonic() - start, peak


def ggir_available():
    if shutil.which("Rscript") is None:
        return "Rscript not found"
    if not os.path.exists(os.path.join(GGIR_DIR, "run_ggir.R")):
        return f"{GGIR_DIR}/run_ggir.R not found (no ../shared beside the repository)"
    probe = subprocess.run(["Rscript", "-e", "suppressPackageStartupMessages(library(GGIR)); cat(as.character(packageVersion('GGIR')))"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        return "the R package GGIR is not installed"
    return None


def hours_after_midnight(iso, night_date):
    """ISO 8601 with offset -> hours after 00:00 of night_date on that local clock."""
    if not iso:
        return None
    t = dt.datetime.fromisoformat(iso)
    local = t.replace(tzinfo=None)
    midnight = dt.datetime.combine(night_date, dt.time())
    return (local - midnight).total_seconds() / 3600


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def minutes(hours_text):
    """GGIR's hours (part 4) as minutes, None when not a number."""
    h = number(hours_text)
    return None if h is None else h * 60


def sleepsta_nights(binary, path, tz, work, name, method="sleepsta"):
    name = name if method == "sleepsta" else f"{name}-{method}"
    data = os.path.join(work, name + "-data")
    os.makedirs(data, exist_ok=True)
    link = os.path.join(data, os.path.basename(path))
    if not os.path.exists(link):
        os.symlink(os.path.abspath(path), link)
    db = os.path.join(work, name + ".sqlite")
    for suffix in ["", "-wal", "-shm", ".lock"]:
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    status, wall, peak = run_measured([binary, "run", "--data", data, "--db", db, "--reports", os.path.join(work, name + "-reports"),
                                       "--tz", tz, "--method", method], os.path.join(work, name + "-sleepsta.log"))
    if status not in (0, 1):
        raise SystemExit(f"sleepsta run failed on {path} (exit {status}); see {work}/{name}-sleepsta.log")
    out = os.path.join(work, name + "-nights.csv")
    subprocess.run([binary, "export", "--what", "nights", "--db", db, "--output", out], check=True, capture_output=True)
    invalid = {}
    with sqlite3.connect(db) as con:
        for night_date, details in con.execute("SELECT n.night_date, a.details_json FROM analyses a JOIN nights n ON n.id = a.night_id"):
            try:
                invalid[night_date] = json.loads(details or "{}").get("fractionNightInvalid")
            except ValueError:
                pass
    nights = {}
    with open(out) as f:
        for row in csv.DictReader(f):
            d = dt.date.fromisoformat(row["night_date"])
            nights[row["night_date"]] = {
                "status": row["status"],
                "onset": hours_after_midnight(row["sleep_onset"], d), "wake": hours_after_midnight(row["wake_time"], d),
                "spt": number(row["sleep_period_min"]), "tst": number(row["total_sleep_time_min"]),
                "waso": number(row["waso_min"]), "invalid": invalid.get(row["night_date"]),
            }
    return nights, wall, peak


def ggir_date(text):
    for fmt in ("%Y-%m-%d", "%d/%m/%Y", "%m/%d/%Y"):
        try:
            return dt.datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            continue
    return text


def ggir_nights(path, kind, tz, work, name, rule, reuse=False):
    out = os.path.join(work, f"{name}-ggir-{rule}")
    study = os.path.splitext(os.path.basename(path))[0]
    cmd = ["Rscript", os.path.join(GGIR_DIR, "run_ggir.R"), path, out, tz, kind] + (["nw2013"] if rule == "nw2013" else [])
    done = os.path.join(out, "output_" + study, "results", "QC", "part4_nightsummary_sleep_full.csv")
    if reuse and os.path.exists(done):
        status, wall, peak = 0, float("nan"), float("nan")   # GGIR's output of an earlier run
    else:
        status, wall, peak = run_measured(cmd, out + ".log")
    if status != 0:
        print(f"  GGIR ({rule}) failed on {path} (exit {status}); see {out}.log")
        return {}, wall, peak
    results = os.path.join(out, "output_" + study, "results")
    cleaned = set()
    cleaned_path = os.path.join(results, "part4_nightsummary_sleep_cleaned.csv")
    if os.path.exists(cleaned_path):
        with open(cleaned_path) as f:
            cleaned = {ggir_date(r["calendar_date"]) for r in csv.DictReader(f)}
    nights = {}
    full = os.path.join(results, "QC", "part4_nightsummary_sleep_full.csv")
    if os.path.exists(full):
        with open(full) as f:
            for r in csv.DictReader(f):
                date = ggir_date(r["calendar_date"])
                nights[date] = {
                    "onset": number(r.get("sleeponset")), "wake": number(r.get("wakeup")),
                    "spt": minutes(r.get("SptDuration")), "tst": minutes(r.get("SleepDurationInSpt")), "waso": minutes(r.get("WASO")),
                    "invalid": number(r.get("fraction_night_invalid")), "kept": date in cleaned,
                }
    return nights, wall, peak


def clock(h):
    if h is None:
        return "–"
    m = round(h * 60)
    return f"{(m // 60) % 24:02d}:{m % 60:02d}"


def diff(a, b, scale=1.0):
    if a is None or b is None:
        return "–"
    return f"{(a - b) * scale:+.1f}"


def fixed(v, digits=1):
    return "–" if v is None else f"{v:.{digits}f}"


def report(name, ours, theirs, rule, method="sleepsta"):
    what = "--method ggir (parity)" if method == "ggir" else "wearable method"
    print(f"\n{name} — sleepsta ({what}) vs GGIR 3.3-6 ({'nonwear 2013, 50 mg' if rule == 'nw2013' else 'defaults: nonwear 2023, 150 mg'})")
    print("| night | sleepsta status | GGIR kept | onset s / G (Δ min) | wake s / G (Δ min) | SPT s / G (Δ) | TST s / G (Δ) | WASO s / G (Δ) | invalid s / G |")
    print("|---|---|---|---|---|---|---|---|---|")
    worst = {"onset": 0.0, "wake": 0.0, "spt": 0.0, "tst": 0.0}
    for date in sorted(set(ours) | set(theirs)):
        s, g = ours.get(date, {}), theirs.get(date, {})
        print(f"| {date} | {s.get('status', '–')} | {'yes' if g.get('kept') else ('no' if g else '–')} "
              f"| {clock(s.get('onset'))} / {clock(g.get('onset'))} ({diff(s.get('onset'), g.get('onset'), 60)}) "
              f"| {clock(s.get('wake'))} / {clock(g.get('wake'))} ({diff(s.get('wake'), g.get('wake'), 60)}) "
              f"| {fixed(s.get('spt'))} / {fixed(g.get('spt'))} ({diff(s.get('spt'), g.get('spt'))}) "
              f"| {fixed(s.get('tst'))} / {fixed(g.get('tst'))} ({diff(s.get('tst'), g.get('tst'))}) "
              f"| {fixed(s.get('waso'))} / {fixed(g.get('waso'))} ({diff(s.get('waso'), g.get('waso'))}) "
              f"| {fixed(s.get('invalid'), 3)} / {fixed(g.get('invalid'), 3)} |")
        if g.get("kept") and s.get("status") == "scored":
            for k, scale in [("onset", 60), ("wake", 60), ("spt", 1), ("tst", 1)]:
                if s.get(k) is not None and g.get(k) is not None:
                    worst[k] = max(worst[k], abs(s[k] - g[k]) * scale)
    print("largest |Δ| over the nights both score: " + ", ".join(f"{k} {v:.1f} min" for k, v in worst.items()))
    if method == "ggir":
        # Parity: every night GGIR keeps is scored, within one 5-s epoch on onset and wake and 1 min
        # on SPT and TST; every night GGIR drops is not scored.
        kept = [d for d, g in theirs.items() if g.get("kept")]
        ok = [d for d in kept if ours.get(d, {}).get("status") == "scored"
              and all(ours[d].get(k) is not None and theirs[d].get(k) is not None for k in ("onset", "wake", "spt", "tst"))
              and abs(ours[d]["onset"] - theirs[d]["onset"]) * 3600 <= 5.5 and abs(ours[d]["wake"] - theirs[d]["wake"]) * 3600 <= 5.5
              and abs(ours[d]["spt"] - theirs[d]["spt"]) <= 1 and abs(ours[d]["tst"] - theirs[d]["tst"]) <= 1]
        extra = [d for d, o in ours.items() if o.get("status") == "scored" and not theirs.get(d, {}).get("kept")]
        print(f"parity: {len(ok)} of {len(kept)} nights GGIR keeps within 5 s (onset, wake) and 1 min (SPT, TST)"
              + (f"; outside: {', '.join(sorted(set(kept) - set(ok)))}" if len(ok) < len(kept) else "")
              + f"; scored here but dropped by GGIR: {', '.join(sorted(extra)) if extra else 'none'}")


def main():
    if sys.argv[1:] == ["--check"]:
        # For make bench: exit 0 when GGIR can run here, else say why and exit 1.
        why = ggir_available()
        if why:
            print(f"GGIR beside sleepsta: skipped: {why} (../shared/peers/ggir/install.sh installs it, about 15 min)")
        return 1 if why else 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sleepsta", required=True)
    ap.add_argument("--work", default="ggir-work")
    ap.add_argument("--rules", default="nw2013,default", help="GGIR non-wear rules to run: nw2013, default")
    ap.add_argument("--reuse-ggir", action="store_true", help="use GGIR's output in --work from an earlier run where there is one")
    ap.add_argument("files", nargs="+", help="FILE[:KIND[:TZ]]")
    a = ap.parse_args()
    why = ggir_available()
    if why:
        print(f"validate-ggir: skipped: {why}. Install GGIR with ../shared/peers/ggir/install.sh (as root, about 15 min).")
        return 0
    os.makedirs(a.work, exist_ok=True)
    timings = []
    for k, spec in enumerate(a.files):
        parts = spec.split(":")
        path, kind, tz = parts[0], parts[1] if len(parts) > 1 and parts[1] else "device", parts[2] if len(parts) > 2 else "Europe/Berlin"
        # Files of the same name in two folders keep their own outputs.
        name = os.path.basename(path).replace(".", "_") + ("" if [os.path.basename(s.split(":")[0]) for s in a.files].count(os.path.basename(path)) == 1 else f"_{k + 1}")
        ours, wall, peak = sleepsta_nights(a.sleepsta, path, tz, a.work, name)
        timings.append((os.path.basename(path), "sleepsta run", wall, peak))
        parity, pwall, ppeak = sleepsta_nights(a.sleepsta, path, tz, a.work, name, method="ggir")
        timings.append((os.path.basename(path), "sleepsta run --method ggir", pwall, ppeak))
        for rule in a.rules.split(","):
            theirs, gwall, gpeak = ggir_nights(path, kind, tz, a.work, name, rule, reuse=a.reuse_ggir)
            timings.append((os.path.basename(path), f"GGIR ({rule})" + (" (earlier run)" if gwall != gwall else ""), gwall, gpeak))
            report(os.path.basename(path), ours, theirs, rule)
            if rule == "default":
                report(os.path.basename(path), parity, theirs, rule, method="ggir")
    print("\n| file | tool | wall s | peak MB |\n|---|---|---|---|")
    for f, tool, wall, peak in timings:
        print(f"| {f} | {tool} | {wall:.1f} | {peak:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
