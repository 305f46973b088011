#!/usr/bin/env python3
"""The agent APK of a release, and its pin in the Flatpak manifest
(flatpak/README.md, "The agent APK").

  build-aux/agent-apk-release.py --keystore KS --ks-pass-file F --key-alias A
                                 --pb-c BUILDDIR/proto/agent.pb-c.c
                                 [--out DIR] [--update-manifest URL_BASE]

Builds adbscope-agent-VERSION.apk with the release key (agent/android/
build-apk.py, the same build meson runs), prints its sha256 and, with
--update-manifest, pins it in flatpak/io.github.adbscope.Adbscope.json: a
`file` source URL_BASE/vVERSION/adbscope-agent-VERSION.apk with that sha256
in the adbscope module, which then embeds it (-Dagent_apk) instead of
building it (the GNOME SDK has no smali, aapt, apksigner or cross
compilers).  Anyone can check that file without the key: build the APK
from the same tag (any key) and run
  agent/android/tests/check-apk.py same-content RELEASE.apk YOURS.apk
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "flatpak", "io.github.adbscope.Adbscope.json")
APK_PATH_IN_FLATPAK = "/run/build/adbscope/adbscope-agent.apk"


def project_version():
    with open(os.path.join(ROOT, "meson.build"), encoding="utf-8") as f:
        m = re.search(r"project\([^)]*?version:\s*'([^']+)'", f.read(), re.S)
    return m.group(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--keystore", required=True)
    p.add_argument("--ks-pass-file", required=True)
    p.add_argument("--key-alias", required=True)
    p.add_argument("--pb-c", required=True)
    p.add_argument("--out", default=os.path.join(ROOT, "_release"))
    p.add_argument("--update-manifest", metavar="URL_BASE", default="")
    args = p.parse_args()

    version = project_version()
    os.makedirs(args.out, exist_ok=True)
    apk = os.path.join(args.out, "adbscope-agent-%s.apk" % version)
    subprocess.run([sys.executable, os.path.join(ROOT, "agent", "android", "build-apk.py"),
                    "--out", apk, "--work", os.path.join(args.out, "work"), "--pb-c", args.pb_c,
                    "--version", version, "--min-sdk", "26", "--target-sdk", "34",
                    "--keystore", args.keystore, "--ks-pass-file", args.ks_pass_file,
                    "--key-alias", args.key_alias], check=True)
    with open(apk, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    print("%s  %s" % (sha, apk))
    if not args.update_manifest:
        return
    with open(MANIFEST, encoding="utf-8") as f:
        manifest = json.load(f)
    module = next(m for m in manifest["modules"] if isinstance(m, dict) and m.get("name") == "adbscope")
    module["sources"] = [s for s in module["sources"]
                         if not (s.get("type") == "file" and s.get("dest-filename") == "adbscope-agent.apk")]
    module["sources"].append({
        "type": "file",
        "url": "%s/v%s/adbscope-agent-%s.apk" % (args.update_manifest.rstrip("/"), version, version),
        "sha256": sha,
        "dest-filename": "adbscope-agent.apk",
    })
    opts = [o for o in module.get("config-opts", []) if not o.startswith("-Dagent_apk=")]
    # agent_apk_build=disabled stays: the SDK cannot build it; the pinned file is embedded.
    opts.append("-Dagent_apk=" + APK_PATH_IN_FLATPAK)
    module["config-opts"] = opts
    with open(MANIFEST, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=4, ensure_ascii=False)
        f.write("\n")
    print("pinned in " + MANIFEST)


if __name__ == "__main__":
    main()
