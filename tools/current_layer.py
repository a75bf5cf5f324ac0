#!/usr/bin/env python3
"""A layer manifest for the newest Khronos validation layer this machine has.

    tools/current_layer.py OUTDIR [--library PATH]
    VK_LAYER_PATH=OUTDIR build/vkqs run --validation ...

Debian 12's vulkan-validationlayers is 1.3.239, older than every extension
vkqs checks past VK_KHR_maintenance5.  Debian's chromium-common ships a
current build of the same layer (Vulkan-ValidationLayers, the Khronos
layer Chromium's own Vulkan backend is tested with) as
/usr/lib/chromium/libVkLayer_khronos_validation.so, without a manifest.
This writes OUTDIR/VkLayer_khronos_validation.json for it: the library by
absolute path (a bare name would load whichever library of that name the
system finds first), and as api_version the version the library itself
reports through its vkEnumerateInstanceLayerProperties, which is what
`vkqs run --validation` prints and keys its ignored false reports on
(docs/validation.md), and the instance extensions the library says it
provides (vkqs turns handle wrapping off through VK_EXT_validation_features
only when the layer offers it).

Without --library it takes the newest of the layers it knows of, by the
version each reports.  Prints the version and the path; exit 2 with one
line on stderr, and nothing written, if no layer loads.
"""
import argparse
import ctypes
import json
import os
import sys
import tempfile

KNOWN = (
    "/usr/lib/chromium/libVkLayer_khronos_validation.so",   # chromium-common
    "/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so",  # vulkan-validationlayers
)
NAME = "VK_LAYER_KHRONOS_validation"


class LayerError(Exception):
    """Bad input or no layer: one line for the user, exit 2."""


class VkLayerProperties(ctypes.Structure):
    _fields_ = [("layerName", ctypes.c_char * 256),
                ("specVersion", ctypes.c_uint32),
                ("implementationVersion", ctypes.c_uint32),
                ("description", ctypes.c_char * 256)]


class VkExtensionProperties(ctypes.Structure):
    _fields_ = [("extensionName", ctypes.c_char * 256),
                ("specVersion", ctypes.c_uint32)]


def version_string(v):
    return "%d.%d.%d" % ((v >> 22) & 0x7F, (v >> 12) & 0x3FF, v & 0xFFF)


def enumerate_props(lib, fn, struct, *args):
    """The array a vkEnumerate* function of the library fills (count, then
    the elements), or [] without the function."""
    enum = getattr(lib, fn, None)
    if enum is None:
        return []
    enum.argtypes = [type(a) for a in args] + [ctypes.POINTER(ctypes.c_uint32),
                                               ctypes.POINTER(struct)]
    enum.restype = ctypes.c_int32
    count = ctypes.c_uint32(0)
    if enum(*args, ctypes.byref(count), None) != 0:
        raise LayerError("%s failed" % fn)
    props = (struct * max(count.value, 1))()
    if enum(*args, ctypes.byref(count), props) != 0:
        raise LayerError("%s failed" % fn)
    return props[:count.value]


def layer_info(path):
    """(spec version, instance extensions) the library reports for NAME.
    The manifest must list the extensions: the loader offers only what the
    manifest names, and vkqs turns handle wrapping off through
    VK_EXT_validation_features only when the layer offers it."""
    try:
        lib = ctypes.CDLL(path)
        layers = enumerate_props(lib, "vkEnumerateInstanceLayerProperties", VkLayerProperties)
        exts = enumerate_props(lib, "vkEnumerateInstanceExtensionProperties",
                               VkExtensionProperties, ctypes.c_char_p(NAME.encode()))
    except (OSError, LayerError) as e:
        raise LayerError("%s: not a loadable layer (%s)" % (path, e))
    for p in layers:
        if p.layerName.decode() == NAME:
            return p.specVersion, [{"name": x.extensionName.decode(),
                                    "spec_version": str(x.specVersion)} for x in exts]
    raise LayerError("%s: no %s in it" % (path, NAME))


def newest(paths):
    found, errors = [], []
    for path in paths:
        if not os.path.exists(path):
            continue
        try:
            found.append((layer_info(path), path))
        except LayerError as e:
            errors.append(str(e))
    if not found:
        raise LayerError("no Khronos validation layer found (looked for %s%s); "
                         "ci/setup.sh installs chromium, whose chromium-common has one"
                         % (", ".join(paths), "; " + "; ".join(errors) if errors else ""))
    return max(found, key=lambda f: f[0][0])


def write_manifest(outdir, path, info):
    version, extensions = info
    manifest = {"file_format_version": "1.2.0",
                "layer": {"name": NAME, "type": "GLOBAL", "library_path": os.path.abspath(path),
                          "api_version": version_string(version),
                          "implementation_version": "1",
                          "instance_extensions": extensions,
                          "description": "Khronos validation layer (manifest written by "
                                         "vkqs tools/current_layer.py)"}}
    try:
        os.makedirs(outdir, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=outdir, prefix=".manifest")
    except OSError as e:
        raise LayerError("%s: %s" % (outdir, e.strerror))
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    os.replace(tmp, os.path.join(outdir, "VkLayer_khronos_validation.json"))


def main(argv):
    ap = argparse.ArgumentParser(prog="tools/current_layer.py")
    ap.add_argument("outdir")
    ap.add_argument("--library", help="this layer library instead of the newest known")
    args = ap.parse_args(argv)
    if not args.outdir:
        raise LayerError("an empty output folder")
    if os.path.exists(args.outdir) and not os.path.isdir(args.outdir):
        raise LayerError("%s: not a folder" % args.outdir)
    if args.library is not None:
        if not os.path.exists(args.library):
            raise LayerError("%s: no such file" % args.library)
        info, path = layer_info(args.library), args.library
    else:
        info, path = newest(KNOWN)
    write_manifest(args.outdir, path, info)
    print("%s %s from %s" % (NAME, version_string(info[0]), path))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except LayerError as e:
        print("current_layer.py: %s" % e, file=sys.stderr)
        sys.exit(2)
