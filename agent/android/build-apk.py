#!/usr/bin/env python3
"""Builds adbscope-agent.apk from this repository with Debian 12's own tools
(docs/agent.md, "How the APK is built"): no Android SDK, NDK or Gradle.

  build-apk.py --out APK --work DIR --pb-c agent.pb-c.c --version X.Y.Z
               [--keystore KS --ks-pass-file F --key-alias A]   (else a key
               generated once in DIR/../adbscope-agent-debug.keystore)
               [--abis arm64-v8a,armeabi-v7a,x86_64] [--min-sdk 26]
               [--target-sdk 34] [--ccache PATH]

1. lib/<abi>/libadbscope-agent.so: the engine, the JNI layer and protobuf-c
   (Debian's static libprotobuf-c.a for the target) cross-compiled with
   Debian's gcc against glibc's headers and linked -nostdlib against stub
   libc.so/liblog.so made here from the objects' undefined symbols (never
   shipped), with a version script exporting Java_* only;
2. classes.dex assembled by smali from app/src/main/smali;
3. the manifest and resources compiled by aapt against Debian's
   framework-res.apk (API 29), the binary manifest patched for what API 29
   cannot name (foregroundServiceType="specialUse");
4. one zip written here with fixed times and sorted entries, zipalign -p 4,
   apksigner sign (RSA: deterministic signatures).

Two runs with the same tree and key give the same bytes.
"""
import argparse
import concurrent.futures
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
APP = os.path.join(HERE, "app", "src", "main")
ENGINE = os.path.join(ROOT, "agent", "engine")
ENGINE_SOURCES = ["engine-packet.c", "engine-dns.c", "engine-host.c", "engine.c",
                  "engine-tcp.c", "engine-udp.c", "engine-server.c"]
JNI_SOURCES = ["agent-jni.c", "agent-bionic-shim.c"]
FRAMEWORK_RES = "/usr/share/android-framework-res/framework-res.apk"

# abi: (gcc triplet, multiarch dir of libprotobuf-c.a, extra flags)
ABIS = {
    "arm64-v8a": ("aarch64-linux-gnu", "aarch64-linux-gnu",
                  ["-march=armv8-a", "-mno-outline-atomics"]),
    "armeabi-v7a": ("arm-linux-gnueabihf", "arm-linux-gnueabihf",
                    ["-march=armv7-a", "-mthumb", "-mfpu=vfpv3-d16"]),
    "x86_64": ("x86_64-linux-gnu", "x86_64-linux-gnu", ["-march=x86-64"]),
}
DEFAULT_ABIS = "arm64-v8a,armeabi-v7a,x86_64"

# Undefined symbols that are data, not functions (the stub must say so).
DATA_SYMBOLS = {"__stack_chk_guard"}

# A fixed time for every zip entry (the DOS epoch AOSP's tools use).
ZIP_TIME = (2008, 1, 1, 0, 0, 0)

# foregroundServiceType: attribute id and the API-34 flag API 29 cannot name.
ATTR_FGS_TYPE = 0x01010599
FGS_PLACEHOLDER = 0x1          # "dataSync", written in the source manifest
FGS_SPECIAL_USE = 0x40000000


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode != 0:
        sys.stderr.write("build-apk: %s failed:\n%s\n" % (" ".join(cmd), r.stdout))
        sys.exit(1)
    return r.stdout


def version_code(version):
    parts = (version.split(".") + ["0", "0", "0"])[:3]
    major, minor, patch = (int("".join(c for c in p if c.isdigit()) or "0") for p in parts)
    return major * 10000 + minor * 100 + patch


# ---- native ---------------------------------------------------------------

