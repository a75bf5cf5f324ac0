#!/usr/bin/env python3
"""Randomized inputs for every command line and input file format
(issue 43, input validation as a whole): vkqs run, list, devices, info,
bench, report and merge, with option values drawn from a list of hostile
forms (signs, blanks, bases, exponents, overflow, inf/nan, empty, bytes
that are no UTF-8) and input files mutated from valid ones (caselists,
-fails.txt with pins, -flakes/-skips regexes, results JSON for --resume,
merge and report: truncated, retyped, deeply nested, stray bytes, CRLF).

Whatever the input, vkqs must answer as documented: exit 0, 1 or 2 (never a
signal, never a traceback); exit 2 is exactly one line on stderr
("vkqs: error: ...", "report: error: ...", "merge: error: ...") and no
output file made.  The seed is printed; VKQS_FUZZ_SEED and
VKQS_FUZZ_ITERATIONS (default 400) replay or lengthen a run.

    fuzz_inputs.py VKQS WORKDIR
"""
import json
import os
import random
import shutil
import subprocess
import sys

CASE = "vkqs.results.get.size_32_none_stride_packed"
NUMBERS = ["", "0", "1", "2", "-1", "+1", " 1", "1 ", "1e3", "0x10", "010", "inf", "nan", "-0",
           "99999999999999999999999", "4294967297", "1.5", ".5", "5.", "1/1", "2/1", "1/0",
           "0/1", "1/-1", "1//2", "/", "\u0661", "1\u00a0", "60", "0.001", "100001", "3600.1"]
STRINGS = ["", " ", "e", "refdevice", "llvmpipe", "0", "-1", "99", "vkqs.*", "[", "*",
           "vkqs.results.get.*", "\u00e9", "a" * 300, "../x", "-", "--json"]
OPTIONS = {
    "run": ["--device", "--filter", "--caselist", "--expectations", "--timeout", "--jobs",
            "--shard", "--json", "--junit", "--csv", "--validation", "--no-fork", "--batch",
            "--no-rerun", "--resume"],
    "list": ["--filter", "--spec"],
    "devices": ["--timeout"],
    "info": ["--device", "--timeout"],
    "bench": ["--device", "--filter", "--repeat", "--min-time", "--processes", "--timeout",
              "--json", "--quick", "--baseline", "--max-time", "--max-processes"],
}
FLAGS = {"--validation", "--no-fork", "--no-rerun", "--spec", "--quick"}
NUMERIC = {"--timeout", "--jobs", "--shard", "--batch", "--repeat", "--min-time", "--processes",
           "--max-time", "--max-processes"}


def hostile_bytes(rng, text):
    """text with a random corruption of its bytes."""
    b = bytearray(text.encode("utf-8"))
    kind = rng.randrange(8)
    if kind == 0 and b:
        del b[rng.randrange(len(b)):]
    elif kind == 1:
        b.insert(rng.randrange(len(b) + 1), rng.choice([0, 1, 0x7f, 0xff, 0xc3, 0xed, 0x80]))
    elif kind == 2:
        b = b.replace(b"\n", b"\r\n")
    elif kind == 3:
        b = b.replace(b"\n", b"\r")
    elif kind == 4:
        b += b"\n" + b"x" * rng.randrange(1, 100000)
    elif kind == 5 and b:
        i = rng.randrange(len(b))
        b[i] = rng.randrange(256)
    elif kind == 6:
        b = b"\xef\xbb\xbf" + b
    return bytes(b)


