#!/usr/bin/env python3
"""Merge the shards of one vkqs run into one vkqs-results file.

    tools/merge.py OUT.json SHARD.json...      (also: vkqs merge ...)

Shards are the JSON files of `vkqs run --shard I/N --json ...` for I = 1..N
on one device with one build and the same options.  The merged file is what
an unsharded run writes: the cases in list order (the shards interleave, so
case k of the run is case k // N of shard k % N + 1), the summary summed,
device_lost kept, the wall time of the longest shard, and "shards": N.  It
reads like any result file: `report.py OUT.json --baseline OLD.json`, the page.

Refused with one line on stderr and exit 2, naming the shard, with nothing
written: a file that is not a vkqs result or not of its shape, shards of
different devices, builds, options, refdevice knobs or expectations files
(their SHA-256), an incomplete shard, a shard given twice or missing, cases
in two shards or twice in one, fewer cases than the shards selected, an
output that is also a shard, an output path that cannot be written.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import outputs  # noqa: E402
import results_model  # noqa: E402


class MergeError(Exception):
    """Bad input: one line for the user, exit 2."""


def no_constant(name):
    """NaN and Infinity are no JSON: refused, never copied into a merge."""
    raise ValueError("%s is no JSON number" % name)


def load(path):
    try:
        with open(path, encoding="utf-8-sig") as f:
            data = json.load(f, parse_constant=no_constant)
    except FileNotFoundError:
        raise MergeError("%s: no such file" % path)
    except ValueError as e:
        raise MergeError("%s: not a vkqs result (not JSON: %s)" % (path, e))
    except RecursionError:
        raise MergeError("%s: not a vkqs result (JSON nested too deeply)" % path)
    if not isinstance(data, dict) or data.get("format") != "vkqs-results":
        raise MergeError("%s: not a vkqs result" % path)
    for key in ("shard", "build", "options", "selected", "cases", "summary", "device"):
        if key not in data:
            raise MergeError("%s: has no %r: written by a vkqs older than shard merging"
                             % (path, key))
    if not data["shard"]:
        raise MergeError("%s: not a shard (run without --shard)" % path)
    shape(path, data)
    return data


def shape(path, data):
    """The members merge reads, of the types it reads them as."""
    def need(ok, what):
        if not ok:
            raise MergeError("%s: not a vkqs result of this shape (%s)" % (path, what))
    sh = data["shard"]
    need(isinstance(sh, dict) and type(sh.get("index")) is int
         and type(sh.get("count")) is int, "\"shard\" is not {index, count}")
    need(1 <= sh["index"] <= sh["count"],
         "shard %r/%r: not 1 <= index <= count" % (sh["index"], sh["count"]))
    need(type(data["selected"]) is int and data["selected"] >= 0,
         "\"selected\" is not a count")
    need(isinstance(data["device"], dict), "\"device\" is not an object")
    need(isinstance(data["summary"], dict), "\"summary\" is not an object")
    need(isinstance(data["cases"], list), "\"cases\" is not a list")
    for i, c in enumerate(data["cases"]):
        need(isinstance(c, dict) and isinstance(c.get("name"), str)
             and isinstance(c.get("status"), str), "case %d has no name and status" % i)
    names = [c["name"] for c in data["cases"]]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise MergeError("%s: case %s is listed twice" % (path, dup))


def device_key(d):
    dev = d["device"]
    return (dev.get("name"), dev.get("driver_name"), dev.get("driver_info"),
            dev.get("api_version"), dev.get("driver_version"))


def validation_key(d):
    """Off, or on with which layer (the counts differ from shard to shard)."""
    v = d.get("validation")
    return "layer %s" % v.get("layer") if isinstance(v, dict) else ("on" if v else "off")


def expectation_hashes(d):
    files = d.get("expectations_files") or []
    return ", ".join("%s %s" % (f.get("path"), str(f.get("sha256"))[:12])
                     for f in files if isinstance(f, dict)) or "none"


def merge(paths):
    shards = [(p, load(p)) for p in paths]
    first_path, first = shards[0]
    n = first["shard"]["count"]
    by_index = {}
    for p, d in shards:
        if device_key(d) != device_key(first):
            raise MergeError("%s: another device (%s, %s) than %s (%s, %s)"
                             % (p, d["device"].get("name"), d["device"].get("driver_info"),
                                first_path, first["device"].get("name"),
                                first["device"].get("driver_info")))
        if d["build"] != first["build"]:
            raise MergeError("%s: another build (%s) than %s (%s)"
                             % (p, d["build"], first_path, first["build"]))
        if validation_key(d) != validation_key(first):
            raise MergeError("%s: validation %s differs from %s's %s"
                             % (p, validation_key(d), first_path, validation_key(first)))
        for key in ("options", "expectations", "selected", "refdevice"):
            if d.get(key) != first.get(key):
                raise MergeError("%s: %s %r differs from %s's %r"
                                 % (p, key, d.get(key), first_path, first.get(key)))
        if expectation_hashes(d) != expectation_hashes(first):
            raise MergeError("%s: judged by other expectations files (%s) than %s (%s)"
                             % (p, expectation_hashes(d), first_path,
                                expectation_hashes(first)))
        if d["shard"]["count"] != n:
            raise MergeError("%s: shard %d/%d of another split than %s (of %d)"
                             % (p, d["shard"]["index"], d["shard"]["count"], first_path, n))
        if not d.get("complete", False):
            raise MergeError("%s: an incomplete shard (the run was interrupted)" % p)
        i = d["shard"]["index"]
        if i in by_index:
            raise MergeError("%s: shard %d/%d given twice (also %s)" % (p, i, n, by_index[i][0]))
        by_index[i] = (p, d)
    missing = [i for i in range(1, n + 1) if i not in by_index]
    if missing:
        raise MergeError("shard%s %s of %d missing (have %s)"
                         % ("s" if len(missing) > 1 else "", ", ".join(map(str, missing)), n,
                            ", ".join(sorted(os.path.basename(p) for p, _ in shards))))
    owner = {}
    for i in range(1, n + 1):
        p, d = by_index[i]
        for c in d["cases"]:
            if c["name"] in owner:
                raise MergeError("%s: case %s is also in %s" % (p, c["name"], owner[c["name"]]))
            owner[c["name"]] = p
    selected = first["selected"]
    for i in range(1, n + 1):
        p, d = by_index[i]
        want = len(range(i - 1, selected, n))
        if len(d["cases"]) != want:
            raise MergeError("%s: %d cases, but shard %d/%d of %d selected has %d"
                             % (p, len(d["cases"]), i, n, selected, want))
    cases = [by_index[k % n + 1][1]["cases"][k // n] for k in range(selected)]

    out = dict(first)
    out["cases"] = cases
    out["shard"] = None
    out["shards"] = n
    out["wall_s"] = max(d.get("wall_s") or 0 for _, d in shards)
    out["started_at"] = min(d.get("started_at", "") for _, d in shards)
    out["serial"] = sum(d.get("serial", 0) for _, d in shards)
    # the counts of the merged cases (tools/results_model.py), not the sum
    # of what the shards say
    summary = dict(first["summary"])
    summary.update(results_model.counts(cases))
    summary["skipped_by_list"] = sum(d["summary"].get("skipped_by_list", 0) for _, d in shards)
    out["summary"] = summary
    lost = [d["device_lost"] for i in range(1, n + 1)
            for d in [by_index[i][1]] if d.get("device_lost")]
    out["device_lost"] = lost[0] if lost else None
    v = [d.get("validation") for _, d in shards]
    if all(isinstance(x, dict) for x in v):
        merged = dict(v[0])
        for key in ("reports", "ignored", "ignored_predating"):
            merged[key] = sum(x.get(key, 0) for x in v)
        why = {}
        for x in v:
            for k, c in x.get("why", {}).items():
                why[k] = why.get(k, 0) + c
        merged["why"] = why
        out["validation"] = merged
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 2:
        print("usage: merge.py OUT.json SHARD.json...", file=sys.stderr)
        return 2
    out, shards = argv[0], argv[1:]
    try:
        outputs.check_all([("the output", out)], [("the shard " + p, p) for p in shards])
        merged = merge(shards)
        outputs.write(out, json.dumps(merged, indent=1) + "\n")
    except (MergeError, outputs.OutputError) as e:
        print("merge: error: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("merge: error: %s: %s" % (e.filename or out, e.strerror), file=sys.stderr)
        return 2
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        print("merge: error: a shard is not a vkqs result of this shape (%s: %s)"
              % (type(e).__name__, e), file=sys.stderr)
        return 2
    s = merged["summary"]
    print("merge: %d shards of %s -> %s: %d cases, %d unexpected"
          % (merged["shards"], merged["device"].get("name"), out, s["total"], s["unexpected"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