def compile_abi(abi, args, pool):
    triplet, multiarch, arch_flags = ABIS[abi]
    cc = triplet + "-gcc"
    out = os.path.join(args.work, abi)
    os.makedirs(out, exist_ok=True)
    pbdir = os.path.dirname(os.path.abspath(args.pb_c))
    flags = arch_flags + [
        "-std=gnu11", "-O2", "-g0", "-fPIC", "-fvisibility=hidden",
        "-U_FORTIFY_SOURCE", "-fno-stack-protector", "-fno-ident",
        "-ffunction-sections", "-fdata-sections",
        "-D_GNU_SOURCE", '-DADBSCOPE_AGENT_VERSION="%s"' % args.version,
        "-ffile-prefix-map=%s=." % ROOT, "-ffile-prefix-map=%s=." % os.path.abspath(args.work),
        "-ffile-prefix-map=%s=." % pbdir,
        "-I", ENGINE, "-I", pbdir, "-I", os.path.join(APP, "cpp"),
        "-I", args.jni_include, "-I", os.path.join(args.jni_include, "linux"),
        "-Wall", "-Wno-unused-parameter",
    ]
    prefix = [args.ccache] if args.ccache else []
    sources = [os.path.join(ENGINE, s) for s in ENGINE_SOURCES]
    sources += [os.path.join(APP, "cpp", s) for s in JNI_SOURCES]
    sources.append(os.path.abspath(args.pb_c))
    jobs = []
    objs = []
    for src in sources:
        obj = os.path.join(out, os.path.basename(src).replace(".c", ".o"))
        objs.append(obj)
        jobs.append(pool.submit(run, prefix + [cc] + flags + ["-c", src, "-o", obj]))
    for j in jobs:
        j.result()

    # protobuf-c's runtime from Debian's static library for this target.
    pbc_a = "/usr/lib/%s/libprotobuf-c.a" % multiarch
    if not os.path.exists(pbc_a):
        sys.stderr.write("build-apk: %s is missing (apt-get install libprotobuf-c-dev:ARCH)\n" % pbc_a)
        sys.exit(1)
    pbc_dir = os.path.join(out, "protobuf-c")
    os.makedirs(pbc_dir, exist_ok=True)
    run([triplet + "-ar", "x", pbc_a, "protobuf-c.o"], cwd=pbc_dir)
    objs.append(os.path.join(pbc_dir, "protobuf-c.o"))

    # Stub libc.so / liblog.so: exactly the symbols the library needs (its
    # objects and the libgcc members they pull in: a first link that ignores
    # what is undefined tells), as the NDK's stubs are made from bionic's
    # symbol lists.  Linked against, never shipped.
    vscript = os.path.join(out, "exports.map")
    with open(vscript, "w") as f:
        f.write("{\n  global: Java_*;\n  local: *;\n};\n")
    link = [cc] + arch_flags + ["-shared", "-nostdlib"] + objs + ["-lgcc"]
    flags_link = ["-Wl,--version-script=" + vscript,
                  "-Wl,-soname,libadbscope-agent.so",
                  "-Wl,-z,noexecstack", "-Wl,-z,relro", "-Wl,-z,now",
                  "-Wl,-z,max-page-size=16384", "-Wl,--hash-style=both",
                  "-Wl,--build-id=sha1", "-Wl,--gc-sections", "-Wl,-s"]
    probe = os.path.join(out, "probe.so")
    run(link + flags_link + ["-Wl,--unresolved-symbols=ignore-all", "-o", probe])
    needed = []
    for line in run([triplet + "-nm", "-D", "--undefined-only", "--format=posix", probe]).splitlines():
        f = line.split()
        if f and f[0] not in needed:
            needed.append(f[0])
    needed.sort()
    stub_dir = os.path.join(out, "stub")
    os.makedirs(stub_dir, exist_ok=True)
    for lib, names in (("log", [n for n in needed if n.startswith("__android_log")]),
                       ("c", [n for n in needed if not n.startswith("__android_log")])):
        src = os.path.join(stub_dir, "lib%s.c" % lib)
        with open(src, "w") as f:
            for i, n in enumerate(names):
                if n in DATA_SYMBOLS:
                    f.write('int s%d __asm__ ("%s");\nint s%d;\n' % (i, n, i))
                else:
                    f.write('void s%d (void) __asm__ ("%s");\nvoid s%d (void) {}\n' % (i, n, i))
        with open(os.path.join(stub_dir, "lib%s.symbols" % lib), "w") as f:
            f.write("".join(n + "\n" for n in names))
        run([cc] + arch_flags + ["-shared", "-nostdlib", "-fPIC", "-w", "-o",
                                 os.path.join(stub_dir, "lib%s.so" % lib), src,
                                 "-Wl,-soname,lib%s.so" % lib])

    so = os.path.join(out, "libadbscope-agent.so")
    run(link + ["-L", stub_dir, "-lc", "-llog", "-lgcc", "-Wl,--no-undefined"] + flags_link
        + ["-o", so])
    return so


# ---- binary manifest ------------------------------------------------------

def patch_manifest(data):
    """Sets foregroundServiceType (found by its resource id, holding the
    placeholder flag) to specialUse in a compiled AndroidManifest.xml."""
    data = bytearray(data)
    kind, header_size, total = struct.unpack_from("<HHI", data, 0)
    if kind != 0x0003:
        raise SystemExit("build-apk: the compiled manifest is not binary XML")
    pos = header_size
    res_ids = []
    patched = 0
    while pos < total:
        ckind, chead, csize = struct.unpack_from("<HHI", data, pos)
        if ckind == 0x0180:  # RES_XML_RESOURCE_MAP_TYPE
            n = (csize - chead) // 4
            res_ids = list(struct.unpack_from("<%dI" % n, data, pos + chead))
        elif ckind == 0x0102:  # RES_XML_START_ELEMENT_TYPE
            ext = pos + chead
            attr_start, attr_size, attr_count = struct.unpack_from("<HHH", data, ext + 8)
            for i in range(attr_count):
                a = ext + attr_start + i * attr_size
                name = struct.unpack_from("<I", data, a + 4)[0]
                if name < len(res_ids) and res_ids[name] == ATTR_FGS_TYPE:
                    dtype = data[a + 15]
                    value = struct.unpack_from("<I", data, a + 16)[0]
                    if dtype != 0x11 or value != FGS_PLACEHOLDER:
                        raise SystemExit("build-apk: foregroundServiceType is not the placeholder "
                                         "(type 0x%x value 0x%x)" % (dtype, value))
                    struct.pack_into("<I", data, a + 16, FGS_SPECIAL_USE)
                    patched += 1
        pos += csize
    if patched != 1:
        raise SystemExit("build-apk: %d foregroundServiceType attributes patched, not 1" % patched)
    return bytes(data)


