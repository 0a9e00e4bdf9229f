"""The Python peers of `make bench`, timed on the same inputs as sleepsta and checked against its output.

Run by `sleepsta-bench all` with the interpreter of .venv-peers (made by `make bench`, recipe in
../shared/TOOLCHAIN.md). Each subcommand runs one peer in this process and prints one JSON object:
the timed runs (in-process wall seconds, after one untimed warm-up unless --warm-up 0), the peak
resident memory of this process, and how its output agrees with sleepsta's (a fast wrong answer is
not a result, so the bench reports agreement next to every ratio).

  pandas       pandas.read_csv (C engine) + numpy per-second aggregation of timestamp,x,y,z
               -> per-second mean of (|x|+|y|+|z|)/3, of |x|+|y|+|z|/3 and the sample count,
               compared with sleepsta's base series (float32, NaN = no data).
  agcounts     agcounts.extract.get_counts (ActiGraph's reference implementation) on the raw
               samples -> counts per 60-s epoch, compared with sleepsta's counts.
  polars       polars (multi-threaded, in-process) reads the CSV or .csv.gz and computes the same
               per-second aggregation and the per-interval (10 min) totals of it (issue 18).
  duckdb       DuckDB's read_csv and two GROUP BYs, the same work (issue 18).
  actfast      actfast 1.3.0 (a reader written in Rust) reads a whole .cwa into numpy arrays (int64 ns
               times, float32 acceleration) -> count, first and last time, exact checksums of every
               value and every 1000th sample, compared with sleepsta's decode-cwa stage (issue 12).
  pyactigraphy pyActigraphy 1.2.2 Cole-Kripke (settings="mean", no rescoring) and Sadeh on 60-s
               axis-1 counts -> sleep/wake per epoch, compared with sleepsta's pyActigraphy variants.
"""
import argparse
import json
import resource
import sys
import time

import numpy as np
import pandas as pd


def peak_rss_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def timed(fn, warm_up, repeats):
    for _ in range(warm_up):
        fn()
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


def read_series_dump(prefix):
    """sleepsta's per-second series (see SeriesDump in bench/SleepstaBench/IngestStages.swift)."""
    with open(prefix + ".series", "rb") as f:
        raw = f.read()
    start, count = np.frombuffer(raw[:16], dtype="<i8")
    o = 16
    movement = np.frombuffer(raw[o:o + 4 * count], dtype="<f4"); o += 4 * count
    legacy = np.frombuffer(raw[o:o + 4 * count], dtype="<f4"); o += 4 * count
    counts = np.frombuffer(raw[o:o + 2 * count], dtype="<u2")
    return int(start), movement, legacy, counts


def pandas_peer(args):
    def run():
        df = pd.read_csv(args.csv, engine="c", dtype=np.float64)
        t = df.iloc[:, 0].to_numpy()
        ax = np.abs(df.iloc[:, 1].to_numpy())
        ay = np.abs(df.iloc[:, 2].to_numpy())
        az = np.abs(df.iloc[:, 3].to_numpy())
        del df
        second = np.floor(t).astype(np.int64)
        # Rows are in time order, so each second is one run: reduceat sums the runs.
        starts = np.concatenate(([0], np.flatnonzero(np.diff(second)) + 1))
        n = np.diff(np.concatenate((starts, [len(second)])))
        movement = np.add.reduceat((ax + ay + az) / 3, starts) / n
        legacy = np.add.reduceat(ax + ay + az / 3, starts) / n
        return second[starts], movement, legacy, n

    times, (seconds, movement, legacy, n) = timed(run, args.warm_up, args.repeats)
    rows = int(n.sum())
    agreement = {}
    if args.compare:
        start, s_mov, s_leg, s_n = read_series_dump(args.compare)
        idx = seconds - start
        inside = (idx >= 0) & (idx < len(s_n))
        same_grid = bool(inside.all()) and int((s_n > 0).sum()) == len(seconds)
        ok_n = same_grid and bool(np.array_equal(s_n[idx].astype(np.int64), n))
        # sleepsta stores Float(sum / n) with the sum in Double, in file order; numpy sums in its
        # own order, so allow a few float32 ulps.
        mov32, leg32 = movement.astype(np.float32), legacy.astype(np.float32)
        close_m = np.isclose(s_mov[idx], mov32, rtol=1e-6, atol=1e-9) if same_grid else np.array([False])
        close_l = np.isclose(s_leg[idx], leg32, rtol=1e-6, atol=1e-9) if same_grid else np.array([False])
        agreement = {
            "seconds": int(len(seconds)),
            "sample counts equal": ok_n,
            "movement within 1e-6": int(close_m.sum()),
            "legacy within 1e-6": int(close_l.sum()),
            "bit-identical float32 movement": int((s_mov[idx] == mov32).sum()) if same_grid else 0,
            "max relative difference": float(np.max(np.abs(s_mov[idx] - mov32) / np.maximum(np.abs(mov32), 1e-12))) if same_grid else None,
            "agree": bool(ok_n and close_m.all() and close_l.all()),
        }
    return {"peer": "pandas", "times": times, "rows": rows, "peak_rss_bytes": peak_rss_bytes(), "agreement": agreement}


