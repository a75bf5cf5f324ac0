"""Output files of the vkqs tools, written as the runner writes them
(framework/util.c vkqs_output_check, vkqs_atomic_open):

- check(path) before any work: an empty path, a folder, a missing or
  read-only folder, an unwritable device give one line (OutputError);
- write(path, text): a regular file (or a new one) is replaced atomically
  from a temporary file beside it; a symlink's target is replaced and the
  link kept; a character device, a FIFO or a path that leads into /dev or
  /proc (/dev/null, /dev/stdout) is written through, never replaced;
- same_file(a, b): whether two paths name one file;
- check_all(outs, ins): the one rule every tool applies before any work
  (as framework/util.c vkqs_outputs_distinct): each output can be written
  (check), and none is an input, another output, or the file behind stdout
  or stderr (/dev/stdout into a log: the output would overwrite the log),
  compared by device and inode; /dev/null and other character devices that
  are no terminal take any number.  The temporary an output is written to
  is made (and removed) now, so a name the file system refuses is said
  before the work, not after it.
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


def _id(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st


def _sink(st, path):
    if not stat.S_ISCHR(st.st_mode):
        return False
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return True
    try:
        return not os.isatty(fd)
    finally:
        os.close(fd)


def _temp_probe(path):
    if _system_path(path):
        return
    st = _id(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        return
    target = _target(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target) or ".",
                                   prefix="." + os.path.basename(target)[:40] + ".")
    except OSError as e:
        raise OutputError("cannot write %s: a temporary file beside it: %s"
                          % (path, e.strerror))
    os.close(fd)
    os.unlink(tmp)


def check_all(outs, ins=()):
    """outs: (option, path) pairs; ins: (what, path) pairs.  OutputError
    with one line when a rule is broken; nothing is written."""
    seen = []
    for opt, out in outs:
        try:
            check(out)
            _temp_probe(out)
        except OutputError as e:
            raise OutputError("%s: %s" % (opt, e))
        st = _id(out)
        sink = st is not None and _sink(st, out)
        if st is not None and not sink:
            for what, p in ins:
                sp = _id(p) if p else None
                if sp is not None and (sp.st_dev, sp.st_ino) == (st.st_dev, st.st_ino):
                    raise OutputError("%s %s: that is %s, an input: refused, nothing was "
                                      "written" % (opt, out, what))
            for fd, name in ((1, "output"), (2, "error")):
                try:
                    sf = os.fstat(fd)
                except OSError:
                    continue
                if (sf.st_dev, sf.st_ino) == (st.st_dev, st.st_ino):
                    raise OutputError("%s %s: that is this command's standard %s, which "
                                      "carries its console lines: refused, write it to a "
                                      "file" % (opt, out, name))
        for opt2, out2 in seen:
            if sink:
                break
            if same_file(out, out2) if st is not None else _target(out) == _target(out2):
                raise OutputError("%s %s and %s %s name one file: refused"
                                  % (opt2, out2, opt, out))
        seen.append((opt, out))


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
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target) or ".",
                               prefix="." + os.path.basename(target)[:40] + ".")
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


def generated(tool, out, text, check, ins=()):
    """A generated page (docs/results.md, docs/costs.md): with check, 0 when
    out already holds text, else 1 and one line naming the tool to run;
    without, out written whole (after check_all against ins).  The exit
    status; OutputError and OSError propagate."""
    if check:
        try:
            with open(out, encoding="utf-8") as f:
                old = f.read()
        except OSError:
            old = None
        if old != text:
            print("%s: %s is stale: run tools/%s.py" % (tool, out, tool))
            return 1
        return 0
    check_all([("the output", out)], ins)
    write(out, text)
    return 0