class Fuzz:
    def __init__(self, vkqs, work, seed):
        self.vkqs, self.work, self.rng = vkqs, work, random.Random(seed)
        self.n = 0
        self.failures = []
        os.makedirs(work, exist_ok=True)
        r = subprocess.run([vkqs, "run", "--filter", CASE, "--shard", "1/1", "--json",
                            os.path.join(work, "valid.json")], capture_output=True)
        if r.returncode != 0:
            sys.exit("fuzz_inputs: the valid run failed: %s" % r.stderr.decode(errors="replace"))
        with open(os.path.join(work, "valid.json"), encoding="utf-8") as f:
            self.valid = json.load(f)

    def path(self, name):
        return os.path.join(self.work, "it", name)

    def write(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8"))
        return self.path(name)

    def caselist(self):
        lines = [CASE, "# c", "", "  " + CASE + "  ", "vkqs.no.such", "\t" + CASE]
        text = "\n".join(self.rng.sample(lines, self.rng.randrange(1, len(lines)))) + "\n"
        return self.write("cl.txt", hostile_bytes(self.rng, text) if self.rng.random() < .6 else text)

    def expectations(self):
        rng = self.rng
        fails = rng.sample([
            "# must: x", "# pin: expected .*", "# pin: (", "#pin: x", "# Pin: y", "# pin:",
            CASE + ",Fail", CASE + ",Pass", CASE + ",Flaky", CASE + ",Fail,1.0", ",Fail",
            "vkqs.no.such,Fail", CASE, "# driver versions: Mesa 1.0", "# pin: " + "a" * 5000],
            rng.randrange(0, 6))
        regex = rng.sample(["vkqs.*", "vkqs.(", "^" + CASE + "$", "[[:alpha:]]", "a{99999}",
                            "", "# c"], rng.randrange(0, 4))
        for suffix, lines in (("-fails.txt", fails), ("-flakes.txt", regex),
                              ("-skips.txt", rng.sample(regex, len(regex))),
                              ("-serial.txt", [])):
            text = "\n".join(lines) + "\n"
            if rng.random() < .3:
                self.write("e" + suffix, hostile_bytes(rng, text))
            elif rng.random() < .8:
                self.write("e" + suffix, text)
        return self.path("e")

    def result(self, shard=False):
        rng = self.rng
        d = json.loads(json.dumps(self.valid))
        kind = rng.randrange(10)
        if kind == 0:
            d["cases"][0]["status"] = rng.choice(["Bogus", 5, None, "Missing"])
        elif kind == 1:
            d["shard"] = rng.choice([{"index": 1, "count": 0}, {"index": 5, "count": 4},
                                     {"index": -1, "count": -1}, "1/1", None,
                                     {"index": 1.5, "count": 2}])
        elif kind == 2:
            d[rng.choice(list(d))] = rng.choice([None, [], {}, "x", -1, 1e308])
        elif kind == 3:
            return self.write("r.json", "[" * 100000 + "]" * 100000)
        elif kind == 4:
            d["cases"][0]["failures"] = rng.choice([["not in the message"], [1], "x", None])
        elif kind == 5:
            d["summary"] = {"total": float("nan")}
        elif kind == 6:
            d["cases"].append(dict(d["cases"][0]))
        text = json.dumps(d, allow_nan=True)
        if rng.random() < .3:
            return self.write("r.json", hostile_bytes(rng, text))
        return self.write("r.json", text)

    def value(self, opt):
        rng = self.rng
        if opt in NUMERIC:
            return rng.choice(NUMBERS)
        if opt == "--caselist":
            return rng.choice([self.caselist(), self.work, "/nonexistent", ""])
        if opt == "--expectations":
            return rng.choice([self.expectations(), self.expectations() + ",/nonexistent", ""])
        if opt == "--resume":
            return self.result()
        if opt in ("--json", "--junit", "--csv"):
            return rng.choice([self.path("out." + opt[2:]), self.path("out.json"),
                               self.path("no/such/dir/x"), self.path("b" * 300), self.work,
                               self.path("cl.txt"), ""])
        if opt == "--filter":
            return rng.choice([CASE, CASE, CASE] + STRINGS)
        return rng.choice(STRINGS)

    def one(self):
        rng = self.rng
        shutil.rmtree(os.path.join(self.work, "it"), ignore_errors=True)
        os.makedirs(os.path.join(self.work, "it"))
        cmd = rng.choice(["run"] * 6 + ["list", "devices", "info", "bench", "report", "merge"])
        if cmd in ("report", "merge"):
            files = [self.result() for _ in range(rng.randrange(1, 3))]
            if cmd == "report":
                args = [cmd] + files + rng.choice([["--md", self.path("o.md")],
                                                   ["--html", self.path("o.html")],
                                                   ["--md", files[0]], []])
            else:
                args = [cmd, rng.choice([self.path("m.json"), files[0], ""])] + files
            outs = [a for a in args if a.endswith(("o.md", "o.html", "m.json"))]
        else:
            args = [cmd]
            opts = rng.sample(OPTIONS[cmd], rng.randrange(0, min(5, len(OPTIONS[cmd])) + 1))
            for o in opts:
                args.append(o)
                if o not in FLAGS:
                    args.append(self.value(o))
            if cmd in ("run", "bench") and "--filter" not in opts and "--caselist" not in opts:
                args += ["--filter", CASE if cmd == "run" else "vkqs.bench.timestamp.resolution_graphics"]
            if cmd == "bench":
                # a bench that would run is left out: it measures, for
                # minutes; the options before this refusal are still read
                args += ["--processes", "0"]
            outs = [args[i + 1] for i, a in enumerate(args[:-1])
                    if a in ("--json", "--junit", "--csv")]
        env = dict(os.environ, VKQS_SELFTEST="0")
        try:
            r = subprocess.run([self.vkqs] + args, capture_output=True, timeout=120, env=env,
                               stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            self.fail(args, "no answer in 120 s")
            return
        self.n += 1
        err = r.stderr.decode("utf-8", errors="replace")
        lines = [l for l in err.splitlines() if l.strip()]
        if r.returncode < 0 or r.returncode not in (0, 1, 2):
            self.fail(args, "exit %d: %s" % (r.returncode, err[-300:]))
        elif "Traceback" in err:
            self.fail(args, "a traceback: %s" % err[-300:])
        elif r.returncode == 2:
            prefix = {"report": "report: error: ", "merge": "merge: error: "}.get(cmd, "vkqs: error: ")
            made = [o for o in outs if o and os.path.isfile(o) and not o.endswith(("cl.txt", "r.json"))
                    and os.path.dirname(o) == os.path.join(self.work, "it")]
            if len(lines) != 1 or not lines[0].startswith(prefix):
                self.fail(args, "exit 2 with %d stderr lines: %s" % (len(lines), err[-400:]))
            elif made and cmd not in ("report", "merge") and "did not answer within" not in err:
                # (a driver that did not answer in --timeout: the result
                # files say so, by design)
                self.fail(args, "exit 2, yet %s was written" % made)

    def fail(self, args, why):
        shown = [a if len(a) < 80 else a[:40] + "...(%d)" % len(a) for a in args]
        self.failures.append("%s: %s" % (" ".join(repr(a) for a in shown), why))


def main(argv):
    vkqs, work = argv
    seed = int(os.environ.get("VKQS_FUZZ_SEED") or random.SystemRandom().randrange(1 << 30))
    iters = int(os.environ.get("VKQS_FUZZ_ITERATIONS") or 400)
    shutil.rmtree(work, ignore_errors=True)
    f = Fuzz(vkqs, work, seed)
    for _ in range(iters):
        f.one()
    for x in f.failures[:20]:
        print("FAILED:", x)
    print("fuzz_inputs (VKQS_FUZZ_SEED=%d): %d invocations, %d failed" % (seed, f.n, len(f.failures)))
    return 1 if f.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