def agcounts_peer(args):
    from agcounts.extract import get_counts

    df = pd.read_csv(args.csv, engine="c", dtype=np.float64, nrows=args.rows)
    raw = df.iloc[:, 1:4].to_numpy()
    del df
    times, counts = timed(lambda: get_counts(raw, freq=args.rate, epoch=60), args.warm_up, args.repeats)
    agreement = {}
    if args.compare:
        ours = np.fromfile(args.compare + ".counts", dtype="<i4").reshape(-1, 3)   # x, y, z per epoch
        theirs = np.asarray(counts, dtype=np.int64)[:, :3]
        n = min(len(ours), len(theirs))
        equal = int((ours[:n] == theirs[:n]).all(axis=1).sum())
        agreement = {"epochs": int(len(theirs)), "sleepsta epochs": int(len(ours)), "identical epochs": equal,
                     "agree": bool(equal == len(theirs) == len(ours))}
    return {"peer": "agcounts", "times": times, "rows": int(len(raw)), "peak_rss_bytes": peak_rss_bytes(),
            "agreement": agreement}


def pyactigraphy_peer(args):
    # pyActigraphy 1.2.2's Oakley() still uses np.float (removed in NumPy 1.24); restore the alias.
    if not hasattr(np, "float"):
        np.float = float
    from pyActigraphy.sleep.scoring_base import ScoringMixin

    class Series(ScoringMixin):
        def __init__(self, values):
            index = pd.date_range(start="2024-06-14 00:00:00", periods=len(values), freq=pd.Timedelta(seconds=60))
            self.data = pd.Series(np.asarray(values, dtype=float), index=index)

    counts = np.fromfile(args.counts + ".counts", dtype="<i4").reshape(-1, 3)
    axis1 = counts[:, 1].astype(float)   # ActiLife's axis 1 is the device Y axis
    series = Series(axis1)

    def run():
        ck = series.CK(settings="mean", threshold=1.0, rescoring=False)
        sadeh = series.Sadeh()
        return ck.to_numpy(), sadeh.to_numpy()

    times, (ck, sadeh) = timed(run, args.warm_up, args.repeats)
    agreement = {}
    if args.compare:
        # sleepsta's states per epoch: 1 = sleep, 0 = wake, 2 = not scored (pyActigraphy writes 0 there).
        ours = np.fromfile(args.compare + ".states", dtype=np.uint8).reshape(2, -1)
        ours = np.where(ours == 1, 1, 0)
        agreement = {"epochs": int(len(ck)),
                     "Cole-Kripke identical": int((ours[0] == ck).sum()),
                     "Sadeh identical": int((ours[1] == sadeh).sum()),
                     "agree": bool((ours[0] == ck).all() and (ours[1] == sadeh).all())}
    return {"peer": "pyactigraphy", "times": times, "rows": int(len(axis1)), "peak_rss_bytes": peak_rss_bytes(),
            "agreement": agreement}


