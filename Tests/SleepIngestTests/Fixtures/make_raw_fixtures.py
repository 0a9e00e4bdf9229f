#!/usr/bin/env python3
"""Builds the small raw-sample test files of SleepIngestTests from the published format
specifications (Python standard library only, fixed seeds, byte-identical on every run).

    python3 Tests/SleepIngestTests/Fixtures/make_raw_fixtures.py

Specifications followed:
* ActiGraph .gt3x: github.com/actigraph/GT3X-File-Format (README.md, info.txt.md,
  LogRecords/Activity.md, Activity2.md, Parameters.md); idle-sleep events as pygt3x reads them.
* ActiGraph .gt3x of firmware <= 2.5 (activity.bin): github.com/actigraph/NHANES-GT3X-File-Format
  (README.md, fileformats/activity.bin.md, info.txt.md).
* ActiLife .agdc calibration (calibration.json, "calibration method 2") as pygt3x reads it; the
  LSB export and gt3x2csv's header as ActiLife and gt3x2csv write them.
* Axivity .cwa: openmovementproject/openmovement Docs/ax3/cwa.h (header block, data blocks,
  packed 10-bit format, deviceFractional / timestampOffset).
* GENEActiv .bin: the 59-line header and 10-line pages of GENEActiv's "Decoding .bin files"
  (as GGIRread's GENEActivReader.cpp and actfast's geneactiv reader parse them).
* ActiLife raw CSV, SensorLog, Sensor Logger and Sleep as Android: their documented columns.

crosscheck_references.py decodes the binary files with independent readers (pygt3x, actfast,
openmovement) and writes the *.reference.csv.gz files the tests compare against.
"""
import gzip
import io
import math
import os
import struct
import zipfile

OUT = os.path.dirname(os.path.abspath(__file__))


class LCG:
    """Deterministic noise (the same numbers on every platform)."""
    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (1103515245 * self.state + 12345) & 0x7FFFFFFF
        return self.state

    def uniform(self):
        return self.next() / 0x7FFFFFFF


def movement(i, rate, rng, scale):
    """Acceleration in g: gravity on z, slow posture change, bursts of movement, sensor noise."""
    t = i / rate
    burst = 1.5 * math.sin(2 * math.pi * 2.0 * t) if 20 <= t % 60 < 24 else 0.0
    x = 0.05 * math.sin(2 * math.pi * t / 40) + burst + (rng.uniform() - 0.5) * 0.02
    y = 0.02 * math.cos(2 * math.pi * t / 25) + (rng.uniform() - 0.5) * 0.02
    z = 0.98 + (rng.uniform() - 0.5) * 0.02
    if 90 <= t < 90.5:
        x = 9.0  # beyond ±8 g: the device saturates (clipping QC)
    return x * scale, y * scale, z * scale


# --------------------------------------------------------------------------- ActiGraph .gt3x

def gt3x_record(rtype, timestamp, payload):
    header = struct.pack("<BBIH", 0x1E, rtype, timestamp, len(payload))
    checksum = 0
    for b in header + payload:
        checksum ^= b
    return header + payload + bytes([(~checksum) & 0xFF])


def pack12(values):
    """12-bit two's complement values, most significant nibble first (Activity.md)."""
    bits = ""
    for v in values:
        bits += format(v & 0xFFF, "012b")
    bits += "0" * (-len(bits) % 8)
    return bytes(int(bits[k:k + 8], 2) for k in range(0, len(bits), 8))


def net_ticks(sec):
    """Seconds since 1970 -> .NET ticks (100 ns since 0001-01-01), as info.txt states times."""
    return (sec + 62135596800) * 10_000_000


def write_zip(name, entries, compression, date_time=(2024, 6, 15, 8, 0, 0)):
    """A zip archive in OUT of (entry name, bytes), every entry with the same time and compression."""
    with zipfile.ZipFile(os.path.join(OUT, name), "w", compression=compression) as z:
        for entry, data in entries:
            zi = zipfile.ZipInfo(entry, date_time=date_time)
            zi.compress_type = compression
            z.writestr(zi, data)


def encode_actigraph_float(f):
    """Parameters.md SspCodec.Encode."""
    if abs(f) < 2 ** -23:
        return 0
    significand, exponent = abs(f), 0
    while significand >= 1.0:
        significand /= 2.0
        exponent += 1
    while significand < 0.5:
        significand *= 2.0
        exponent -= 1
    code = int(significand * 8388608.0)
    if f < 0:
        code = (-code) & 0xFFFFFFFF
    code &= 0x00FFFFFF
    return code | ((exponent & 0xFF) << 24)


