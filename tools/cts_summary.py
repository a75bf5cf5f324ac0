#!/usr/bin/env python3
"""Counts deqp-vk results per group: reads the .qpa logs of a run split into
chunks (CHUNKS/<n>.txt case lists, RESULTS/<arch>-<n>.qpa logs) and prints
COUNT <arch> <group> <status> <n>, the NotSupported reasons (NS) and every
case that neither passed nor was NotSupported (BAD), a case missing from its
chunk's log counting as NotRun (its process hung or aborted before it).
results/cts-refdevice.md is made from its output.

usage: cts_summary.py RESULTS CHUNKS
"""
import os, re, sys, collections
if len(sys.argv) != 3 or not all(os.path.isdir(d) for d in sys.argv[1:]):
    sys.exit('cts_summary.py: usage: cts_summary.py RESULTS_DIR CHUNKS_DIR (both existing directories)')
R, chunks = sys.argv[1], sys.argv[2]
groups = ['dEQP-VK.query_pool', 'dEQP-VK.pipeline.monolithic.timestamp', 'dEQP-VK.multiview',
          'dEQP-VK.transform_feedback', 'dEQP-VK.mesh_shader.ext.query']
def group(c):
    for g in groups:
        if c.startswith(g + '.'): return g
    return '?'
allc = {}
for f in sorted(os.listdir(chunks)):
    allc[f[:-4]] = [l.strip() for l in open(os.path.join(chunks, f)) if l.strip()]
tot = collections.Counter(); bad = []; reasons = collections.Counter()
for arch in ('immediate', 'tiler'):
    for n, cases in allc.items():
        q = os.path.join(R, '%s-%s.qpa' % (arch, n))
        if not os.path.exists(q): continue
        txt = open(q, errors='replace').read()
        seen = {}
        for m in re.finditer(r'#beginTestCaseResult (\S+)(.*?)(?:#endTestCaseResult|#terminateTestCaseResult (\S+))', txt, re.S):
            name, body, term = m.group(1), m.group(2), m.group(3)
            if term:
                seen[name] = (term, '')
                continue
            s = re.search(r'<Result StatusCode="([^"]+)">([^<]*)<', body)
            seen[name] = (s.group(1), s.group(2)) if s else ('NoResult', '')
        for c in cases:
            st, why = seen.get(c, ('NotRun', ''))
            tot[(arch, group(c), st)] += 1
            if st == 'NotSupported': reasons[(group(c), why)] += 1
            elif st not in ('Pass', 'QualityWarning', 'CompatibilityWarning'): bad.append((arch, c, st, why))
for k in sorted(tot): print('COUNT', *k, tot[k])
for k, v in sorted(reasons.items(), key=lambda x: -x[1])[:40]: print('NS', k[0], v, k[1])
print('BAD', len(bad))
for b in bad[:300]: print('BAD', *b)
