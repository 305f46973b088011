#!/usr/bin/env python3
"""Turns one device's captures in shared/fixtures/android into a replay
directory for `adbscope sim --replay DIR` (the manifest format of
`adbscope capture-device`, docs/sim.md).

    fixtures-to-replay.py FIXTURES_DIR SET OUT_DIR

A set names the fixture files of ONE phone, each as the answer to the
command or the file Adbscope reads; `ps -A -o …` answers are the columns
of that phone's full `ps -A` (a selection, no value invented).  What the
fixtures do not have is not in the replay: the device answers "the
capture has no answer" for it, and Adbscope reports the source as such.
Read-only on FIXTURES_DIR; writes only OUT_DIR (must not exist or be empty).
"""
import json
import os
import sys

SETS = {
    # Healer-s/Healer bugreport of a MediaTek MT8168 tablet, Android 13
    # (fixtures/android/SOURCES.md), plus its `ps -A` taken a minute earlier.
    "mt8168": {
        "package": "com.android.systemui",
        "getprop": "getprop/android13-mtk-mt8168-tablet-bugreport-getprop.txt",
        "ps": "ps/android13-mtk-mt8168-tablet-ps-A.txt",
        "commands": {
            "dumpsys battery": "battery/android13-mtk-mt8168-tablet-bugreport-dumpsys-battery.txt",
            "dumpsys thermalservice": "thermal/android13-mtk-mt8168-tablet-bugreport-dumpsys-thermalservice.txt",
            "dumpsys deviceidle": "deviceidle/android13-mtk-mt8168-tablet-bugreport-dumpsys-deviceidle.txt",
            "dumpsys alarm": "alarm/android13-mtk-mt8168-tablet-bugreport-dumpsys-alarm.txt",
        },
        "services": ["thermalservice", "battery", "deviceidle", "alarm"],
        # Not a fixture file: the same bugreport's "DUMP OF SERVICE package"
        # gives codePath=/system/system_ext/priv-app/MtkSystemUI for
        # com.android.systemui; a system app's APK is named after its
        # directory, which is what `pm path` prints.
        "literal": {
            "pm path com.android.systemui": "package:/system/system_ext/priv-app/MtkSystemUI/MtkSystemUI.apk\n",
        },
        "files": {
            "/proc/meminfo": "proc/android13-mtk-mt8168-tablet-bugreport-proc-meminfo.txt",
            "/proc/net/dev": "proc/android13-mtk-mt8168-tablet-bugreport-proc-net-dev.txt",
            "/proc/pressure/memory": "proc/android13-mtk-mt8168-tablet-bugreport-proc-pressure-memory.txt",
        },
    },
}


def ps_columns(text, columns):
    """The named columns of a toybox `ps -A` table, re-laid as toybox would."""
    lines = [l for l in text.splitlines() if l.strip()]
    header = lines[0].split()
    rows = []
    for line in lines[1:]:
        words = line.split()
        # NAME is the last column and may not contain spaces in ps -A
        row = dict(zip(header[:-1], words[:len(header) - 1]))
        row["NAME"] = " ".join(words[len(header) - 1:])
        rows.append(row)
    out = ["  ".join(c.rjust(5) if c != "NAME" else c for c in columns)]
    for row in rows:
        out.append("  ".join(row[c].rjust(5) if c != "NAME" else row[c] for c in columns))
    return "\n".join(out) + "\n", rows


def main():
    if len(sys.argv) != 4 or sys.argv[2] not in SETS:
        sys.stderr.write("usage: fixtures-to-replay.py FIXTURES_DIR {%s} OUT_DIR\n" % ",".join(SETS))
        return 2
    root, name, out = sys.argv[1:]
    spec = SETS[name]
    if os.path.exists(out) and os.listdir(out):
        sys.stderr.write("fixtures-to-replay.py: %s exists and is not empty\n" % out)
        return 1

    def read(rel):
        with open(os.path.join(root, rel), encoding="utf-8", errors="surrogateescape") as f:
            return f.read()

    commands, files = [], []

    def add_command(line, text, status=0):
        rel = "commands/%03d/0.txt" % len(commands)
        os.makedirs(os.path.join(out, os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(out, rel), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        commands.append({"command": line, "argv": line.split(" "), "files": [rel], "exit_status": [status]})

    getprop = read(spec["getprop"])
    add_command("getprop", getprop)
    for line, rel in spec["commands"].items():
        add_command(line, read(rel))
    for line, text in spec.get("literal", {}).items():
        add_command(line, text)
    for s in ("thermalservice", "gfxinfo", "meminfo", "battery", "deviceidle", "jobscheduler", "alarm"):
        add_command("service check " + s,
                    "Service %s: %s\n" % (s, "found" if s in spec["services"] else "not found"))
    pkg = spec["package"]
    pid = None
    if "ps" in spec:
        full = read(spec["ps"])
        slow, rows = ps_columns(full, ["PID", "PPID", "RSS", "NAME"])
        add_command("ps -A -o PID,PPID,RSS,NAME", slow)
        for row in rows:
            if row["NAME"] == pkg:
                pid = int(row["PID"])
                break
        add_command("pidof " + pkg, "%d\n" % pid if pid else "", 0 if pid else 1)
    for path, rel in spec["files"].items():
        dest = "files/0" + path
        os.makedirs(os.path.join(out, os.path.dirname(dest)), exist_ok=True)
        with open(os.path.join(out, dest), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(read(rel))
        files.append({"path": path, "files": [dest], "exit_status": [0]})

    props = {}
    for line in getprop.splitlines():
        if line.startswith("[") and "]: [" in line:
            k, v = line[1:].split("]: [", 1)
            props[k] = v.rstrip("]")
    manifest = {
        "format": "adbscope-device-capture", "version": 1,
        "adbscope_version": None, "created": None,
        "from_fixtures": name,
        "package": pkg, "pid": pid,
        "device": {k: props.get(p) for k, p in (("model", "ro.product.model"), ("manufacturer", "ro.product.manufacturer"),
                                                 ("product", "ro.product.name"), ("device", "ro.product.device"),
                                                 ("sdk", "ro.build.version.sdk"), ("release", "ro.build.version.release"))},
        "repeats": 1, "times_s": [0.0], "uptime_s": [],
        "commands": commands, "files": files, "dirs": [], "redacted": {},
    }
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