def make_gt3x(name, zero_padding, compression, trailing_idle=False):
    """GT3X+ style: 30 Hz, ACTIVITY (12-bit Y,X,Z) records, 341 LSB/g, idle sleep 120..150 s.
    `zero_padding`: stray zero bytes between records (README: to be skipped; pygt3x and actfast
    stop there, so the cross-checked file has none). `trailing_idle`: the device also goes idle at
    200 s and stays idle until the last sample time (240 s): no record resumes it, battery records
    at 220 and 230 s."""
    rate, scale = 30, 341
    start_local = 1718405400  # 2024-06-14 22:50:00 on the device clock (local, UTC+02:00)
    rng = LCG(7)
    log = bytearray()
    log += gt3x_record(0x06, start_local - 5, b'{"MetadataType":"Bio","SubjectName":"spec","Limb":"Wrist"}')
    # ACCEL_SCALE (0/55), FEATURE_ENABLE (1/2, bit 2: sleep mode), SAMPLE_RATE (1/10).
    params = (struct.pack("<HHI", 0, 55, encode_actigraph_float(341.0)) + struct.pack("<HHI", 1, 2, 0x04)
              + struct.pack("<HHI", 1, 10, rate))
    log += gt3x_record(0x15, start_local - 5, params)
    log += gt3x_record(0x00, start_local - 1, b"\x00")  # 1-byte activity payload: USB connection, ignored
    seconds = 240
    i = 0
    for s in range(seconds):
        if trailing_idle and s >= 200:
            if s == 200:
                log += gt3x_record(0x03, start_local + s, b"\x08")
            if s in (220, 230):
                log += gt3x_record(0x02, start_local + s, struct.pack("<H", 4100))  # battery, while idle
            i += rate
            continue
        if 120 <= s < 150:
            # Idle sleep: no samples; event 08 at entry, 09 at exit.
            if s == 120:
                log += gt3x_record(0x03, start_local + s, b"\x08")
            if s == 149:
                log += gt3x_record(0x03, start_local + 150, b"\x09")
            i += rate
            continue
        values = []
        for k in range(rate):
            x, y, z = movement(i, rate, rng, scale)
            clip = lambda v: max(-2048, min(2047, int(round(v))))
            values += [clip(y), clip(x), clip(z)]  # ACTIVITY is Y, X, Z
            i += 1
        log += gt3x_record(0x00, start_local + s, pack12(values))
        if s == 60 and zero_padding:
            log += b"\x00\x00\x00"  # stray zero bytes between records (README: to be skipped)
        if s % 60 == 0:
            log += gt3x_record(0x02, start_local + s, struct.pack("<H", 4100))  # battery: ignored
    info = "\r\n".join([
        "Serial Number: NEO1F99999999",
        "Device Type: GT3XPlus",
        "Firmware: 3.2.1",
        "Battery Voltage: 4.10",
        f"Sample Rate: {rate}",
        f"Start Date: {net_ticks(start_local)}",
        f"Stop Date: {net_ticks(start_local + seconds)}",
        f"Last Sample Time: {net_ticks(start_local + seconds)}",
        "TimeZone: 02:00:00",
        "Download Date: 0",
        "Board Revision: 4",
        "Unexpected Resets: 0",
        "Acceleration Scale: 341.0",
        "Acceleration Min: -6.0",
        "Acceleration Max: 6.0",
        "Subject Name: spec",
    ]) + "\r\n"
    write_zip(name, [("log.bin", bytes(log)), ("info.txt", info.encode())], compression)


def make_nhanes_example(name):
    """The worked example of activity.bin.md: 3 samples in "00 60 08 EB D0 07 00 9E BF 00 70 08 EB F0"
    (an odd count: the last nibble is unused), GT3X+ started 2008-03-29 12:00:00 at 30 Hz."""
    info = "Serial Number: NEO1A99999999\r\nFirmware: 2.0.0\r\nSample Rate: 30\r\nStart Date: %d\r\nTimeZone: 00:00:00\r\n" % net_ticks(1206792000)
    write_zip(name, [("activity.bin", bytes.fromhex("00 60 08 EB D0 07 00 9E BF 00 70 08 EB F0")), ("info.txt", info.encode())],
              zipfile.ZIP_STORED, date_time=(2008, 3, 29, 12, 0, 0))


