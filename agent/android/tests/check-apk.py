#!/usr/bin/env python3
"""Checks of the built agent APK (docs/agent.md, "How the APK is checked").

  check-apk.py dex APK API_LIST MIN_SDK
      dexdump reads the dex (ART's structural DexFileVerifier, checksum);
      every class, method and field the dex references outside itself is in
      API_LIST (android-api.txt) with the API level it was added; one newer
      than MIN_SDK is referenced only from a class marked `guarded` at that
      level or higher, and every reference to a guarded class from another
      class sits behind `Build.VERSION.SDK_INT >= LEVEL` (sget SDK_INT,
      const LEVEL, if-lt over the reference).
  check-apk.py elf APK MIN_SDK ABI…
      every lib/<abi>/*.so obeys bionic's loader rules (ELF class and machine
      per ABI, ET_DYN, PIE, no DT_TEXTREL, DT_SONAME, DT_NEEDED only NDK
      public libraries, a hash table, no VERNEED/VERSYM, no RELR, no W+X
      segment, no TLS segment, LOAD p_align >= 16384, only Java_* exported,
      every imported symbol one bionic exports at the APK's minSdk (from
      bionic-symbols.txt)).
  check-apk.py badging APK VERSION MIN_SDK TARGET_SDK ABI…
      `aapt dump badging`: package, versionCode (from VERSION), versionName,
      sdkVersion, targetSdkVersion, native-code; the compiled manifest: the
      control activity protected by android.permission.DUMP, the service's
      foregroundServiceType specialUse; `apksigner verify` passes.
  check-apk.py harness APK ABI VERSION PB_DIR
      builds apk-harness.c and the libc.so/liblog.so stand-ins for ABI's CPU,
      runs it on lib/ABI/libadbscope-agent.so from the APK (qemu-user for
      ARM) and passes on its TAP output and exit status (77: skipped).
  check-apk.py jni APK AGENT_JNI_C
      the dex's native methods and the C functions agent-jni.c defines for
      them agree (each one there, parameter and return types by JNI's
      mapping, static or not), the library of every ABI exports exactly
      them, and every GetMethodID name and signature in the C names a
      method the dex defines (or a platform one listed here).
  check-apk.py cli APK ADBSCOPE
      `adbscope agent apk -o FILE` writes exactly the built APK and says so
      in its JSON (bytes, sha256, version); without -o it is a usage error.
  check-apk.py repro APK BUILD_APK_ARGS…
      builds the APK again (build-apk.py, in a new directory, without ccache,
      with a fresh key): the same entries but the signatures; that build's
      aligned APK signed with the first one's key: the same bytes.
  check-apk.py same-content A.apk B.apk
      the two APKs hold the same entries, signatures (META-INF/) aside: how
      anyone checks a release APK against their own build.

Exits 0 when everything holds, 1 with the reasons.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def fail(msg):
    failures.append(msg)


def done():
    for f in failures:
        print("FAIL: " + f)
    if failures:
        sys.exit(1)
    print("ok")
    sys.exit(0)


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


# ---- dex ------------------------------------------------------------------

def uleb(data, pos):
    result, shift = 0, 0
    while True:
        b = data[pos]
        pos += 1
        result |= (b & 0x7f) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def parse_dex(data):
    """The dex's own tables: every type, field and method it names, and the
    classes it defines."""
    if data[:4] != b"dex\n":
        raise SystemExit("not a dex file")
    (string_ids_size, string_ids_off, type_ids_size, type_ids_off, proto_ids_size,
     proto_ids_off, field_ids_size, field_ids_off, method_ids_size, method_ids_off,
     class_defs_size, class_defs_off) = struct.unpack_from("<12I", data, 56)

    def string(i):
        off = struct.unpack_from("<I", data, string_ids_off + 4 * i)[0]
        _, pos = uleb(data, off)
        end = data.index(b"\0", pos)
        return data[pos:end].decode("utf-8", "replace")

    types = [string(struct.unpack_from("<I", data, type_ids_off + 4 * i)[0])
             for i in range(type_ids_size)]

    def type_list(off):
        if off == 0:
            return []
        n = struct.unpack_from("<I", data, off)[0]
        return [types[struct.unpack_from("<H", data, off + 4 + 2 * k)[0]] for k in range(n)]

    protos = []
    for i in range(proto_ids_size):
        _, ret, params = struct.unpack_from("<3I", data, proto_ids_off + 12 * i)
        protos.append("(%s)%s" % ("".join(type_list(params)), types[ret]))
    fields = []
    for i in range(field_ids_size):
        cls, typ, name = struct.unpack_from("<HHI", data, field_ids_off + 8 * i)
        fields.append("%s->%s:%s" % (types[cls], string(name), types[typ]))
    methods = []
    for i in range(method_ids_size):
        cls, proto, name = struct.unpack_from("<HHI", data, method_ids_off + 8 * i)
        methods.append("%s->%s%s" % (types[cls], string(name), protos[proto]))
    defined = {}
    for i in range(class_defs_size):
        (cls, _flags, sup, ifaces) = struct.unpack_from("<4I", data, class_defs_off + 32 * i)[:4]
        defined[types[cls]] = (types[sup] if sup != 0xffffffff else None, type_list(ifaces))
    return types, fields, methods, defined


def load_api_list(path):
    """kind ref api [guarded]: class/method/field entries; `guarded CLASS
    LEVEL` marks one of our classes reached only behind an SDK_INT check."""
    api, guarded = {}, {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if parts[0] == "guarded" and len(parts) == 3:
                guarded[parts[1]] = int(parts[2])
            elif parts[0] in ("class", "method", "field") and len(parts) == 3:
                api[parts[1]] = int(parts[2])
            else:
                raise SystemExit("%s:%d: cannot read %r" % (path, n, line))
    return api, guarded


def element_type(t):
    return t.lstrip("[")


def check_dex(apk, api_list, min_sdk):
    min_sdk = int(min_sdk)
    with zipfile.ZipFile(apk) as z:
        data = z.read("classes.dex")
    tmp = tempfile.mkdtemp(prefix="check-dex-")
    dex = os.path.join(tmp, "classes.dex")
    with open(dex, "wb") as f:
        f.write(data)
    r = run(["dexdump", "-d", dex])
    if r.returncode != 0 or "Failure" in r.stdout or "failed" in r.stdout.lower():
        fail("dexdump rejects classes.dex:\n" + r.stdout[-2000:])
        done()
    dump = r.stdout

    types, fields, methods, defined = parse_dex(data)
    api, guarded = load_api_list(api_list)
    for g in guarded:
        if g not in defined:
            fail("android-api.txt marks %s guarded, but the dex has no such class" % g)

    def external(t):
        t = element_type(t)
        return t.startswith("L") and t not in defined

    refs = {}
    for t in types:
        if external(t):
            refs[element_type(t)] = "class"
    for m in methods:
        if external(m.split("->")[0]):
            refs[m] = "method"
    for fl in fields:
        if external(fl.split("->")[0]):
            refs[fl] = "field"
    for ref, kind in sorted(refs.items()):
        if ref not in api:
            fail("the dex references %s %s, which android-api.txt does not list" % (kind, ref))
    used = set(refs)
    for ref in api:
        if ref not in used:
            fail("android-api.txt lists %s, which the dex does not reference (keep the list exact)" % ref)

    # Who references what: dexdump's disassembly, class by class.
    cls = None
    method_code = {}   # (class, method header) -> list of (addr, text)
    current = None
    for line in dump.splitlines():
        m = re.match(r"\s+Class descriptor\s+: '(.*)'", line)
        if m:
            cls = m.group(1)
            continue
        m = re.search(r"\|\[[0-9a-f]+\] (\S+)$", line)
        if m:
            current = (cls, m.group(1))
            method_code[current] = []
            continue
        m = re.search(r"\|([0-9a-f]{4}): (.*)$", line)
        if m and current:
            method_code[current].append((int(m.group(1), 16), m.group(2)))

    def refs_in(text):
        out = []
        for r_ in re.findall(r"(L[^;\s]+;)\.([^:\s]+):(\S+)", text):
            c, name, sig = r_
            out.append((c, "%s->%s%s" % (c, name, sig) if sig.startswith("(")
                        else "%s->%s:%s" % (c, name, sig)))
        for c in re.findall(r"(L[^;\s]+;) // type@", text):
            out.append((c, c))
        return out

    for (c, header), code in method_code.items():
        level_of_class = guarded.get(c, min_sdk)
        # Superclass and interfaces count as references of the class.
        for addr, text in code:
            for rc, ref in refs_in(text):
                need = api.get(ref, api.get(element_type(rc)))
                if rc in guarded:
                    need = guarded[rc]
                    if guarded.get(c, 0) >= need:
                        continue
                    if not behind_sdk_check(code, addr, need):
                        fail("%s (%s) uses %s (API %d) without a Build.VERSION.SDK_INT >= %d check"
                             % (header, c, ref, need, need))
                    continue
                if need is not None and need > level_of_class:
                    fail("%s (%s) uses %s, added in API %d, above %s's level %d"
                         % (header, c, ref, need, c, level_of_class))
    for c, (sup, ifaces) in defined.items():
        level = guarded.get(c, min_sdk)
        for t in ([sup] if sup else []) + ifaces:
            need = api.get(t)
            if need is not None and need > level:
                fail("%s extends or implements %s (API %d) above its level %d" % (c, t, need, level))
    done()


def behind_sdk_check(code, addr, level):
    """An `sget SDK_INT` into vA, a `const vB, LEVEL'` (LEVEL' >= level) and
    an `if-lt vA, vB, TARGET` before @addr whose TARGET lies after it."""
    sdk_reg, const_regs = None, {}
    for a, text in code:
        if a >= addr:
            break
        m = re.match(r"sget v(\d+), Landroid/os/Build\$VERSION;\.SDK_INT:I", text)
        if m:
            sdk_reg = m.group(1)
            continue
        m = re.match(r"const(?:/4|/16)? v(\d+), #int (-?\d+)", text)
        if m:
            const_regs[m.group(1)] = int(m.group(2))
            continue
        m = re.match(r"if-lt v(\d+), v(\d+), ([0-9a-f]{4})", text)
        if m and m.group(1) == sdk_reg and const_regs.get(m.group(2), 0) >= level \
                and int(m.group(3), 16) > addr:
            return True
    return False


# ---- ELF ------------------------------------------------------------------

ELF_MACHINE = {"arm64-v8a": (2, 183), "armeabi-v7a": (1, 40), "x86_64": (2, 62), "x86": (1, 3)}
NDK_LIBS = {"libc.so", "libm.so", "libdl.so", "liblog.so", "libz.so", "libandroid.so",
            "libjnigraphics.so", "libOpenSLES.so", "libEGL.so", "libGLESv2.so", "libmediandk.so",
            "libstdc++.so", "libnativewindow.so", "libsync.so", "libneuralnetworks.so",
            "libcamera2ndk.so", "libvulkan.so", "libaaudio.so", "libamidi.so", "libbinder_ndk.so"}
PT_LOAD, PT_DYNAMIC, PT_TLS = 1, 2, 7
DT = {"NEEDED": 1, "HASH": 4, "STRTAB": 5, "SYMTAB": 6, "STRSZ": 10, "SONAME": 14,
      "TEXTREL": 22, "FLAGS": 30, "FLAGS_1": 0x6ffffffb, "GNU_HASH": 0x6ffffef5,
      "VERSYM": 0x6ffffff0, "VERNEED": 0x6ffffffe, "VERDEF": 0x6ffffffc,
      "RELR": 36, "ANDROID_RELR": 0x6fffe000}
DF_TEXTREL, DF_1_PIE = 0x4, 0x08000000


def load_bionic_symbols():
    syms = {}
    with open(os.path.join(HERE, "bionic-symbols.txt")) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) == 3:
                syms[(line[0], line[1])] = int(line[2])
    return syms


def check_so(name, data, abi, bionic, min_sdk):
    where = "%s (%s)" % (name, abi)
    if data[:4] != b"\x7fELF":
        fail(where + ": not ELF")
        return
    ei_class = data[4]
    want_class, want_machine = ELF_MACHINE[abi]
    if ei_class != want_class:
        fail("%s: ELF class %d, want %d" % (where, ei_class, want_class))
        return
    if data[5] != 1:
        fail(where + ": not little-endian")
    is64 = ei_class == 2
    if is64:
        e_type, e_machine, _, _, e_phoff, e_shoff, _, _, e_phentsize, e_phnum, e_shentsize, \
            e_shnum, e_shstrndx = struct.unpack_from("<HHIQQQIHHHHHH", data, 16)
    else:
        e_type, e_machine, _, _, e_phoff, e_shoff, _, _, e_phentsize, e_phnum, e_shentsize, \
            e_shnum, e_shstrndx = struct.unpack_from("<HHIIIIIHHHHHH", data, 16)
    if e_type != 3:
        fail("%s: e_type %d, not ET_DYN" % (where, e_type))
    if e_machine != want_machine:
        fail("%s: e_machine %d, want %d" % (where, e_machine, want_machine))
    if e_shentsize != (64 if is64 else 40) or e_shstrndx >= e_shnum:
        fail("%s: bad section header table (e_shentsize %d, e_shstrndx %d of %d)"
             % (where, e_shentsize, e_shstrndx, e_shnum))

    phdrs = []
    for i in range(e_phnum):
        off = e_phoff + i * e_phentsize
        if is64:
            p_type, p_flags, p_offset, p_vaddr, _, p_filesz, p_memsz, p_align = \
                struct.unpack_from("<IIQQQQQQ", data, off)
        else:
            p_type, p_offset, p_vaddr, _, p_filesz, p_memsz, p_flags, p_align = \
                struct.unpack_from("<IIIIIIII", data, off)
        phdrs.append((p_type, p_flags, p_offset, p_vaddr, p_filesz, p_memsz, p_align))
    loads = [p for p in phdrs if p[0] == PT_LOAD]
    if not loads:
        fail(where + ": no LOAD segment")
    for p in loads:
        if p[6] < 16384:
            fail("%s: LOAD p_align %d < 16384 (16 KB-page devices refuse it)" % (where, p[6]))
        if p[1] & 2 and p[1] & 1:
            fail(where + ": a LOAD segment is writable and executable")
    if loads and loads[0][3] != 0:
        fail(where + ": first LOAD at vaddr 0x%x: not position-independent" % loads[0][3])
    if any(p[0] == PT_TLS for p in phdrs):
        fail(where + ": has a TLS segment (bionic before API 29 has no ELF TLS)")
    dyn = [p for p in phdrs if p[0] == PT_DYNAMIC]
    if not dyn:
        fail(where + ": no DYNAMIC segment")
        return

    def vaddr_to_off(v):
        for p in loads:
            if p[3] <= v < p[3] + p[4]:
                return v - p[3] + p[2]
        raise ValueError(hex(v))

    entries = []
    off = dyn[0][2]
    size = 16 if is64 else 8
    while True:
        tag, val = struct.unpack_from("<qQ" if is64 else "<iI", data, off)
        if tag == 0:
            break
        entries.append((tag, val))
        off += size
    tags = {}
    for tag, val in entries:
        tags.setdefault(tag, []).append(val)
    strtab = vaddr_to_off(tags[DT["STRTAB"]][0])

    def dstr(o):
        end = data.index(b"\0", strtab + o)
        return data[strtab + o:end].decode()

    if DT["TEXTREL"] in tags or any(v & DF_TEXTREL for v in tags.get(DT["FLAGS"], [])):
        fail(where + ": has text relocations (DT_TEXTREL)")
    if DT["SONAME"] not in tags:
        fail(where + ": no DT_SONAME")
    elif dstr(tags[DT["SONAME"]][0]) != name.split("/")[-1]:
        fail("%s: DT_SONAME %s" % (where, dstr(tags[DT["SONAME"]][0])))
    for v in tags.get(DT["NEEDED"], []):
        if dstr(v) not in NDK_LIBS:
            fail("%s: DT_NEEDED %s is not an NDK public library" % (where, dstr(v)))
    if DT["HASH"] not in tags and DT["GNU_HASH"] not in tags:
        fail(where + ": neither DT_HASH nor DT_GNU_HASH")
    for t in ("VERNEED", "VERSYM", "VERDEF"):
        if DT[t] in tags:
            fail("%s: has DT_%s (symbol versions: glibc's, which bionic does not have)" % (where, t))
    if DT["RELR"] in tags or DT["ANDROID_RELR"] in tags:
        fail(where + ": has RELR relocations (Android before 11 cannot read them)")

    # Dynamic symbols: exported ones must be Java_*, imported ones bionic's.
    symtab = vaddr_to_off(tags[DT["SYMTAB"]][0])
    # The symbol count: the .dynsym section's size (DT_HASH's nchain, which
    # may be absent, must agree when present).
    nsyms = None
    for i in range(e_shnum):
        o = e_shoff + i * e_shentsize
        if is64:
            sh_type, = struct.unpack_from("<I", data, o + 4)
            sh_size, = struct.unpack_from("<Q", data, o + 32)
            sh_entsize, = struct.unpack_from("<Q", data, o + 56)
        else:
            sh_type, = struct.unpack_from("<I", data, o + 4)
            sh_size, = struct.unpack_from("<I", data, o + 20)
            sh_entsize, = struct.unpack_from("<I", data, o + 36)
        if sh_type == 11 and sh_entsize:   # SHT_DYNSYM
            nsyms = sh_size // sh_entsize
    if nsyms is None:
        fail(where + ": no .dynsym section")
        return
    if DT["HASH"] in tags:
        nchain = struct.unpack_from("<II", data, vaddr_to_off(tags[DT["HASH"]][0]))[1]
        if nchain != nsyms:
            fail("%s: DT_HASH counts %d symbols, .dynsym %d" % (where, nchain, nsyms))
    needed_libs = [dstr(v) for v in tags.get(DT["NEEDED"], [])]
    entsize = 24 if is64 else 16
    for i in range(1, nsyms):
        o = symtab + i * entsize
        if is64:
            st_name, st_info, st_other, st_shndx, _, _ = struct.unpack_from("<IBBHQQ", data, o)
        else:
            st_name, _, _, st_info, st_other, st_shndx = struct.unpack_from("<IIIBBH", data, o)
        sym = dstr(st_name)
        bind = st_info >> 4
        if bind == 0:
            continue
        if st_shndx != 0:
            if not sym.startswith("Java_"):
                fail("%s: exports %s (only Java_* may be)" % (where, sym))
        else:
            lib = "liblog.so" if sym.startswith("__android_log") else "libc.so"
            level = bionic.get((lib, sym))
            if lib not in needed_libs:
                fail("%s: imports %s but does not need %s" % (where, sym, lib))
            if level is None:
                fail("%s: imports %s, not in bionic-symbols.txt (bionic's exports)" % (where, sym))
            elif level > min_sdk:
                fail("%s: imports %s, in bionic from API %d, above minSdk %d"
                     % (where, sym, level, min_sdk))


def check_elf(apk, min_sdk, abis):
    bionic = load_bionic_symbols()
    seen = set()
    with zipfile.ZipFile(apk) as z:
        for n in z.namelist():
            m = re.match(r"lib/([^/]+)/([^/]+\.so)$", n)
            if not m:
                continue
            if m.group(1) not in ELF_MACHINE:
                fail("unknown ABI directory " + n)
                continue
            seen.add(m.group(1))
            check_so(n, z.read(n), m.group(1), bionic, int(min_sdk))
    for abi in abis:
        if abi not in seen:
            fail("no library for " + abi)
    done()


# ---- badging and signature -----------------------------------------------

def version_code(version):
    major, minor, patch = (int(x) for x in (version.split(".") + ["0", "0"])[:3])
    return major * 10000 + minor * 100 + patch


def check_badging(apk, version, min_sdk, target_sdk, abis):
    r = run(["aapt", "dump", "badging", apk])
    if r.returncode != 0:
        fail("aapt dump badging failed:\n" + r.stdout)
        done()
    out = r.stdout
    want = [
        "package: name='io.github.adbscope.agent' versionCode='%d' versionName='%s'"
        % (version_code(version), version),
        "sdkVersion:'%s'" % min_sdk,
        "targetSdkVersion:'%s'" % target_sdk,
        "native-code: " + " ".join("'%s'" % a for a in sorted(abis)),
        "uses-permission: name='android.permission.POST_NOTIFICATIONS'",
        "uses-permission: name='android.permission.FOREGROUND_SERVICE_SPECIAL_USE'",
    ]
    for w in want:
        if not any(line.startswith(w) for line in out.splitlines()):
            fail("aapt dump badging lacks %r" % w)
    r = run(["aapt", "dump", "xmltree", apk, "AndroidManifest.xml"])
    tree = r.stdout
    # The elements in order, each with its attributes.
    elements, cur = [], None
    for line in tree.splitlines():
        m = re.match(r"\s*E: (\S+)", line)
        if m:
            cur = [m.group(1), {}]
            elements.append(cur)
            continue
        m = re.match(r'\s*A: android:(\w+)\(0x[0-9a-f]+\)=(.*)$', line)
        if m and cur:
            cur[1][m.group(1)] = m.group(2)
    acts = [a for e, a in elements if e == "activity" and ".ControlActivity" in a.get("name", "")]
    if len(acts) != 1:
        fail("the manifest has no ControlActivity")
    else:
        a = acts[0]
        if not a.get("permission", "").startswith('"android.permission.DUMP"'):
            fail("ControlActivity is not protected by android.permission.DUMP: %r"
                 % a.get("permission"))
    svc = [a for e, a in elements if e == "service" and ".AgentVpnService" in a.get("name", "")]
    if len(svc) != 1:
        fail("the manifest has no AgentVpnService")
    elif svc[0].get("foregroundServiceType") != "(type 0x11)0x40000000":
        fail("AgentVpnService's foregroundServiceType is %r, not specialUse (0x40000000)"
             % svc[0].get("foregroundServiceType"))
    for e, a in elements:
        if e in ("activity", "service", "receiver", "provider") and \
                a.get("exported", "").startswith("(type 0x12)0xffffffff") and "permission" not in a:
            fail("%s %s is exported without a permission" % (e, a.get("name")))
    r = run(["apksigner", "verify", "-v", apk])
    if r.returncode != 0 or "Verifies" not in r.stdout:
        fail("apksigner verify:\n" + r.stdout)
    done()


def zip_entries(path):
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def same_content(a, b):
    """The entries of two APKs but their signatures (META-INF/): what a
    rebuild with another key must reproduce."""
    ea = {n: d for n, d in zip_entries(a).items() if not n.startswith("META-INF/")}
    eb = {n: d for n, d in zip_entries(b).items() if not n.startswith("META-INF/")}
    diff = sorted(n for n in set(ea) | set(eb) if ea.get(n) != eb.get(n))
    return diff


def check_same_content(a, b):
    for n in same_content(a, b):
        fail("%s differs" % n)
    if not failures:
        print("same content (signatures aside): %s and %s" % (a, b))
    done()


def check_repro(apk, build_args):
    """A second build in another directory, uncached, signed with a fresh
    key: the same entries (what anyone can check against a release APK
    without its key); its aligned APK signed with the first build's key:
    the same bytes."""
    import shutil
    tmp = tempfile.mkdtemp(prefix="check-apk-repro-")
    out = os.path.join(tmp, "again.apk")
    args, key = [], {}
    i = 0
    while i < len(build_args):
        if build_args[i] in ("--keystore", "--ks-pass-file", "--key-alias", "--gen-keystore"):
            key[build_args[i]] = build_args[i + 1]
            i += 2
        else:
            args.append(build_args[i])
            i += 1
    work = os.path.join(tmp, "work")
    r = run([sys.executable, os.path.join(os.path.dirname(HERE), "build-apk.py"),
             "--out", out, "--work", work, "--gen-keystore", os.path.join(tmp, "other.keystore")]
            + args)
    if r.returncode != 0:
        fail("the second build failed:\n" + r.stdout)
        done()
    for n in same_content(apk, out):
        fail("%s differs between two builds" % n)
    if "--gen-keystore" in key:
        ks = key["--gen-keystore"]
        ks_pass, alias = "file:" + ks + ".pass", "adbscope-agent"
    else:
        ks, ks_pass, alias = key["--keystore"], "file:" + key["--ks-pass-file"], key["--key-alias"]
    resigned = os.path.join(tmp, "resigned.apk")
    r = run(["apksigner", "sign", "--ks", ks, "--ks-pass", ks_pass, "--ks-key-alias", alias,
             "--min-sdk-version", args[args.index("--min-sdk") + 1] if "--min-sdk" in args else "26",
             "--out", resigned, os.path.join(work, "aligned.apk")])
    if r.returncode != 0:
        fail("apksigner sign:\n" + r.stdout)
        done()
    with open(apk, "rb") as a, open(resigned, "rb") as b:
        first, second = a.read(), b.read()
    if first != second:
        fail("the second build signed with the same key differs from the first (%d and %d bytes)"
             % (len(first), len(second)))
    elif not failures:
        print("identical: %d bytes; with another key the same entries" % len(first))
    shutil.rmtree(tmp, ignore_errors=True)
    done()


HARNESS_ABIS = {
    # abi: (compiler triplet, multiarch dir, runner)
    "arm64-v8a": ("aarch64-linux-gnu", "aarch64-linux-gnu", ["qemu-aarch64", "-L", "/"]),
    "armeabi-v7a": ("arm-linux-gnueabihf", "arm-linux-gnueabihf", ["qemu-arm", "-L", "/"]),
    "x86_64": ("x86_64-linux-gnu", "x86_64-linux-gnu", []),
}


def harness(apk, abi, version, pb_dir, jni_include="/usr/lib/jvm/default-java/include"):
    triplet, multiarch, runner = HARNESS_ABIS[abi]
    cc = triplet + "-gcc"
    tmp = tempfile.mkdtemp(prefix="apk-harness-%s-" % abi)
    so = os.path.join(tmp, "libadbscope-agent.so")
    with zipfile.ZipFile(apk) as z, open(so, "wb") as f:
        f.write(z.read("lib/%s/libadbscope-agent.so" % abi))
    bionic = os.path.join(HERE, "apk-harness-bionic.c")
    steps = [
        [cc, "-shared", "-fPIC", "-O1", "-o", os.path.join(tmp, "libc.so"), bionic,
         "-Wl,-soname,libc.so", "-ldl"],
        [cc, "-shared", "-fPIC", "-O1", "-DLIBLOG", "-o", os.path.join(tmp, "liblog.so"), bionic,
         "-Wl,-soname,liblog.so"],
        [cc, "-O1", "-g", "-Wall", "-Wno-unused-parameter", "-o", os.path.join(tmp, "apk-harness"),
         os.path.join(HERE, "apk-harness.c"), os.path.join(pb_dir, "agent.pb-c.c"),
         "-I", pb_dir, "-I", jni_include, "-I", os.path.join(jni_include, "linux"),
         "/usr/lib/%s/libprotobuf-c.a" % multiarch, "-ldl", "-lpthread"],
    ]
    for cmd in steps:
        r = run(cmd)
        if r.returncode != 0:
            print("Bail out! %s failed:\n%s" % (" ".join(cmd), r.stdout))
            sys.exit(1)
    env = dict(os.environ, LD_LIBRARY_PATH=tmp)
    code = version_code(version)
    r = subprocess.run(runner + [os.path.join(tmp, "apk-harness"), so, version, str(code)],
                       env=env, timeout=300)
    import shutil
    shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(r.returncode)


def dex_methods(data):
    """(class, name, proto, access flags) of every method the dex defines."""
    types, fields, methods, defined = parse_dex(data)
    (_, _, _, _, _, _, _, _, method_ids_size, method_ids_off, class_defs_size, class_defs_off) = \
        struct.unpack_from("<12I", data, 56)
    out = []
    for i in range(class_defs_size):
        cls_idx, = struct.unpack_from("<I", data, class_defs_off + 32 * i)
        class_data_off, = struct.unpack_from("<I", data, class_defs_off + 32 * i + 24)
        if class_data_off == 0:
            continue
        pos = class_data_off
        sf, pos = uleb(data, pos)
        inf, pos = uleb(data, pos)
        dm, pos = uleb(data, pos)
        vm, pos = uleb(data, pos)
        for _ in range(sf + inf):
            _, pos = uleb(data, pos)
            _, pos = uleb(data, pos)
        for count in (dm, vm):
            idx = 0
            for _ in range(count):
                diff, pos = uleb(data, pos)
                idx += diff
                flags, pos = uleb(data, pos)
                _, pos = uleb(data, pos)
                cls, rest = methods[idx].split("->")
                name = rest[:rest.index("(")]
                out.append((cls, name, rest[rest.index("("):], flags))
    return out


JNI_TYPES = {"I": "jint", "J": "jlong", "Z": "jboolean", "V": "void", "[B": "jbyteArray",
             "Ljava/lang/String;": "jstring", "[Ljava/lang/String;": "jobjectArray",
             "Ljava/lang/Object;": "jobject"}
# Methods agent-jni.c looks up that the platform defines (class, name, sig).
PLATFORM_METHODS = {("Lio/github/adbscope/agent/AgentVpnService;", "protect", "(I)Z"):
                    "VpnService.protect(int), API 14"}


def split_proto(proto):
    params, ret = proto[1:].split(")")
    out, i = [], 0
    while i < len(params):
        j = i
        while params[j] == "[":
            j += 1
        if params[j] == "L":
            j = params.index(";", j)
        out.append(params[i:j + 1])
        i = j + 1
    return out, ret


def check_jni(apk, jni_c):
    with zipfile.ZipFile(apk) as z:
        data = z.read("classes.dex")
        libs = {n: z.read(n) for n in z.namelist() if n.endswith(".so")}
    defined = dex_methods(data)
    natives = {}
    for cls, name, proto, flags in defined:
        if flags & 0x100:
            jname = "Java_" + cls[1:-1].replace("_", "_1").replace("/", "_") + "_" + name
            natives[jname] = (proto, bool(flags & 0x8))
    with open(jni_c) as f:
        src = f.read()
    prefix = re.search(r"#define JNI_PREFIX\(n\)\s+(\w+)##n", src).group(1)
    cfuncs = {}
    for m in re.finditer(r"JNIEXPORT\s+(\w+)\s+JNICALL\s+JNI_PREFIX\s*\((\w+)\)\s*\(([^)]*)\)", src):
        ret, name, params = m.group(1), m.group(2), m.group(3)
        ptypes = [re.sub(r"\s+", "", re.match(r"^(.*?)\w+$", p.strip(), re.S).group(1))
                  for p in params.split(",")]
        cfuncs[prefix + name] = (ret, ptypes)
    for jname, (proto, static) in natives.items():
        if jname not in cfuncs:
            fail("the dex declares native %s%s, agent-jni.c does not define it" % (jname, proto))
            continue
        ret, ptypes = cfuncs[jname]
        params, jret = split_proto(proto)
        want = ["JNIEnv*", "jclass" if static else "jobject"] + [JNI_TYPES.get(p, "?" + p) for p in params]
        if ptypes != want or ret != JNI_TYPES.get(jret):
            fail("%s: C (%s) -> %s, the dex says %s%s: (%s) -> %s"
                 % (jname, ", ".join(ptypes), ret, "static " if static else "", proto,
                    ", ".join(want), JNI_TYPES.get(jret)))
    for jname in cfuncs:
        if jname not in natives:
            fail("agent-jni.c defines %s, which no native method of the dex declares" % jname)
    # What the libraries export.
    for n, blob in libs.items():
        tmp = tempfile.mkdtemp(prefix="check-jni-")
        path = os.path.join(tmp, "lib.so")
        with open(path, "wb") as f:
            f.write(blob)
        r = run(["nm", "-D", "--defined-only", "--format=posix", path])
        exported = {line.split()[0] for line in r.stdout.splitlines() if line.strip()}
        if exported != set(natives):
            fail("%s exports %s, the dex's natives are %s"
                 % (n, sorted(exported), sorted(natives)))
    # GetMethodID (env, cls, "name", "sig") against the classes that define them.
    defs = {(c, n, p) for c, n, p, _ in defined}
    by_name = {}
    for c, n, p, _ in defined:
        by_name.setdefault((n, p), set()).add(c)
    for name, sig in re.findall(r'GetMethodID\s*\([^,]+,[^,]+,\s*"([^"]+)",\s*"([^"]+)"\)', src):
        if (name, sig) in by_name:
            continue
        if any(k[1:] == (name, sig) for k in PLATFORM_METHODS):
            continue
        fail("agent-jni.c looks up %s %s, which no class of the dex defines" % (name, sig))
    done()


def check_cli(apk, adbscope):
    import hashlib
    import json
    tmp = tempfile.mkdtemp(prefix="check-apk-cli-")
    out = os.path.join(tmp, "agent.apk")
    r = subprocess.run([adbscope, "agent", "apk", "-o", out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    with open(apk, "rb") as f:
        built = f.read()
    if r.returncode != 0:
        fail("adbscope agent apk -o exited %d: %s %s" % (r.returncode, r.stdout, r.stderr))
        done()
    res = json.loads(r.stdout)
    with open(out, "rb") as f:
        written = f.read()
    if written != built:
        fail("the written APK (%d bytes) is not the built one (%d bytes)" % (len(written), len(built)))
    if res.get("bytes") != len(built) or res.get("sha256") != hashlib.sha256(built).hexdigest():
        fail("the JSON does not describe the built APK: %r" % res)
    if res.get("output") != out:
        fail("output %r, want %r" % (res.get("output"), out))
    r = subprocess.run([adbscope, "agent", "apk"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 2 or json.loads(r.stdout).get("error", {}).get("code") != "usage":
        fail("`adbscope agent apk` without -o: exit %d %s" % (r.returncode, r.stdout))
    import shutil
    shutil.rmtree(tmp, ignore_errors=True)
    done()


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    mode, apk = sys.argv[1], sys.argv[2]
    if mode == "dex":
        check_dex(apk, sys.argv[3], sys.argv[4])
    elif mode == "elf":
        check_elf(apk, sys.argv[3], sys.argv[4:])
    elif mode == "badging":
        check_badging(apk, sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:])
    elif mode == "harness":
        harness(apk, sys.argv[3], sys.argv[4], sys.argv[5])
    elif mode == "same-content":
        check_same_content(apk, sys.argv[3])
    elif mode == "jni":
        check_jni(apk, sys.argv[3])
    elif mode == "cli":
        check_cli(apk, sys.argv[3])
    elif mode == "repro":
        check_repro(apk, sys.argv[3:])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
