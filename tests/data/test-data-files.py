#!/usr/bin/env python3
"""What the validators do not check: the files agree with each other and with
the build, and carry what the issue asks for.

Usage: test-data-files.py APP_ID VERSION DESKTOP METAINFO SRCDIR
"""
import configparser
import os
import sys
import xml.etree.ElementTree as ET

app_id, version, desktop_path, metainfo_path, srcdir = sys.argv[1:6]
fails = 0


def check(name, ok, detail=""):
    global fails
    print(("ok - " if ok else "not ok - ") + name + ("" if ok or not detail else f": {detail}"))
    if not ok:
        fails += 1


# Desktop file (the merged one, so translations must be in it).
cp = configparser.RawConfigParser(strict=True, interpolation=None)
cp.optionxform = str
cp.read(desktop_path, encoding="utf-8")
entry = cp["Desktop Entry"]
check("desktop file is named after the app id", os.path.basename(desktop_path) == app_id + ".desktop")
cats = entry.get("Categories", "").rstrip(";").split(";")
check("Categories has Development and Profiling", {"Development", "Profiling"} <= set(cats), cats)
kw = entry.get("Keywords", "").rstrip(";").split(";")
want_kw = ["android", "adb", "performance", "fps", "cpu", "memory", "network"]
check("Keywords has " + ", ".join(want_kw), set(want_kw) <= set(kw), kw)
check("Exec runs the adbscope binary", entry.get("Exec", "").split()[0] == "adbscope")
check("Icon is the app id", entry.get("Icon") == app_id)
icon = os.path.join(srcdir, "data", "icons", "hicolor", "scalable", "apps", app_id + ".svg")
check("the icon it names exists", os.path.isfile(icon))
for key in ("Name", "Comment", "GenericName"):
    check(f"{key}[zh_CN] was merged from po/zh_CN.po",
          entry.get(f"{key}[zh_CN]", "") != "" and (key == "Name" or entry.get(f"{key}[zh_CN]") != entry.get(key)))
zh_kw = entry.get("Keywords[zh_CN]", "").rstrip(";").split(";")
check("Keywords[zh_CN] keeps the English keywords and adds Chinese ones",
      set(want_kw) <= set(zh_kw) and any(ord(c) > 0x2e80 for k in zh_kw for c in k), zh_kw)

# AppStream metainfo.
root = ET.parse(metainfo_path).getroot()
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
check("metainfo is a desktop-application", root.get("type") == "desktop-application")
check("metainfo id is the app id", root.findtext("id") == app_id)
check("metainfo file is named after the app id",
      os.path.basename(metainfo_path) == app_id + ".metainfo.xml")
launch = root.find("launchable")
check("launchable names the desktop file",
      launch is not None and launch.get("type") == "desktop-id" and launch.text == app_id + ".desktop")
check("provides the adbscope binary", [b.text for b in root.findall("provides/binary")] == ["adbscope"])
check("has a description", len(root.findall("description/p")) >= 2)
rating = root.find("content_rating")
check("has an OARS content rating", rating is not None and rating.get("type", "").startswith("oars-"))
shots = root.findall("screenshots/screenshot")
check("has screenshots, one default", len(shots) >= 1 and sum(s.get("type") == "default" for s in shots) == 1)
for s in shots:
    img = s.findtext("image") or ""
    check(f"screenshot {os.path.basename(img)} is an https URL of data/screenshots/",
          img.startswith("https://") and "/data/screenshots/" in img and img.endswith(".png"), img)
    check(f"screenshot {os.path.basename(img)} has a caption", bool(s.findtext("caption")))
    local = os.path.join(srcdir, "data", "screenshots", os.path.basename(img))
    elem = s.find("image")
    size = None
    if os.path.isfile(local):
        with open(local, "rb") as f:
            head = f.read(24)
        if head[:8] == b"\x89PNG\r\n\x1a\n":
            size = (int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big"))
    check(f"screenshot {os.path.basename(img)} is in the repository as a PNG", size is not None, local)
    check(f"screenshot {os.path.basename(img)} has its real width and height",
          size is not None and elem is not None and
          (elem.get("width"), elem.get("height")) == (str(size[0]), str(size[1])),
          f"{size} vs {elem.get('width') if elem is not None else None}x{elem.get('height') if elem is not None else None}")
releases = root.findall("releases/release")
check("newest release is the meson project version",
      bool(releases) and releases[0].get("version") == version,
      releases[0].get("version") if releases else "none")
check("every release has notes", all(r.find("description") is not None for r in releases))
check("translation domain is adbscope",
      any(t.get("type") == "gettext" and t.text == "adbscope" for t in root.findall("translation")))
check("summary was translated into zh_CN",
      any(s.get(XML_LANG) == "zh_CN" for s in root.findall("summary")))
check("description was translated into zh_CN",
      any(p.get(XML_LANG) == "zh_CN" for p in root.findall("description/p")))

sys.exit(1 if fails else 0)