def make_nhanes_gt3x(name):
    """The older format (GT3X+ firmware <= 2.5): activity.bin of 36-bit samples (12-bit Y, X, Z),
    341 LSB/g, no time stamps; 30 Hz for 61 s and 2 samples more. (An odd count, whose last nibble
    is unused, is tested with the description's own example bytes: pygt3x 0.7.1 cannot read it.)
    The device clock runs at UTC-06:00."""
    rate = 30
    start_local = 1718405400  # 2024-06-14 22:50:00 on the device clock
    rng = LCG(11)
    values = []
    for i in range(rate * 61 + 2):
        x, y, z = movement(i, rate, rng, 341)
        clip = lambda v: max(-2046, min(2046, int(round(v))))  # -2048, -2047 and 2047 never occur
        values += [clip(y), clip(x), clip(z)]
    activity = pack12(values)
    info = "\r\n".join([
        "Serial Number: NEO1B99999999",
        "Device Type: GT3XPlus",
        "Firmware: 2.5.0",
        "Battery Voltage: 4.20",
        f"Sample Rate: {rate}",
        f"Start Date: {net_ticks(start_local)}",
        f"Stop Date: {net_ticks(start_local + 60)}",
        "TimeZone: -06:00:00",
        f"Download Date: {net_ticks(start_local + 120)}",
        "Board Revision: 2",
        "Unexpected Resets: 0",
        "Subject Name: spec",
    ]) + "\r\n"
    write_zip(name, [("log.txt", b""), ("activity.bin", activity), ("lux.bin", bytes(122)), ("info.txt", info.encode())],
              zipfile.ZIP_DEFLATED)


# Calibration method 2 parameters of an imaginary 32-Hz wrist device (not any real device's).
SPEC_CALIBRATION = {
    "offsetX_32": 21, "offsetY_32": -17, "offsetZ_32": 33,
    "sensitivityXX_32": 25100, "sensitivityYY_32": 25900, "sensitivityZZ_32": 24700,
    "sensitivityXY_32": -410, "sensitivityXZ_32": 180, "sensitivityYZ_32": -55,
    "isCalibrated": False, "calibrationMethod": 2,
}


def actilife_header(rate, serial, start_time, start_date, created_by="ActiLife v6.13.3", extra=()):
    return (["------------ Data File Created By ActiGraph GT3X+ %s Firmware v1.6.0 date format M/d/yyyy at %d Hz  Filter Normal -----------" % (created_by, rate),
             "Serial Number: %s" % serial, "Start Time %s" % start_time, "Start Date %s" % start_date]
            + list(extra)
            + ["Epoch Period (hh:mm:ss) 00:00:00", "Download Time 23:59:00", "Download Date 6/14/2024",
               "Current Memory Address: 0", "Current Battery Voltage: 4.18     Mode = 12",
               "--------------------------------------------------"])


def make_actilife_lsb():
    """ActiLife raw CSV exported in LSB (raw counts, about 256 per g), 32 Hz for 60 s, and the
    device's .agdc (a zip with info.txt naming the same serial, and calibration.json)."""
    rate = 32
    rng = LCG(31)
    rows = actilife_header(rate, "TAS1F99999999", "23:00:00", "6/14/2024") + ["Accelerometer X,Accelerometer Y,Accelerometer Z"]
    for i in range(rate * 60):
        x, y, z = movement(i, rate, rng, 256)
        rows.append("%.1f,%.1f,%.1f" % (round(x), round(y), round(z)))
    with open(os.path.join(OUT, "spec_actilife_raw_lsb.csv"), "w", newline="") as f:
        f.write("\r\n".join(rows) + "\r\n")
    import json
    info = "\ufeffSerial Number: TAS1F99999999\r\nAcceleration Scale: 1\r\nSample Rate: 32\r\nFirmware: 1.0.0\r\nLimb: wrist\r\n"
    write_zip("spec_actilife_raw_lsb.agdc", [("info.txt", info.encode()), ("calibration.json", ("\ufeff" + json.dumps(SPEC_CALIBRATION)).encode())],
              zipfile.ZIP_DEFLATED)


