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
(docs/validation.md), and the instance and device extensions the library
says it provides (vkqs turns handle wrapping off through
VK_EXT_validation_features only when the layer offers it).

Without --library it takes the newest of the layers it knows of, by the
version each reports.  Prints the version and the path; exit 2 with one
line on stderr, and nothing written, if no layer loads.
"""
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


def version_string(v):
    return "%d.%d.%d" % ((v >> 22) & 0x7F, (v >> 12) & 0x3FF, v & 0xFFF)


class VkExtensionProperties(ctypes.Structure):
    _fields_ = [("extensionName", ctypes.c_char * 256),
                ("specVersion", ctypes.c_uint32)]


def load(path):
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        raise LayerError("%s: not a loadable layer (%s)" % (path, e))


def layer_extensions(path, device):
    """[{name, spec_version}] of the extensions the layer itself provides,
    instance or device, as its own vkEnumerate*ExtensionProperties with its
    layer name report them (the manifest must list them: the loader offers
    only what the manifest names, and vkqs enables VK_EXT_validation_features
    only when the layer offers it)."""
    lib = load(path)
    name = ctypes.c_char_p(NAME.encode())
    count = ctypes.c_uint32(0)
    if device:
        enum = getattr(lib, "vkEnumerateDeviceExtensionProperties", None)
        args = [ctypes.c_void_p(None), name]
        argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    else:
        enum = getattr(lib, "vkEnumerateInstanceExtensionProperties", None)
        args = [name]
        argtypes = [ctypes.c_char_p]
    if enum is None:
        return []
    enum.argtypes = argtypes + [ctypes.POINTER(ctypes.c_uint32),
                                ctypes.POINTER(VkExtensionProperties)]
    enum.restype = ctypes.c_int32
    if enum(*args, ctypes.byref(count), None) != 0:
        raise LayerError("%s: its extensions cannot be enumerated" % path)
    props = (VkExtensionProperties * max(count.value, 1))()
    if enum(*args, ctypes.byref(count), props) != 0:
        raise LayerError("%s: its extensions cannot be enumerated" % path)
    return [{"name": p.extensionName.decode(), "spec_version": str(p.specVersion)}
            for p in props[:count.value]]


def layer_version(path):
    """The spec version the library reports for NAME, as an int."""
    lib = load(path)
    enum = getattr(lib, "vkEnumerateInstanceLayerProperties", None)
    if enum is None:
        raise LayerError("%s: not a loadable layer (no vkEnumerateInstanceLayerProperties)"
                         % path)
    enum.argtypes = [ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(VkLayerProperties)]
    enum.restype = ctypes.c_int32
    count = ctypes.c_uint32(0)
    if enum(ctypes.byref(count), None) != 0 or count.value == 0:
        raise LayerError("%s: vkEnumerateInstanceLayerProperties reports no layer" % path)
    props = (VkLayerProperties * count.value)()
    if enum(ctypes.byref(count), props) != 0:
        raise LayerError("%s: vkEnumerateInstanceLayerProperties failed" % path)
    for p in props[:count.value]:
        if p.layerName.decode() == NAME:
            return p.specVersion
    raise LayerError("%s: no %s in it" % (path, NAME))


def newest(paths):
    found, errors = [], []
    for path in paths:
        if not os.path.exists(path):
            continue
        try:
            found.append((layer_version(path), path))
        except LayerError as e:
            errors.append(str(e))
    if not found:
        raise LayerError("no Khronos validation layer found (looked for %s%s); "
                         "ci/setup.sh installs chromium, whose chromium-common has one"
                         % (", ".join(paths), "; " + "; ".join(errors) if errors else ""))
    return max(found)


def write_manifest(outdir, path, version):
    manifest = {"file_format_version": "1.2.0",
                "layer": {"name": NAME, "type": "GLOBAL", "library_path": os.path.abspath(path),
                          "api_version": version_string(version),
                          "implementation_version": "1",
                          "instance_extensions": layer_extensions(path, False),
                          "device_extensions": layer_extensions(path, True),
                          "description": "Khronos validation layer (manifest written by "
                                         "vkqs tools/current_layer.py)"}}
    os.makedirs(outdir, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=outdir, prefix=".manifest")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    os.replace(tmp, os.path.join(outdir, "VkLayer_khronos_validation.json"))


def main(argv):
    args = list(argv)
    library = None
    if "--library" in args:
        i = args.index("--library")
        if i + 1 >= len(args):
            raise LayerError("--library needs a path")
        library = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1 or args[0].startswith("-"):
        raise LayerError("usage: tools/current_layer.py OUTDIR [--library PATH]")
    if library is not None:
        if not os.path.exists(library):
            raise LayerError("%s: no such file" % library)
        version, path = layer_version(library), library
    else:
        version, path = newest(KNOWN)
    write_manifest(args[0], path, version)
    print("%s %s from %s" % (NAME, version_string(version), path))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except LayerError as e:
        print("current_layer.py: %s" % e, file=sys.stderr)
        sys.exit(2)
