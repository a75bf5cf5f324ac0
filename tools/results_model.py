"""The results model of a vkqs result file, in Python: the one function the
tools count with, the same partition as framework/record.c vkqs_summarize.

Each case is in exactly one class:
  pass, not_supported, warnings   ran, outcome ok, by status
  expected_fails                  outcome expected
  flakes                          outcome flake or known_flake
  failed                          ran, and its outcome fails the run
  not_run                         status Missing (whatever an older journal
                                  wrote as its outcome)
so the classes add up to total; unexpected = failed + not_run is what fails
a run; unexpected_passes is part of failed.  A run is complete only when
its file says "complete": true.
"""

FAILS_THE_RUN = {"unexpected", "unexpected_pass", "not_pinned", "order_dependent"}
CLASSES = ("pass", "not_supported", "warnings", "expected_fails", "flakes", "failed",
           "not_run")


def case_class(c):
    status, outcome = c.get("status"), c.get("outcome", "ok")
    if status == "Missing" or outcome == "not_run":
        return "not_run"
    if outcome in FAILS_THE_RUN:
        return "failed"
    if outcome == "expected":
        return "expected_fails"
    if outcome in ("flake", "known_flake"):
        return "flakes"
    if status == "Pass":
        return "pass"
    if status == "NotSupported":
        return "not_supported"
    if status in ("QualityWarning", "CompatibilityWarning"):
        return "warnings"
    # a failing status with outcome ok cannot be written by vkqs: count it
    # as failing rather than hide it
    return "failed"


def counts(cases):
    n = dict.fromkeys(CLASSES, 0)
    n["unexpected_passes"] = 0
    for c in cases:
        k = case_class(c)
        n[k] += 1
        if k == "failed" and c.get("outcome") == "unexpected_pass":
            n["unexpected_passes"] += 1
    n["total"] = len(cases)
    n["unexpected"] = n["failed"] + n["not_run"]
    return n


def complete(data):
    return data.get("complete") is True


def stopped(data):
    return data.get("stopped") or ("" if complete(data) else "interrupted")