def agree_columnar(args, seconds, movement, legacy, n, iv_start, iv_sum, iv_n):
    """Per-second values against sleepsta's base series, and the 10-minute totals against the
    same totals summed from that series (float32 per second, summed in float64)."""
    start, s_mov, s_leg, s_n = read_series_dump(args.compare)
    idx = seconds - start
    inside = (idx >= 0) & (idx < len(s_n))
    same_grid = bool(inside.all()) and int((s_n > 0).sum()) == len(seconds)
    if not same_grid:
        return {"seconds": int(len(seconds)), "agree": False, "same seconds": False}
    ok_n = bool(np.array_equal(s_n[idx].astype(np.int64), n))
    mov32, leg32 = movement.astype(np.float32), legacy.astype(np.float32)
    close_m = np.isclose(s_mov[idx], mov32, rtol=1e-6, atol=1e-9)
    close_l = np.isclose(s_leg[idx], leg32, rtol=1e-6, atol=1e-9)
    covered = s_n > 0
    sec_all = start + np.arange(len(s_n))
    b = (sec_all[covered] // args.interval) * args.interval
    ref_iv, inv = np.unique(b, return_inverse=True)
    ref_sum = np.bincount(inv, weights=s_mov[covered].astype(np.float64))
    ref_n = np.bincount(inv, weights=s_n[covered].astype(np.float64)).astype(np.int64)
    order = np.argsort(iv_start)
    iv_start, iv_sum, iv_n = iv_start[order], iv_sum[order], iv_n[order]
    ok_iv = len(ref_iv) == len(iv_start) and bool(np.array_equal(ref_iv, iv_start)) and bool(np.array_equal(ref_n, iv_n))
    close_iv = ok_iv and bool(np.allclose(ref_sum, iv_sum, rtol=1e-6, atol=1e-6))
    return {
        "seconds": int(len(seconds)),
        "sample counts equal": ok_n,
        "movement within 1e-6": int(close_m.sum()),
        "legacy within 1e-6": int(close_l.sum()),
        "intervals": int(len(iv_start)),
        "interval totals within 1e-6": bool(close_iv),
        "agree": bool(ok_n and close_m.all() and close_l.all() and close_iv),
    }


def columnar_timed(args, run, to_numpy):
    # Checked equal before anything is timed: the first (untimed) run's output is compared.
    out = to_numpy(run())
    agreement = agree_columnar(args, *out) if args.compare else {}
    times, _ = timed(run, 0, args.repeats)
    return times, int(out[3].sum()), agreement


def polars_peer(args):
    import polars as pl

    def run():
        df = pl.read_csv(args.csv, has_header=True)
        t, x, y, z = [pl.col(c) for c in df.columns[:4]]
        per_second = (df.lazy()
                      .select(sec=t.floor().cast(pl.Int64), ax=x.abs(), ay=y.abs(), az=z.abs())
                      .group_by("sec")
                      .agg(movement=((pl.col("ax") + pl.col("ay") + pl.col("az")) / 3).mean(),
                           legacy=(pl.col("ax") + pl.col("ay") + pl.col("az") / 3).mean(),
                           n=pl.len())
                      .sort("sec")
                      .collect())
        intervals = (per_second.lazy()
                     .group_by(iv=(pl.col("sec") // args.interval) * args.interval)
                     .agg(total=pl.col("movement").sum(), n=pl.col("n").sum())
                     .sort("iv")
                     .collect())
        return per_second, intervals

    def to_numpy(r):
        s, i = r
        return (s["sec"].to_numpy(), s["movement"].to_numpy(), s["legacy"].to_numpy(), s["n"].to_numpy().astype(np.int64),
                i["iv"].to_numpy(), i["total"].to_numpy(), i["n"].to_numpy().astype(np.int64))

    times, rows, agreement = columnar_timed(args, run, to_numpy)
    return {"peer": "polars", "times": times, "rows": rows, "peak_rss_bytes": peak_rss_bytes(), "agreement": agreement,
            "version": pl.__version__, "threads": pl.thread_pool_size()}


def duckdb_peer(args):
    import duckdb

    con = duckdb.connect()
    path = args.csv.replace("'", "''")

    def run():
        con.execute(f"""
            CREATE OR REPLACE TEMP TABLE per_second AS
            SELECT floor(c0)::BIGINT AS sec,
                   avg((abs(c1) + abs(c2) + abs(c3)) / 3) AS movement,
                   avg(abs(c1) + abs(c2) + abs(c3) / 3) AS legacy,
                   count(*) AS n
            FROM read_csv('{path}', header = true, names = ['c0', 'c1', 'c2', 'c3'],
                          types = {{'c0': 'DOUBLE', 'c1': 'DOUBLE', 'c2': 'DOUBLE', 'c3': 'DOUBLE'}})
            GROUP BY 1""")
        s = con.execute("SELECT sec, movement, legacy, n FROM per_second ORDER BY sec").fetchnumpy()
        i = con.execute(f"""SELECT (sec // {args.interval}) * {args.interval} AS iv, sum(movement) AS total, sum(n) AS n
                            FROM per_second GROUP BY 1 ORDER BY 1""").fetchnumpy()
        return s, i

    def to_numpy(r):
        s, i = r
        return (np.asarray(s["sec"]), np.asarray(s["movement"]), np.asarray(s["legacy"]), np.asarray(s["n"]).astype(np.int64),
                np.asarray(i["iv"]), np.asarray(i["total"], dtype=np.float64), np.asarray(i["n"]).astype(np.int64))

    times, rows, agreement = columnar_timed(args, run, to_numpy)
    return {"peer": "duckdb", "times": times, "rows": rows, "peak_rss_bytes": peak_rss_bytes(), "agreement": agreement,
            "version": duckdb.__version__}


def agree_cwa(args, times_ns, acceleration):
    """actfast's samples against what sleepsta's decode-cwa stage kept of its own (CWAChecksumSink in
    bench/SleepstaBench/CWADecodeStage.swift): the count, the first and last time to the ms, the
    exact integer checksums of q = value x 2^16 over every sample, and every 1000th sample (values
    within 1e-9 g, times within 1 ms)."""
    with open(args.compare + ".decode.json") as f:
        ours = json.load(f)
    picks = np.fromfile(args.compare + ".decode-samples", dtype="<f8").reshape(-1, 4)
    n = len(times_ns)

    def ms(ns):
        return (int(ns) + 500_000) // 1_000_000

    first_ok = n > 0 and ms(times_ns[0]) == round(ours["first"] * 1000)
    last_ok = n > 0 and ms(times_ns[-1]) == round(ours["last"] * 1000)
    sums = np.zeros(3, np.int64)
    squares = np.zeros(3, np.int64)
    weighted = np.zeros(3, np.int64)
    chunk = 1 << 20
    with np.errstate(over="ignore"):   # int64 wraps modulo 2^64, as the Swift side's &+ does
        for a in range(0, n, chunk):
            q = (acceleration[a:a + chunk].astype(np.float64) * ours["scale"]).astype(np.int64)
            w = (np.arange(a, a + len(q), dtype=np.int64) % ours["weightModulus"] + 1)[:, None]
            sums += q.sum(axis=0)
            squares += (q * q).sum(axis=0)
            weighted += (q * w).sum(axis=0)
    checksums_ok = (sums.tolist() == ours["sum"] and squares.tolist() == ours["sumOfSquares"]
                    and weighted.tolist() == ours["weightedSum"])
    idx = np.arange(0, n, ours["sampleStride"])
    same_picks = len(idx) == len(picks)
    max_dg = float(np.max(np.abs(acceleration[idx].astype(np.float64) - picks[:, 1:]))) if same_picks else None
    max_dt = float(np.max(np.abs(times_ns[idx] / 1e9 - picks[:, 0]))) if same_picks else None
    values_ok = same_picks and max_dg <= 1e-9
    times_ok = same_picks and max_dt <= 1e-3
    return {
        "samples": int(n),
        "sleepsta samples": int(ours["samples"]),
        "first and last time equal to the ms": bool(first_ok and last_ok),
        "checksums of every value equal": bool(checksums_ok),
        "every 1000th sample max |dg|": max_dg,
        "every 1000th sample max |dt| ms": None if max_dt is None else round(max_dt * 1000, 6),
        "agree": bool(n == ours["samples"] and first_ok and last_ok and checksums_ok and values_ok and times_ok),
    }


def actfast_peer(args):
    try:
        import actfast
    except ImportError:
        return {"peer": "actfast", "skipped": "actfast is not installed in this environment (make bench-peers adds it; "
                                              "without network its row is skipped)"}

    def high_frequency(data):
        # The series holding the raw acceleration ("high_frequency" for .cwa in 1.3.0).
        series = data["timeseries"]
        key = next(k for k, v in series.items() if "acceleration" in v)
        return series[key]["datetime"], series[key]["acceleration"]

    # The first read is the warm-up: its output is checked before anything is timed, then dropped,
    # so that no two recordings are held at once (the peak is one read's).
    data = actfast.read(args.cwa)
    times_ns, acceleration = high_frequency(data)
    rows = int(len(times_ns))
    agreement = agree_cwa(args, times_ns, acceleration) if args.compare else {}
    del data, times_ns, acceleration
    # User and system CPU besides the wall time: most of a read's wall time here is the kernel
    # faulting in the fresh pages of its arrays (system time), not the decoding (user time).
    times, user, system = [], [], []
    for _ in range(args.repeats):
        before, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        data = actfast.read(args.cwa)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_SELF)
        user.append(after.ru_utime - before.ru_utime)
        system.append(after.ru_stime - before.ru_stime)
        del data
    return {"peer": "actfast", "times": times, "user_seconds": user, "system_seconds": system, "rows": rows,
            "peak_rss_bytes": peak_rss_bytes(), "agreement": agreement, "version": version("actfast")}


def version(package):
    from importlib.metadata import version as v
    return v(package)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("peer", choices=["pandas", "agcounts", "pyactigraphy", "polars", "duckdb", "actfast"])
    ap.add_argument("--csv")
    ap.add_argument("--cwa", help="an Axivity .cwa (actfast)")
    ap.add_argument("--counts", help="prefix of sleepsta's counts dump (<prefix>.counts)")
    ap.add_argument("--rows", type=int, default=None)
    ap.add_argument("--rate", type=int, default=100)
    ap.add_argument("--compare", help="prefix of sleepsta's output to compare with")
    ap.add_argument("--interval", type=int, default=600, help="interval in seconds (polars, duckdb)")
    ap.add_argument("--warm-up", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    result = {"pandas": pandas_peer, "agcounts": agcounts_peer, "pyactigraphy": pyactigraphy_peer,
              "polars": polars_peer, "duckdb": duckdb_peer, "actfast": actfast_peer}[args.peer](args)
    result["python"] = sys.version.split()[0]
    result["versions"] = {"numpy": np.__version__, "pandas": pd.__version__}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
