#!/usr/bin/env python3
"""Compile checks of agent/android without the Android SDK (docs/agent.md).

  check-android.py java OUTDIR   the app's Java against stub/java (javac),
                                 every stub member used by the app, and a
                                 deliberate misuse rejected
  check-android.py jni OUTDIR    agent-jni.c against the JDK's jni.h and the
                                 header javac -h writes for the app's native
                                 methods, for x86-64, aarch64 and armhf, with
                                 -Werror; its GetMethodID names and signatures
                                 checked against the compiled class

Exits 0 when everything holds, 1 with the reasons otherwise.
"""
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
APP = os.path.join(HERE, "app", "src", "main")
JAVA_SRC = os.path.join(APP, "java")
STUB = os.path.join(HERE, "stub", "java")
PACKAGE = "io.github.adbscope.agent"
NATIVE_CLASS = PACKAGE + ".AgentVpnService"

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def jdk_tool(name):
    home = os.environ.get("JAVA_HOME")
    if home and os.access(os.path.join(home, "bin", name), os.X_OK):
        return os.path.join(home, "bin", name)
    path = shutil.which(name)
    if path is None:
        print(f"error: {name} not found (build-aux/setup.sh installs default-jdk-headless)",
              file=sys.stderr)
        sys.exit(1)
    return os.path.realpath(path)


def java_files(top):
    out = []
    for d, _, names in os.walk(top):
        out += [os.path.join(d, n) for n in names if n.endswith(".java")]
    return sorted(out)


