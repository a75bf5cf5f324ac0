#!/usr/bin/env python3
"""A case may use an extension (or its flags) newer than the validation
layer that checks it: such a layer reports the usage as invalid, and vkqs
ignores those reports only for extensions in framework/device.c's
newer_exts[] (vkqs_validation_predated).  This check makes that list a
rule no new case can forget (issue 43; a Debian 13 layer, 1.4.309, failed
a fresh ci/test.sh on VK_KHR_video_encode_feedback2's flags):

- every extension common/compat.h defines (names newer than Debian 12's
  1.3.239 headers, the oldest layer vkqs supports) is in newer_exts[], with
  the first Vulkan-Headers version whose vk.xml names it (the registry's
  facts, docs/validation.md) and its number;
- every suite file that uses such an extension (its *_EXTENSION_NAME macro
  or a string opening with its name) marks the use:
  vkqs_require_feature("NAME.feature"), vkqs_extension_used(..., NAME),
  vkqs_layer_predates(..., NAME) (it skips under an older layer), or a
  comment "vkqs-layer: NAME by number" where only the extension's
  structures are used (a layer names their numbers, which
  vkqs_validation_predated attributes); and its area is among the entry's
  areas.

    tools/check_layer_knowledge.py [ROOT]
Exit 1 with one line per problem.
"""
import os
import re
import sys


def main(argv):
    root = argv[0] if argv else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    compat = open(os.path.join(root, "common/compat.h"), encoding="utf-8").read()
    device = open(os.path.join(root, "framework/device.c"), encoding="utf-8").read()
    newer = {}
    for macro, name in re.findall(r'#define\s+(VK_\w+_EXTENSION_NAME)\s+"(VK_\w+)"', compat):
        if not name.startswith("VK_STD_"):  # a video std header, no extension
            newer[name] = macro
    body = device[device.index("} newer_exts[] = {"):]
    body = body[:body.index("};")]
    table = {}
    for number, version, name, areas in re.findall(
            r'\{\s*(\d+),\s*VK_MAKE_API_VERSION\(0,\s*(\d+,\s*\d+,\s*\d+)\),\s*"(\w+)",\s*"([\w,]*)"\s*\}',
            body):
        table[name] = (int(number), version.replace(" ", "").replace(",", "."),
                       set(filter(None, areas.split(","))))
    problems = []
    for name in sorted(newer):
        if name not in table:
            problems.append("framework/device.c: newer_exts[] lacks %s (common/compat.h "
                            "defines it: newer than the oldest layer)" % name)
    for dirpath, _, files in os.walk(os.path.join(root, "suite")):
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            area = rel.split(os.sep)[1]
            text = open(path, encoding="utf-8").read()
            for name, macro in sorted(newer.items()):
                # a use: the macro, or the name opening a string (a
                # feature "NAME.x"); a name in a sentence is no use
                if macro not in text and not re.search(r'"%s\b' % name, text):
                    continue
                marked = (('"%s.' % name) in text or ('%s ".' % macro) in text
                          or re.search(r"(vkqs_extension_used|vkqs_layer_predates)\([^;]*(%s|\"%s\")"
                                       % (macro, name), text))
                # only its structures: their numbers name it, the rest of
                # the case stays validated
                by_number = re.search(r"vkqs-layer: %s[\s*]+by number" % name, text)
                if not marked and not by_number:
                    problems.append("%s: uses %s but never marks it (vkqs_require_feature(\"%s."
                                    "feature\") or vkqs_extension_used)" % (rel, name, name))
                # a marked use leaves the area's case unvalidated under an
                # older layer: the entry lists the area, so a run says so
                if marked and name in table and area not in table[name][2]:
                    problems.append("%s: area %s uses %s; newer_exts[] lists it for %s only"
                                    % (rel, area, name, ",".join(sorted(table[name][2]))))
    for p in problems:
        print("check_layer_knowledge: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
