#!/usr/bin/env python3
"""The code's layering (docs/style.md, "Layers"): fails when

- a file of the refdevice (the driver under test) includes a header of the
  harness (framework/): the two share only common/;
- framework/ has an include cycle between its modules (a module is x.c
  with x.h; framework/cli/ files are modules of their own);
- framework/ has a call cycle: object A calls a function object B defines
  while B, directly or through others, calls one of A's (read from the
  built objects with nm, so a call through a header that declares
  another module's function counts too);
- a case under suite/ calls vkCreateQueryPool itself: every pool is made
  by framework/vkutil.c (vkqs_query_pool*), which records what the pool's
  flags need (VK_QUERY_POOL_CREATE_RESET_BIT_KHR marks VK_KHR_maintenance9
  as used for the layer-knowledge check) and destroys it at case end.  The
  one exception is the selftest that makes an invalid pool on purpose;
- framework/ prints "vkqs: warning:" other than through warn_input
  (framework/cli/cli.c), which holds a warning about the inputs back until
  every input check has passed: a refused input gets one error line alone.

    check_layering.py SOURCE_DIR BUILD_DIR

Prints the modules in an order where each calls only those before it.
Exit 1 naming each violation; 2 for bad input.
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
CREATE_POOL = re.compile(r'\bvkCreateQueryPool\s*\(')


def cycles(graph):
    """The strongly connected components with more than one node (or a
    self edge), each sorted; Tarjan's algorithm, iterative."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    n = stack.pop()
                    on.discard(n)
                    comp.append(n)
                    if n == node:
                        break
                if len(comp) > 1 or node in graph.get(node, ()):
                    out.append(sorted(comp))
    return out


def order(graph):
    """Nodes so that each comes after everything it points to."""
    done, out = set(), []

    def visit(n, path):
        if n in done or n in path:
            return
        path.add(n)
        for m in sorted(graph.get(n, ())):
            visit(m, path)
        done.add(n)
        out.append(n)

    for n in sorted(graph):
        visit(n, set())
    return out


def self_test():
    """The detector finds what it is for (run each time: a checker that
    cannot fail is no check)."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    assert order({"a": {"b"}, "b": set()}) == ["b", "a"]
    assert CREATE_POOL.search("VKQS_CHECK(ctx, D->vkCreateQueryPool(DEV, &ci, NULL, &p));")
    assert not CREATE_POOL.search("PFN_vkCreateQueryPool f;")


def module_of(path, framework):
    rel = os.path.relpath(path, framework)
    return os.path.splitext(rel)[0]


def main():
    if len(sys.argv) != 3 or not all(os.path.isdir(d) for d in sys.argv[1:]):
        print("usage: check_layering.py SOURCE_DIR BUILD_DIR", file=sys.stderr)
        return 2
    src, build = (os.path.abspath(d) for d in sys.argv[1:])
    self_test()
    framework = os.path.join(src, "framework")
    bad = []

    def sources(folder):
        out = []
        for dirpath, _, files in os.walk(folder):
            out += [os.path.join(dirpath, f) for f in sorted(files) if f.endswith((".c", ".h"))]
        return sorted(out)

    fw_files = sources(framework)
    fw_headers = {os.path.basename(f) for f in fw_files if f.endswith(".h")}

    # 1. the refdevice includes nothing of the harness
    rd = os.path.join(src, "refdevice")
    rd_local = {os.path.basename(f) for f in sources(rd)} | set(os.listdir(os.path.join(src, "common")))
    for f in sources(rd):
        with open(f, errors="replace") as fh:
            for inc in INCLUDE.findall(fh.read()):
                name = os.path.basename(inc)
                if "framework" in inc.split("/") or (name in fw_headers and name not in rd_local):
                    bad.append(f"{os.path.relpath(f, src)} includes {inc}, a header of framework/")

    # 2. module include graph of framework/
    inc_graph = {}
    by_name = {}
    for f in fw_files:
        by_name.setdefault(os.path.basename(f), f)
    for f in fw_files:
        m = module_of(f, framework)
        inc_graph.setdefault(m, set())
        here = os.path.dirname(f)
        with open(f, errors="replace") as fh:
            for inc in INCLUDE.findall(fh.read()):
                target = os.path.normpath(os.path.join(here, inc))
                if not os.path.exists(target):
                    target = by_name.get(os.path.basename(inc))
                if target and target.startswith(framework + os.sep):
                    t = module_of(target, framework)
                    if t != m:
                        inc_graph[m].add(t)
    for comp in cycles(inc_graph):
        bad.append("include cycle in framework/: " + " <-> ".join(comp))

    # 3. call graph from the built objects
    objs = {}
    for f in fw_files:
        if not f.endswith(".c"):
            continue
        rel = os.path.relpath(f, src)
        for target in ("vkqs_core", "vkqs"):
            o = os.path.join(build, "CMakeFiles", target + ".dir", rel + ".o")
            if os.path.exists(o):
                objs[module_of(f, framework)] = o
    if len(objs) < len([f for f in fw_files if f.endswith(".c")]):
        missing = sorted({module_of(f, framework) for f in fw_files if f.endswith(".c")} - set(objs))
        print(f"check_layering: no object for {', '.join(missing)} in {build}: build first",
              file=sys.stderr)
        return 2
    defined, used = {}, {}
    for m, o in objs.items():
        out = subprocess.run(["nm", "-P", o], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) < 2:
                continue
            sym, kind = parts[0], parts[1]
            if kind in "TDBR":
                defined[sym] = m
            elif kind == "U":
                used.setdefault(m, set()).add(sym)
    call_graph = {m: set() for m in objs}
    for m, syms in used.items():
        for s in syms:
            t = defined.get(s)
            if t and t != m:
                call_graph[m].add(t)
    for comp in cycles(call_graph):
        bad.append("call cycle in framework/: " + " <-> ".join(comp))

    # 4. pools come from vkutil.c
    create_ok = {"suite/selftest/selftest.c"}
    creates = 0
    for f in sources(os.path.join(src, "suite")):
        rel = os.path.relpath(f, src)
        with open(f, errors="replace") as fh:
            for no, line in enumerate(fh, 1):
                if CREATE_POOL.search(line):
                    creates += 1
                    if rel not in create_ok:
                        bad.append(f"{rel}:{no} calls vkCreateQueryPool; use vkqs_query_pool, "
                                   f"vkqs_query_pool_next or vkqs_query_pool_flags "
                                   f"(framework/vkutil.h)")

    # 5. warnings about the inputs wait for the input checks
    warn_ok = os.path.join(framework, "cli", "cli.c")
    for f in fw_files:
        if f == warn_ok:
            continue
        with open(f, errors="replace") as fh:
            for no, line in enumerate(fh, 1):
                if "vkqs: warning:" in line:
                    bad.append(f"{os.path.relpath(f, src)}:{no} prints a warning itself; use "
                               f"warn_input (framework/cli/cli.h), which a refusal drops")

    for b in bad:
        print("FAIL: " + b)
    if not bad:
        print("layers (each calls only those before it): " + ", ".join(order(call_graph)))
        print(f"check_layering: refdevice includes no framework/ header; framework/ has no "
              f"include or call cycle ({len(inc_graph)} modules); suite/ makes pools only "
              f"through framework/vkutil.c ({creates} direct call, in the selftest)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