def generate_sources(gen):
    """R.java from res/values/*.xml and BuildConfig.java from build.gradle, as
    Gradle would: a string removed from strings.xml fails the compile."""
    pkg_dir = os.path.join(gen, *PACKAGE.split("."))
    os.makedirs(pkg_dir, exist_ok=True)
    kinds = {}
    values = os.path.join(APP, "res", "values")
    for name in sorted(os.listdir(values)):
        if name.endswith(".xml"):
            for el in ET.parse(os.path.join(values, name)).getroot():
                kinds.setdefault(el.tag, []).append(el.get("name"))
    lines = [f"package {PACKAGE};", "", "public final class R {"]
    for k, (kind, names) in enumerate(sorted(kinds.items())):
        lines.append(f"    public static final class {kind} {{")
        for i, n in enumerate(names):
            lines.append(f"        public static final int {n} = 0x7f{k + 1:02x}{i:04x};")
        lines.append("    }")
    lines.append("}")
    with open(os.path.join(pkg_dir, "R.java"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")

    gradle = open(os.path.join(HERE, "app", "build.gradle"), encoding="utf-8").read()
    code = re.search(r"^\s*versionCode\s+(\d+)", gradle, re.M)
    name = re.search(r'^\s*versionName\s+"([^"]*)"', gradle, re.M)
    if not code or not name:
        fail("app/build.gradle: no versionCode/versionName")
        return
    with open(os.path.join(pkg_dir, "BuildConfig.java"), "w", encoding="utf-8") as f:
        f.write(f"package {PACKAGE};\n\npublic final class BuildConfig {{\n"
                f"    public static final String APPLICATION_ID = \"{PACKAGE}\";\n"
                f"    public static final int VERSION_CODE = {code.group(1)};\n"
                f"    public static final String VERSION_NAME = \"{name.group(1)}\";\n}}\n")


def compile_app(out, app_sources=None, headers=None, stub_out=None):
    """Stub first (its own classes, unless @stub_out has them already), then
    the app against the compiled stub only.  Returns javac's result for the
    app."""
    javac = jdk_tool("javac")
    app_out = os.path.join(out, "app-classes")
    gen = os.path.join(out, "generated")
    for d in (app_out, gen):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    if stub_out is None:
        stub_out = os.path.join(out, "stub-classes")
        shutil.rmtree(stub_out, ignore_errors=True)
        os.makedirs(stub_out)
        r = run([javac, "--release", "17", "-Xlint:all", "-Werror", "-d", stub_out]
                + java_files(STUB))
        if r.returncode != 0:
            fail("the stub does not compile:\n" + r.stderr)
            return r
    generate_sources(gen)
    cmd = [javac, "--release", "17", "-Xlint:all", "-Werror", "-implicit:none",
           "-classpath", stub_out, "-d", app_out]
    if headers:
        cmd += ["-h", headers]
    return run(cmd + (app_sources or java_files(JAVA_SRC)) + java_files(gen))


def javap(classes_dir, names, verbose=False):
    cmd = [jdk_tool("javap"), "-p", "-s", "-classpath", classes_dir]
    if verbose:
        cmd.append("-v")
    r = run(cmd + names)
    if r.returncode != 0:
        fail("javap failed:\n" + r.stderr)
    return r.stdout


def class_names(classes_dir):
    names = []
    for d, _, files in os.walk(classes_dir):
        for f in files:
            if f.endswith(".class"):
                rel = os.path.relpath(os.path.join(d, f), classes_dir)
                names.append(rel[:-len(".class")].replace(os.sep, "."))
    return sorted(names)


def parse_members(text):
    """javap -p -s output → {class: {"super": [...], "members": {(name, desc)}}}."""
    classes = {}
    current = None
    pending = None
    for line in text.splitlines():
        m = re.match(r"^(?:[\w ]*?)(?:class|interface) ([\w.$]+)(?:<[^{]*?>)?"
                     r"(?: extends ([\w.$, <>?\[\]]+?))?(?: implements ([\w.$, <>?\[\]]+?))? ?\{$", line)
        if m and not line.startswith(" "):
            current = m.group(1)
            supers = []
            for g in (m.group(2), m.group(3)):
                if g:
                    supers += [re.sub(r"<.*", "", s).strip() for s in re.split(r",(?![^<]*>)", g)]
            classes[current] = {"super": supers, "members": set(), "decl": {}}
            continue
        if current is None:
            continue
        d = re.match(r"^\s+descriptor: (\S+)$", line)
        if d and pending is not None:
            classes[current]["members"].add((pending[0], d.group(1)))
            classes[current]["decl"][(pending[0], d.group(1))] = pending[1]
            pending = None
            continue
        decl = line.strip()
        if decl.endswith(";") and "descriptor:" not in decl:
            head = decl.split("(")[0].split()
            if "(" in decl:
                name = head[-1]
                if name == current or name.endswith("." + current.split(".")[-1]) \
                        or name == current.rsplit(".", 1)[-1]:
                    name = "<init>"
                if "static {}" in decl:
                    name = "<clinit>"
            else:
                name = head[-1].rstrip(";")
            pending = (name, decl)
    return classes


def check_java(out):
    r = compile_app(out)
    if r.returncode != 0:
        fail("the app does not compile against the Android API stub:\n" + r.stderr)
        return
    app_out = os.path.join(out, "app-classes")
    stub_out = os.path.join(out, "stub-classes")
    stub = parse_members(javap(stub_out, class_names(stub_out)))
    app_names = [n for n in class_names(app_out)
                 if not n.endswith((".R", ".BuildConfig")) and ".R$" not in n]
    app = parse_members(javap(app_out, app_names))
    pool = javap(app_out, app_names, verbose=True)
    everything = dict(stub)
    everything.update(app)

    def resolve(owner, key, seen=None):
        """The stub class that declares @key for @owner (its own or inherited)."""
        seen = seen or set()
        if owner in seen or owner not in everything:
            return None
        seen.add(owner)
        if owner in stub and key in stub[owner]["members"]:
            return owner
        for s in everything[owner]["super"]:
            found = resolve(s, key, seen)
            if found:
                return found
        return None

    used = set()

    def mark(cls, key, seen=None):
        """@key of @cls is used, and so is every declaration it overrides."""
        seen = seen or set()
        if cls in seen:
            return
        seen.add(cls)
        if cls in stub and key in stub[cls]["members"]:
            used.add((cls, key))
        for s in everything.get(cls, {}).get("super", []):
            mark(s, key, seen)
    # Calls and field reads in the constant pool, resolved through the
    # hierarchy (javac names the receiver's static type, often the app's own
    # class, as owner).
    for m in re.finditer(r"= (?:Methodref|InterfaceMethodref|Fieldref)\s+#\d+\.#\d+\s+//\s+"
                         r"([\w/$]+)\.(\"<init>\"|[\w$]+):(\S+)", pool):
        owner = m.group(1).replace("/", ".")
        key = (m.group(2).strip('"'), m.group(3))
        found = resolve(owner, key)
        if found:
            mark(found, key)
    # Overrides: an app method whose name and descriptor a stub supertype declares.
    for cls, info in app.items():
        for key in info["members"]:
            for s in info["super"]:
                found = resolve(s, key)
                if found:
                    mark(found, key)
    # Compile-time constants are inlined: used when the app's source names them.
    source = "\n".join(open(f, encoding="utf-8").read() for f in java_files(JAVA_SRC))
    referenced_types = set(re.findall(r"L([\w/$]+);", pool)) | set(
        re.findall(r"= Class\s+#\d+\s+// ([\w/$]+)", pool))
    referenced_types = {t.replace("/", ".") for t in referenced_types}
    for cls, info in app.items():
        referenced_types.update(info["super"])

    def supertypes(c, acc):
        for s in everything.get(c, {}).get("super", []):
            if s not in acc:
                acc.add(s)
                supertypes(s, acc)
        return acc

    needed_types = set(referenced_types)
    for t in list(referenced_types):
        needed_types |= supertypes(t, set())
    for cls, info in stub.items():
        if cls not in needed_types:
            fail(f"stub class {cls} is not used by the app: remove it")
        for key in sorted(info["members"]):
            name, desc = key
            if name in ("<init>", "<clinit>", "serialVersionUID") or name.startswith("this$"):
                continue
            if (cls, key) in used:
                continue
            decl = info["decl"].get(key, "")
            if "(" not in decl and "static final" in decl and re.search(r"\b%s\b" % re.escape(name), source):
                continue
            fail(f"stub member {cls}.{name} {desc} is not used by the app: remove it "
                 "(the stub lists exactly what the app uses)")
    n_members = sum(len(i["members"]) for i in stub.values())
    print(f"app compiles against the stub: {len(stub)} classes, {n_members} members, all used")

    # The check must catch a call that is not in the API.
    victim = os.path.join(JAVA_SRC, *PACKAGE.split("."), "AgentVpnService.java")
    text = open(victim, encoding="utf-8").read()
    if ".setBlocking(true)" not in text:
        fail("misuse self-test: AgentVpnService.java no longer calls .setBlocking(true); "
             "pick another call to break")
        return
    broken_dir = os.path.join(out, "misuse", *PACKAGE.split("."))
    os.makedirs(broken_dir, exist_ok=True)
    broken = os.path.join(broken_dir, "AgentVpnService.java")
    with open(broken, "w", encoding="utf-8") as f:
        f.write(text.replace(".setBlocking(true)", ".setBlockingMode(true)"))
    others = [f for f in java_files(JAVA_SRC) if os.path.basename(f) != "AgentVpnService.java"]
    r = compile_app(os.path.join(out, "misuse-out"), app_sources=others + [broken],
                    stub_out=stub_out)
    if r.returncode == 0 or "setBlockingMode" not in r.stderr:
        fail("a call of VpnService.Builder.setBlockingMode (not in the API) compiled: "
             "the stub hides misuses")
    else:
        print("a call that is not in the API fails to compile, as it should")


def check_jni(out):
    hdr = os.path.join(out, "jni-headers")
    shutil.rmtree(hdr, ignore_errors=True)
    os.makedirs(hdr)
    r = compile_app(out, headers=hdr)
    if r.returncode != 0:
        fail("the app does not compile against the Android API stub:\n" + r.stderr)
        return
    header = os.path.join(hdr, NATIVE_CLASS.replace(".", "_") + ".h")
    if not os.path.exists(header):
        fail(f"javac -h wrote no {os.path.basename(header)}")
        return
    declared = re.findall(r"JNIEXPORT \w+ JNICALL (Java_\w+)", open(header, encoding="utf-8").read())
    jdk = os.path.dirname(os.path.dirname(jdk_tool("javac")))
    glue = os.path.join(APP, "cpp", "agent-jni.c")
    flags = ["-std=gnu11", "-D_GNU_SOURCE", "-O2", "-fPIC", "-Wall", "-Wextra",
             "-Wno-unused-parameter", "-Werror", "-Wcast-align=strict", "-Wshadow",
             "-Werror=implicit-function-declaration", "-Werror=int-conversion",
             "-Werror=pointer-to-int-cast", "-Werror=int-to-pointer-cast",
             "-I", os.path.join(jdk, "include"), "-I", os.path.join(jdk, "include", "linux"),
             "-I", os.path.join(HERE, "stub", "include"),
             "-I", os.path.join(ROOT, "agent", "engine"),
             # The prototypes javac derived from the native methods: a C
             # function whose types differ from its Java declaration is a
             # conflicting-types error.
             "-include", header]
    for cc in ("gcc", "aarch64-linux-gnu-gcc", "arm-linux-gnueabihf-gcc"):
        if shutil.which(cc) is None:
            fail(f"{cc} not found (build-aux/setup.sh installs it)")
            continue
        obj = os.path.join(out, f"agent-jni-{cc}.o")
        r = run([cc] + flags + ["-c", glue, "-o", obj])
        if r.returncode != 0:
            fail(f"agent-jni.c does not compile with {cc}:\n" + r.stderr)
            continue
        nm = cc.replace("gcc", "nm") if cc != "gcc" else "nm"
        r = run([nm, "--defined-only", obj])
        defined = set(re.findall(r" T (Java_\w+)", r.stdout))
        for fn in declared:
            if fn not in defined:
                fail(f"{fn} (a native method of {NATIVE_CLASS}) is not defined in agent-jni.c ({cc})")
        for fn in sorted(defined - set(declared)):
            fail(f"{fn} in agent-jni.c matches no native method of {NATIVE_CLASS}")
    # Every method the glue looks up exists with that signature.
    app_out = os.path.join(out, "app-classes")
    methods = parse_members(javap(app_out, [NATIVE_CLASS])).get(NATIVE_CLASS, {}).get("members", set())
    lookups = re.findall(r'GetMethodID \(env, cls, "(\w+)", "([^"]+)"\)',
                         open(glue, encoding="utf-8").read())
    if not lookups:
        fail("no GetMethodID calls found in agent-jni.c (has the glue changed its form?)")
    for name, sig in lookups:
        if (name, sig) not in methods:
            fail(f"agent-jni.c looks up {name}{sig}, which {NATIVE_CLASS} does not have")
    print(f"agent-jni.c compiles for x86-64, aarch64 and armhf; {len(declared)} native methods "
          f"defined; {len(lookups)} method lookups match the class")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("java", "jni"):
        print(__doc__, file=sys.stderr)
        return 2
    out = os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    (check_java if sys.argv[1] == "java" else check_jni)(out)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