def make_gt3x2csv():
    """gt3x2csv's output (the Healthy Brain Network release, wristpy): the ActiLife header with two
    more lines (Idle Sleep Mode, Sample Rate), g with 3 decimals, rows of 0,0,0 where the device
    slept (10 s at 60 Hz from 30 s) and to the end."""
    rate = 60
    rng = LCG(47)
    rows = actilife_header(rate, "MOS2F99999999", "23:00:00", "6/14/2024", created_by="gt3x2csv 0.5.0",
                           extra=["Idle Sleep Mode: True", "Sample Rate: 60"])
    rows[0] = "\ufeff" + rows[0]
    rows.append("Accelerometer X,Accelerometer Y,Accelerometer Z")
    for i in range(rate * 60):
        t = i / rate
        if 30 <= t < 40 or t >= 55:
            rows.append("0,0,0")
            continue
        x, y, z = movement(i, rate, rng, 1.0)
        rows.append("%.3f,%.3f,%.3f" % (x, y, z))
    with open(os.path.join(OUT, "spec_gt3x2csv.csv"), "w", newline="") as f:
        f.write("\n".join(rows) + "\n")


# --------------------------------------------------------------------------- Axivity .cwa

def cwa_timestamp(sec):
    """Packed YYYYYYMM MMDDDDDh hhhhmmmm mmssssss (cwa.h), device local clock."""
    days = sec // 86400
    rem = sec % 86400
    # civil from days (Howard Hinnant)
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y += 1 if m <= 2 else 0
    return ((y - 2000) << 26) | (m << 22) | (d << 17) | ((rem // 3600) << 12) | (((rem % 3600) // 60) << 6) | (rem % 60)


def cwa_header(device_id, session, rate_code, start_local, metadata):
    b = bytearray(b"\xff" * 1024)
    struct.pack_into("<2sHBHIH", b, 0, b"MD", 1020, 0x17, device_id, session, 0xFFFF)
    struct.pack_into("<III", b, 13, cwa_timestamp(start_local), cwa_timestamp(start_local + 86400), 0)
    b[25] = 0; b[26] = 0
    b[35] = 0x00  # accelerometer only
    b[36] = rate_code
    struct.pack_into("<IBh", b, 37, cwa_timestamp(start_local - 3600), 45, -1)
    meta = metadata.encode().ljust(448, b" ")
    b[64:512] = meta
    return bytes(b)


def cwa_block(session, sequence, whole, frac16, timestamp_offset, light_scale, rate_code, axes_bps, samples_bytes, count):
    b = bytearray(512)
    device_fractional = 0x8000 | (frac16 >> 1)
    struct.pack_into("<2sHHIII", b, 0, b"AX", 508, device_fractional, session, sequence, cwa_timestamp(whole))
    struct.pack_into("<HHBBBBhH", b, 18, light_scale, 700, 0, 150, rate_code, axes_bps, timestamp_offset, count)
    b[30:30 + len(samples_bytes)] = samples_bytes
    total = sum(struct.unpack("<255H", bytes(b[:510]))) & 0xFFFF
    struct.pack_into("<H", b, 510, (-total) & 0xFFFF)
    return bytes(b)


def pack_cwa10(x, y, z):
    """eezzzzzz zzzzyyyy yyyyyyxx xxxxxxxx: the smallest exponent that fits all three axes."""
    for e in range(4):
        vals = [v >> e for v in (x, y, z)]
        if all(-512 <= v <= 511 for v in vals):
            break
    else:
        vals = [max(-512, min(511, v >> 3)) for v in (x, y, z)]
        e = 3
    word = (e << 30) | ((vals[2] & 0x3FF) << 20) | ((vals[1] & 0x3FF) << 10) | (vals[0] & 0x3FF)
    return struct.pack("<I", word)


def make_cwa(name, packed, rate_hz, rate_code, unit_shift, blocks, true_rate, start_local, session, device_id):
    """`packed`: AX3 10-bit format (120 samples/block) else 16-bit (80 samples/block).
    The device's true rate differs slightly from the configured one: timestamps carry it."""
    per_block = 120 if packed else 80
    unit = 1 << (8 + unit_shift)
    rng = LCG(11 if packed else 13)
    out = bytearray(cwa_header(device_id, session, rate_code, start_local, "_sc=spec-subject&_p=left%20wrist&_n=built+from+cwa.h"))
    i = 0
    for k in range(blocks):
        data = bytearray()
        for _ in range(per_block):
            x, y, z = movement(i, rate_hz, rng, unit)
            q = [max(-32768, min(32767, int(round(v)))) for v in (x, y, z)]
            data += pack_cwa10(*q) if packed else struct.pack("<hhh", *q)
            i += 1
        # The timestamp belongs to the block's last sample; RTC whole seconds + 16-bit fraction.
        anchor_index = k * per_block + per_block - 1
        t = start_local + anchor_index / true_rate
        whole = int(math.floor(t))
        frac16 = int((t - whole) * 65536) & 0xFFFE
        shim = (frac16 * int(rate_hz)) >> 16
        light_scale = (unit_shift << 13) | 300
        out += cwa_block(session, k, whole, frac16, per_block - 1 - shim, light_scale, rate_code,
                         0x30 if packed else 0x32, bytes(data), per_block)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(out)


# --------------------------------------------------------------------------- GENEActiv .bin

def make_geneactiv():
    rate, pages = 10, 12
    gains, offsets = (25548, 25234, 25901), (574, -1262, 492)
    start_local = 1718405400  # device local clock, GMT +02:00
    rng = LCG(17)
    fmt_time = lambda sec, ms: "%04d-%02d-%02d %02d:%02d:%02d:%03d" % (*civil(sec), ms)
    header = [
        "Device Identity", "Device Unique Serial Code:099999", "Device Type:GENEActiv", "Device Model:1.2",
        "Device Firmware Version:Ver06.17 15June23", "Calibration Date:2023-09-07 15:04:34:000", "",
        "Device Capabilities", "Accelerometer Range:-8 to 8", "Accelerometer Resolution:0.0039",
        "Accelerometer Units:g", "Light Meter Range:0 to 20000", "Light Meter Resolution:3 to 48",
        "Light Meter Units:lux", "Temperature Sensor Range:0 to 70", "Temperature Sensor Resolution:0.1",
        "Temperature Sensor Units:deg. C", "",
        "Configuration Info", f"Measurement Frequency:{rate} Hz", "Measurement Period:168 Hours",
        "Start Time:" + fmt_time(start_local, 0), "Time Zone:GMT +02:00", "",
        "Trial Info", "Study Centre:", "Study Code:", "Investigator ID:", "Exercise Type:", "Config Operator ID:",
        "Config Time:2024-06-14 20:00:00:000", "Config Notes:", "Extract Operator ID:",
        "Extract Time:2024-06-15 09:00:00:000", "Extract Notes:", "",
        "Subject Info", "Device Location Code:left wrist", "Subject Code:spec", "Date of Birth:1900-01-01", "Sex:",
        "Height:", "Weight:", "Handedness Code:", "Subject Notes:", "",
        "Calibration Data", f"x gain:{gains[0]}", f"x offset:{offsets[0]}", f"y gain:{gains[1]}",
        f"y offset:{offsets[1]}", f"z gain:{gains[2]}", f"z offset:{offsets[2]}", "Volts:300", "Lux:800", "",
        "Memory Status", f"Number of Pages:{pages}", "",
    ]
    assert len(header) == 59
    lines = list(header)
    i = 0
    for p in range(pages):
        page_start = start_local + p * 300 // rate
        lines += ["Recorded Data", "Device Unique Serial Code:099999", f"Sequence Number:{p}",
                  "Page Time:" + fmt_time(page_start, 0), "Unassigned:", "Temperature:31.%d" % (p % 10),
                  "Battery voltage:4.0%d00" % (p % 10), "Device Status:Recording", f"Measurement Frequency:{rate}.0"]
        hexline = ""
        for _ in range(300):
            g = movement(i, rate, rng, 1.0)
            raw = []
            for axis in range(3):
                r = int(round((g[axis] * gains[axis] + offsets[axis]) / 100))
                raw.append(max(-2048, min(2047, r)))
            light = (i * 7) % 1024
            button = 1 if i % 97 == 0 else 0
            word = ((raw[0] & 0xFFF) << 36) | ((raw[1] & 0xFFF) << 24) | ((raw[2] & 0xFFF) << 12) | (light << 2) | (button << 1)
            hexline += "%012X" % word
            i += 1
        lines.append(hexline)
    with open(os.path.join(OUT, "spec_geneactiv.bin"), "wb") as f:
        f.write(("\r\n".join(lines) + "\r\n").encode())


def civil(sec):
    days, rem = divmod(sec, 86400)
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y += 1 if m <= 2 else 0
    return y, m, d, rem // 3600, (rem % 3600) // 60, rem % 60


# --------------------------------------------------------------------------- text formats

def make_actilife_raw():
    rate = 30
    rng = LCG(23)
    head = ["------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.3 Firmware v3.2.1 date format M/d/yyyy at 30 Hz  Filter Normal -----------",
            "Serial Number: NEO1F99999999", "Start Time 23:59:00", "Start Date 6/14/2024",
            "Epoch Period (hh:mm:ss) 00:00:00", "Download Time 09:00:00", "Download Date 6/15/2024",
            "Current Memory Address: 0", "Current Battery Voltage: 4.07     Mode = 12",
            "--------------------------------------------------"]
    with_ts = head + ["Timestamp,Accelerometer X,Accelerometer Y,Accelerometer Z"]
    without_ts = head + ["Accelerometer X,Accelerometer Y,Accelerometer Z"]
    start = 1718409540  # 2024-06-14 23:59:00 local
    for name, lines, minutes in [("spec_actilife_raw_timestamps.csv", with_ts, 2), ("spec_actilife_raw_plain.csv", without_ts, 1)]:
        rows = list(lines)
        for i in range(rate * minutes * 60):  # across midnight
            x, y, z = movement(i, rate, rng, 1.0)
            vals = "%.3f,%.3f,%.3f" % (x, y, z)
            if "Timestamp" in lines[-1]:
                y_, mo, d, h, mi, s = civil(start + i // rate)
                ms = (i % rate) * 1000 // rate
                rows.append("%d/%d/%d %02d:%02d:%02d.%03d,%s" % (mo, d, y_, h, mi, s, ms, vals))
            else:
                rows.append(vals)
        with open(os.path.join(OUT, name), "w", newline="") as f:
            f.write("\r\n".join(rows) + "\r\n")


def make_sensorlog():
    """SensorLog (iOS) export: CoreMotion columns in g, loggingTime with offset."""
    cols = ["loggingTime(txt)", "loggingSample(N)", "identifierForVendor(txt)", "accelerometerTimestamp_sinceReboot(s)",
            "accelerometerAccelerationX(G)", "accelerometerAccelerationY(G)", "accelerometerAccelerationZ(G)",
            "motionTimestamp_sinceReboot(s)", "motionUserAccelerationX(G)", "motionUserAccelerationY(G)",
            "motionUserAccelerationZ(G)", "motionGravityX(G)", "motionGravityY(G)", "motionGravityZ(G)"]
    rng = LCG(29)
    rows = [",".join(cols)]
    start = 1718405400  # 2024-06-14 22:50:00Z = 00:50:00+02:00
    rate = 10
    for i in range(rate * 60):
        t = start + i / rate
        local = int(t) + 7200
        y_, mo, d, h, mi, s = civil(local)
        stamp = "%04d-%02d-%02d %02d:%02d:%02d.%03d +0200" % (y_, mo, d, h, mi, s, int(round((t % 1) * 1000)) % 1000)
        ux, uy, uz = [v - c for v, c in zip(movement(i, rate, rng, 1.0), (0.0, 0.0, 0.98))]
        rows.append(",".join([stamp, str(i), "ABCDEF01-2345-6789-ABCD-EF0123456789", "%.6f" % (50000 + i / rate),
                              "%.6f" % ux, "%.6f" % uy, "%.6f" % (uz - 1.0), "%.6f" % (50000 + i / rate),
                              "%.6f" % ux, "%.6f" % uy, "%.6f" % uz, "0.000000", "0.000000", "-1.000000"]))
    with open(os.path.join(OUT, "spec_sensorlog.csv"), "w", newline="") as f:
        f.write("\n".join(rows) + "\n")


def make_sensor_logger():
    """Sensor Logger: time (ns since 1970, UTC), seconds_elapsed, z, y, x in m/s²."""
    start_ns = 1718405400 * 10**9 + 123_456_789
    rate = 50
    for name, gravity in [("Accelerometer.csv", 0.0), ("TotalAcceleration.csv", 9.80665)]:
        rng = LCG(31)  # the same movement in both files
        rows = ["time,seconds_elapsed,z,y,x"]
        for i in range(rate * 30):
            x, y, z = movement(i, rate, rng, 9.80665)
            z = z - 0.98 * 9.80665 + gravity
            t = start_ns + i * 10**9 // rate
            rows.append("%d,%.9f,%.6f,%.6f,%.6f" % (t, i / rate, z, y, x))
        folder = os.path.join(OUT, "sensor_logger")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name), "w", newline="") as f:
            f.write("\n".join(rows) + "\n")


def make_sleep_as_android():
    """Two records: tracked (actigraphy + noise line + events) and manually added."""
    header = 'Id,Tz,From,To,Sched,Hours,Rating,Comment,Framerate,Snore,Noise,Cycles,DeepSleep,LenAdjust,Geo'
    rec_start_ms = 1718404980000  # 2024-06-15 00:43:00 Europe/Berlin
    hours = 7.5
    n_bins = 90  # 5-minute bins
    times = []
    for k in range(n_bins):
        sec = rec_start_ms // 1000 + 7200 + k * 300
        _, _, _, h, mi, _ = civil(sec)
        times.append('"%d:%02d"' % (h, mi))
    values = ['"%.2f"' % (abs(math.sin(k / 7.0)) * 3 + (2.5 if k % 17 == 0 else 0)) for k in range(n_bins)]
    noise = ['"%.3f"' % (0.01 * (k % 5)) for k in range(n_bins)]
    events = ['"DEEP_START-%d"' % (rec_start_ms + 1800_000), '"DEEP_END-%d"' % (rec_start_ms + 4200_000),
              '"AWAKE_START-%d"' % (rec_start_ms + 12_000_000), '"AWAKE_END-%d"' % (rec_start_ms + 12_300_000),
              '"LUX-%d-12.5"' % (rec_start_ms + 600_000)]
    first = [header + "," + ",".join(times) + "," + ",".join(['"Event"'] * len(events)),
             ",".join(['"%d"' % rec_start_ms, '"Europe/Berlin"', '"15. 06. 2024 0:43"', '"15. 06. 2024 8:13"',
                       '"15. 06. 2024 8:15"', '"%.3f"' % hours, '"3.5"', '"#home ""quiet"" night"', '"10000"', '"0"',
                       '"0.034"', '"5"', '"0.42"', '"-12"', '"u2ey6u"'] + values + events),
             "," * 14 + "," + ",".join(noise)]
    manual = [header + ',"7:00"',
              ",".join(['"1718485200000"', '"Europe/Berlin"', '"15. 06. 2024 23:00"', '"16. 06. 2024 7:00"',
                        '"16. 06. 2024 7:00"', '"8.000"', '"0.0"', '"Manually added"', '"10007"', '"-1"', '"-1.0"',
                        '"-1"', '"-1.0"', '"-1.0"', '""', '"0.0"'])]
    with open(os.path.join(OUT, "spec_sleep-export.csv"), "w", newline="") as f:
        f.write("\n".join(first + manual) + "\n")


def make_gzip_copies():
    """gzip versions (fixed mtime so the bytes do not change between runs)."""
    for src, dst in [("spec_actilife_raw_timestamps.csv", "spec_actilife_raw_timestamps.csv.gz"),
                     ("spec_ax3_packed.cwa", "spec_ax3_packed.cwa.gz")]:
        with open(os.path.join(OUT, src), "rb") as f:
            data = f.read()
        with open(os.path.join(OUT, dst), "wb") as f:
            with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as g:
                g.write(data)


if __name__ == "__main__":
    make_gt3x("spec_activity12.gt3x", False, zipfile.ZIP_DEFLATED)
    make_gt3x("spec_activity12_padded_stored.gt3x", True, zipfile.ZIP_STORED)
    make_gt3x("spec_idle_to_end.gt3x", False, zipfile.ZIP_DEFLATED, trailing_idle=True)
    make_nhanes_gt3x("spec_nhanes_activity.gt3x")
    make_nhanes_example("spec_nhanes_example.gt3x")
    make_actilife_lsb()
    make_gt3x2csv()
    # AX3: 10-bit packed, 100 Hz ±8 g (rate code 0x4A), true rate 100.05 Hz; AX6-style: 16-bit, 50 Hz ±8 g (0x49), 1/4096 g.
    make_cwa("spec_ax3_packed.cwa", True, 100, 0x4A, 0, 100, 100.05, 1718405400, 4242, 12345)
    make_cwa("spec_ax6_16bit.cwa", False, 50, 0x49, 4, 60, 49.98, 1718405400, 4343, 23456)
    make_geneactiv()
    make_actilife_raw()
    make_sensorlog()
    make_sensor_logger()
    make_sleep_as_android()
    make_gzip_copies()
    print("fixtures written to", OUT)
