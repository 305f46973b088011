#!/usr/bin/env python3
"""The Flatpak manifest parses with flatpak-builder and builds, as modules,
every dependency the meson build declares that the GNOME runtime lacks.

Usage: test-flatpak.py FLATPAK_BUILDER MANIFEST BUILDDIR MESON APP_ID
"""
import json
import os
import subprocess
import sys
import tempfile

builder, manifest_path, builddir, meson, app_id = sys.argv[1:6]
fails = 0

# What org.gnome.Platform (GNOME 43 and later) ships, by pkg-config name.
RUNTIME = {
    "glib-2.0", "gobject-2.0", "gio-2.0", "gio-unix-2.0", "gmodule-2.0",
    "json-glib-1.0", "libsoup-3.0", "gtk4", "libadwaita-1",
    "libusb-1.0", "zlib", "libzstd", "liblz4", "libbrotlidec", "libpcre2-8",
    # app icons (GTK's own dependencies; libwebp is in the Freedesktop SDK)
    "cairo", "librsvg-2.0", "libwebp",
    # from the freedesktop base the GNOME runtime is built on (recordings)
    "sqlite3",
    # meson's name for the C library's pthreads, not a package
    "threads",
}
# A dependency named differently from the module that builds it.
PROVIDED_BY = {"libprotobuf-c": "protobuf-c"}
# Modules no meson dependency names, and why they are there.
SUPPORT = {
    "protobuf": "libprotoc for protobuf-c's compiler, libprotobuf for adb",
    "android-tools": "adb inside the sandbox, so no host adb is needed",
}


def check(name, ok, detail=""):
    global fails
    print(("ok - " if ok else "not ok - ") + name + ("" if ok or detail == "" else f": {detail}"))
    if not ok:
        fails += 1


# 1. flatpak-builder itself reads it: no parse error, no unknown property.
# In a scratch directory: flatpak-builder leaves a .flatpak-builder/ state
# folder in its working directory.
with tempfile.TemporaryDirectory() as scratch:
    r = subprocess.run([builder, "--show-manifest", os.path.abspath(manifest_path)],
                       capture_output=True, text=True, cwd=scratch)
check("flatpak-builder --show-manifest parses it", r.returncode == 0, r.stderr.strip())
check("flatpak-builder warns about nothing (unknown properties)", r.stderr.strip() == "", r.stderr.strip())
try:
    shown = json.loads(r.stdout)
except ValueError as e:
    shown = {}
    check("--show-manifest prints JSON", False, str(e))
with open(manifest_path, encoding="utf-8") as f:
    manifest = json.load(f)

check("app id is " + app_id, shown.get("id") == app_id == os.path.basename(manifest_path)[:-5],
      shown.get("id"))
check("runtime is org.gnome.Platform", shown.get("runtime") == "org.gnome.Platform")
check("sdk is org.gnome.Sdk", shown.get("sdk") == "org.gnome.Sdk")
rv = shown.get("runtime-version", "")
check("GNOME runtime has the build floor (43: GTK 4.8, libadwaita 1.2)",
      rv.isdigit() and int(rv) >= 43, rv)
check("command is adbscope", shown.get("command") == "adbscope")

args = set(manifest.get("finish-args", []))
for need, why in (("--share=network", "adb server and TCP devices"),
                  ("--socket=wayland", "a window"),
                  ("--socket=fallback-x11", "a window on X11"),
                  ("--share=ipc", "X11 shared memory"),
                  ("--device=dri", "GL rendering")):
    check(f"finish-args has {need} ({why})", need in args)
check("finish-args give USB devices (--device=all or --device=usb)",
      bool({"--device=all", "--device=usb"} & args))
check("adb's keys persist (--persist=.android)", "--persist=.android" in args)

modules = manifest.get("modules", [])
names = [m.get("name") if isinstance(m, dict) else m for m in modules]
app = modules[-1] if modules and isinstance(modules[-1], dict) else {}
check("the last module is the app", app.get("name") == "adbscope")
check("the app builds with meson", app.get("buildsystem") == "meson")
check("the app is built from this checkout",
      any(s.get("type") == "dir" and os.path.realpath(os.path.join(os.path.dirname(manifest_path), s.get("path", "")))
          == os.path.realpath(os.path.join(os.path.dirname(manifest_path), ".."))
          for s in app.get("sources", [])))

# 2. Every dependency the meson build actually declares is in the runtime or
# built by a module.
r = subprocess.run([meson, "introspect", builddir, "--dependencies"], capture_output=True, text=True)
check("meson introspect --dependencies works", r.returncode == 0, r.stderr.strip())
deps = sorted({d["name"] for d in json.loads(r.stdout or "[]") if d.get("name")})
print("# meson dependencies: " + ", ".join(deps))
check("meson declares dependencies", len(deps) >= 5, deps)
needed = set()
for dep in deps:
    if dep in RUNTIME:
        continue
    module = PROVIDED_BY.get(dep, dep)
    needed.add(module)
    check(f"dependency {dep} is built by module {module}", module in names,
          "add a module for it to flatpak/" + os.path.basename(manifest_path))

# 3. No module is left over.
for name in names[:-1]:
    check(f"module {name} is needed", name in needed or name in SUPPORT,
          "no meson dependency needs it")
for name in SUPPORT:
    check(f"module {name} is there ({SUPPORT[name]})", name in names)

by_name = {m["name"]: m for m in modules if isinstance(m, dict)}
pc = by_name.get("protobuf-c", {})
check("protobuf-c builds its compiler (protoc-c)",
      "--disable-protoc" not in pc.get("config-opts", []) and names.index("protobuf") < names.index("protobuf-c")
      if "protobuf" in names and "protobuf-c" in names else False)
at = by_name.get("android-tools", {})
cmds = " ".join(at.get("build-commands", []))
check("android-tools builds adb from source into /app/bin",
      "adb" in cmds and "/app/bin" in cmds and all(s.get("type") in ("git", "archive") for s in at.get("sources", [])))
for m in modules[:-1]:
    for s in m.get("sources", []):
        pinned = s.get("tag") or s.get("commit") or s.get("sha256")
        check(f"module {m['name']} source is pinned", bool(pinned), s)

sys.exit(1 if fails else 0)
