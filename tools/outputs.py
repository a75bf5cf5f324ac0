"""Output files of the vkqs tools, written as the runner writes them
(framework/util.c vkqs_output_check, vkqs_atomic_open):

- check(path) before any work: an empty path, a folder, a missing or
  read-only folder, an unwritable device give one line (OutputError);
- write(path, text): a regular file (or a new one) is replaced atomically
  from a temporary file beside it; a symlink's target is replaced and the
  link kept; a character device, a FIFO or a path that leads into /dev or
  /proc (/dev/null, /dev/stdout) is written through, never replaced;
- same_file(a, b): whether two paths name one file (an output that is also
  an input is refused by the callers).
"""
import os
import stat
import tempfile


class OutputError(Exception):
    """An output path that cannot be written: one line for the user."""


def _target(path):
    return os.path.realpath(path)


def check(path):
    if not path:
        raise OutputError("an empty output path")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputError("cannot write %s: %s" % (path, e.strerror))
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError("cannot write %s: it is a directory" % path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not os.access(path, os.W_OK):
            raise OutputError("cannot write %s: permission denied" % path)
        return
    folder = os.path.dirname(_target(path)) or "."
    if not os.path.isdir(folder):
        raise OutputError("cannot write %s: no folder %s" % (path, folder))
    if not os.access(folder, os.W_OK):
        raise OutputError("cannot write %s: folder %s is not writable" % (path, folder))


def same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return _target(a) == _target(b)


def _system_path(path):
    """Whether path or a link on its way leads into /dev or /proc (/dev/stdout
    is /proc/self/fd/1, whatever stdout is)."""
    cur = path
    for _ in range(16):
        if cur.startswith(("/dev/", "/proc/")):
            return True
        try:
            link = os.readlink(cur)
        except OSError:
            return False
        cur = link if link.startswith("/") else os.path.join(os.path.dirname(cur), link)
    return False


def write(path, text):
    """All of text, or nothing for a regular file."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    if _system_path(path) or (st is not None and not stat.S_ISREG(st.st_mode)
                              and not stat.S_ISDIR(st.st_mode)):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    target = _target(path)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target) or ".", prefix=".vkqs-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise
