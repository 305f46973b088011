#!/usr/bin/env python3
"""Read meson's testlog.json files and print the one line CI reads."""
import json
import sys

build_failed = sys.argv[1] != "0"
passed = failed = skipped = 0
failures = []
for path in sys.argv[2:]:
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError as e:
        print(f"error: cannot read {path}: {e}", file=sys.stderr)
        failed += 1
        continue
    for line in lines:
        if not line.strip():
            continue
        try:
            t = json.loads(line)
        except ValueError:
            print(f"error: {path}: a line that is not JSON", file=sys.stderr)
            failed += 1
            continue
        r = t.get("result")
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r == "SKIP":
            skipped += 1
        else:
            failed += 1
            failures.append(f"{t.get('name')} ({r})")
if build_failed:
    failed += 1
    failures.append("build")
if passed + failed == 0:
    failed = 1
    failures.append("no test ran")
for f in failures:
    print(f"FAILED: {f}")
line = f"{passed} passed, {failed} failed"
if skipped:
    line += f", {skipped} skipped"
print(line)
sys.exit(1 if failed else 0)
