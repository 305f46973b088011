#!/usr/bin/env python3
"""Find every file with user-visible strings and keep po/POTFILES.in in step.

A file has strings when its code (comments stripped) calls _(), N_(), C_(),
NC_(), Q_() or ngettext(), when a .ui file has translatable="yes", or when it
is a desktop file, AppStream metainfo or GSettings schema template.

  potfiles.py [--root DIR] --check   exit 1 and name the files missing from
                                     POTFILES.in (or listed but gone)
  potfiles.py [--root DIR] --write   rewrite POTFILES.in
  potfiles.py [--root DIR] --list    print the files found
"""
import argparse
import os
import re
import sys

SKIP_DIRS = {".git", "po", "tests", "subprojects", "flatpak", "node_modules"}
C_CALL = re.compile(r"(?<![A-Za-z0-9_])(?:_|N_|C_|NC_|Q_|ngettext|g_dngettext|g_dpgettext2)\s*\(")
UI_TRANSLATABLE = re.compile(r"""translatable\s*=\s*["']yes["']""")
ALWAYS = (".desktop.in", ".metainfo.xml.in", ".gschema.xml")


def strip_c_comments(text):
    """Drop comments and the contents of string and character literals."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)  # the literal's text cannot hold a call
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def has_strings(path):
    name = os.path.basename(path)
    if name.endswith(ALWAYS):
        return True
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return False
    if name.endswith((".c", ".h")):
        return C_CALL.search(strip_c_comments(text)) is not None
    if name.endswith(".ui"):
        return UI_TRANSLATABLE.search(text) is not None
    return False


def find(root):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        dirnames[:] = sorted(d for d in dirnames
                             if not (rel_dir == "." and (d in SKIP_DIRS or d.startswith("_build")))
                             and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith((".c", ".h", ".ui") + ALWAYS):
                path = os.path.join(dirpath, name)
                if has_strings(path):
                    found.append(os.path.relpath(path, root))
    # XML files (.ui, desktop, metainfo, schema) go before the C sources:
    # xgettext 0.21 applies the C format heuristic to XML strings read after
    # a C file, so "CPU (% of one core)" would become c-format and msgfmt
    # --check would demand a "% o" in its translation.
    return sorted(found, key=lambda f: (f.endswith((".c", ".h")), f))


def read_list(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [l.strip() for l in f if l.strip() and not l.startswith("#")]
    except FileNotFoundError:
        return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--list", action="store_true")
    args = ap.parse_args()

    root = os.path.abspath(args.root)
    potfiles = os.path.join(root, "po", "POTFILES.in")
    skip = set(read_list(os.path.join(root, "po", "POTFILES.skip")))
    found = [f for f in find(root) if f not in skip]

    if args.list:
        print("\n".join(found))
        return 0
    if args.write:
        with open(potfiles, "w", encoding="utf-8") as f:
            f.write("# Files with translatable strings; po/potfiles.py --write regenerates this list.\n")
            f.write("".join(p + "\n" for p in found))
        return 0

    listed = read_list(potfiles)
    missing = [f for f in found if f not in listed]
    gone = [f for f in listed if not os.path.isfile(os.path.join(root, f))]
    for f in missing:
        print(f"missing from po/POTFILES.in: {f}")
    for f in gone:
        print(f"listed in po/POTFILES.in but does not exist: {f}")
    if missing or gone:
        print("run po/update.sh (or po/potfiles.py --write) to fix the list")
        return 1
    print(f"ok: po/POTFILES.in covers all {len(found)} files with translatable strings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
