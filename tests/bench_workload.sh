#!/usr/bin/env bash
# Per-workload costing (suite/bench/workload.c) against what the reference
# device's cost model predicts, graphics queue only (deterministic):
# - immediate architecture: one timeline, so serializing changes nothing
#   but the injected barrier's own cost (one command, 20 ns) in the workload
#   that follows it in the same command buffer;
# - tiler: unserialized, the compute dispatch after render pass A runs on
#   the geometry engine beside A's fragment work and its timers read less
#   than its cost; serialized they read its cost, the same as on the
#   immediate architecture.
# Usage: bench_workload.sh VKQS WORKDIR
set -u
vkqs=$1 work=$2
rm -rf "$work"; mkdir -p "$work"
for a in immediate tiler; do
	RD_ARCH=$a RD_TILE=32x32 "$vkqs" bench --device refdevice --quick \
		--filter 'vkqs.bench.workload.costing_graphics_only' --json "$work/$a.json" \
		>"$work/$a.out" 2>&1 || { echo "vkqs bench ($a) failed"; tail "$work/$a.out"; exit 1; }
done
python3 - "$work/immediate.json" "$work/tiler.json" <<'PY'
import json, sys
def metrics(path):
    d = json.load(open(path))
    (b,) = d["benchmarks"]
    assert b["status"] == "Pass", b
    return {m["name"]: m for m in b["metrics"]}
imm, til = metrics(sys.argv[1]), metrics(sys.argv[2])
fails = []
follows = {"compute", "render_pass_multiview"}  # second workload of their command buffer
for name, m in imm.items():
    if name.endswith(".difference"):
        w = name[:-len(".difference")]
        want = 20 if w in follows else 0
        raw = [v for p in m["per_process"] for v in p["raw"]]
        if not raw or not all(v == want for v in raw):
            fails.append("immediate: %s differences %s, the model gives %d" % (w, raw[:3], want))
cu, cs = til["compute.unserialized"]["median"], til["compute.serialized"]["median"]
if not cu < cs:
    fails.append("tiler: compute unserialized %g ns, serialized %g: no overlap hidden" % (cu, cs))
if cs != imm["compute.unserialized"]["median"]:
    fails.append("tiler: compute serialized %g ns, its cost on the immediate architecture %g"
                 % (cs, imm["compute.unserialized"]["median"]))
for f in fails:
    print("FAILED: " + f)
print("workload costing: immediate differences as predicted; tiler compute %g ns unserialized, "
      "%g ns serialized (its cost)" % (cu, cs))
sys.exit(1 if fails else 0)
PY