# ---- the APK --------------------------------------------------------------

def zip_add(z, name, data, stored):
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.create_system = 0
    info.external_attr = 0
    info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    z.writestr(info, data, compresslevel=9)


def ensure_key(args):
    """The packager's key, or one generated once next to the work dir."""
    if args.keystore:
        with open(args.ks_pass_file) as f:
            f.read()
        return args.keystore, "file:" + os.path.abspath(args.ks_pass_file), args.key_alias
    ks = os.path.abspath(args.gen_keystore)
    pw = ks + ".pass"
    if not os.path.exists(ks):
        os.makedirs(os.path.dirname(ks), exist_ok=True)
        with open(pw, "w") as f:
            f.write(hashlib.sha256(os.urandom(32)).hexdigest() + "\n")
        with open(pw) as f:
            secret = f.read().strip()
        tmp = ks + ".tmp"
        if os.path.exists(tmp):
            os.unlink(tmp)
        run(["keytool", "-genkeypair", "-keystore", tmp, "-storetype", "PKCS12",
             "-storepass", secret, "-keypass", secret, "-alias", "adbscope-agent",
             "-keyalg", "RSA", "-keysize", "3072", "-validity", "10000",
             "-dname", "CN=Adbscope agent (local build)"])
        os.rename(tmp, ks)
    return ks, "file:" + pw, "adbscope-agent"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--pb-c", required=True)
    p.add_argument("--version", required=True)
    p.add_argument("--abis", default=DEFAULT_ABIS)
    p.add_argument("--min-sdk", type=int, default=26)
    p.add_argument("--target-sdk", type=int, default=34)
    p.add_argument("--keystore", default="")
    p.add_argument("--ks-pass-file", default="")
    p.add_argument("--key-alias", default="")
    p.add_argument("--gen-keystore", default="")
    p.add_argument("--ccache", default="")
    # jni.h: the JDK's (the JNI function table is the same as Android's)
    p.add_argument("--jni-include", default="/usr/lib/jvm/default-java/include")
    p.add_argument("--depfile", default="")
    args = p.parse_args()
    if not args.keystore and not args.gen_keystore:
        p.error("--keystore or --gen-keystore")

    work = os.path.abspath(args.work)
    args.work = work
    os.makedirs(work, exist_ok=True)
    abis = [a for a in args.abis.split(",") if a]

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        libs = {}
        for abi in abis:
            libs[abi] = compile_abi(abi, args, pool)

    dex = os.path.join(work, "classes.dex")
    # One thread: with several, smali orders its type lists as they finish.
    run(["smali", "assemble", "-j", "1", "--api", str(args.min_sdk), "-o", dex,
         os.path.join(APP, "smali")])

    res_apk = os.path.join(work, "res.apk")
    if os.path.exists(res_apk):
        os.unlink(res_apk)
    run(["aapt", "package", "-f", "-0", "arsc", "-M", os.path.join(APP, "AndroidManifest.xml"),
         "-S", os.path.join(APP, "res"), "-I", FRAMEWORK_RES,
         "--min-sdk-version", str(args.min_sdk), "--target-sdk-version", str(args.target_sdk),
         "--version-code", str(version_code(args.version)), "--version-name", args.version,
         "-F", res_apk])

    entries = {}
    with zipfile.ZipFile(res_apk) as z:
        for n in z.namelist():
            entries[n] = z.read(n)
    entries["AndroidManifest.xml"] = patch_manifest(entries["AndroidManifest.xml"])
    with open(dex, "rb") as f:
        entries["classes.dex"] = f.read()
    for abi, so in libs.items():
        with open(so, "rb") as f:
            entries["lib/%s/libadbscope-agent.so" % abi] = f.read()

    unaligned = os.path.join(work, "unaligned.apk")
    with zipfile.ZipFile(unaligned, "w") as z:
        # The manifest first (as aapt writes it), then the rest sorted.
        for n in ["AndroidManifest.xml"] + sorted(k for k in entries if k != "AndroidManifest.xml"):
            # resources.arsc stays stored: targetSdk >= 30 refuses it compressed.
            zip_add(z, n, entries[n], stored=(n == "resources.arsc"))
    aligned = os.path.join(work, "aligned.apk")
    run(["zipalign", "-p", "-f", "4", unaligned, aligned])

    ks, ks_pass, alias = ensure_key(args)
    tmp_out = args.out + ".tmp"
    run(["apksigner", "sign", "--ks", ks, "--ks-pass", ks_pass, "--ks-key-alias", alias,
         "--min-sdk-version", str(args.min_sdk), "--out", tmp_out, aligned])
    idsig = tmp_out + ".idsig"
    if os.path.exists(idsig):
        os.unlink(idsig)
    run(["apksigner", "verify", tmp_out])
    os.replace(tmp_out, args.out)


if __name__ == "__main__":
    main()
