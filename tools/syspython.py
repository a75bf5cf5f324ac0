"""The Debian packages ci/setup.sh installs (python3-scipy, python3-jinja2)
live in the system's python3.  A program started by another python3 on the
PATH (a pyenv one, say) that needs one of them runs itself again under
/usr/bin/python3 when that one has it."""
import os
import subprocess
import sys

SYSTEM = "/usr/bin/python3"
MARK = "VKQS_SYSTEM_PYTHON"


def has(module, python=None):
    """Whether `python` (this interpreter when None) imports `module`."""
    if python is None:
        try:
            __import__(module)
            return True
        except ImportError:
            return False
    return subprocess.run([python, "-c", "import " + module], capture_output=True).returncode == 0


def reexec_for(module):
    """Runs the program again under the system's python3 when this
    interpreter lacks `module` and that one has it; else returns."""
    if has(module) or os.environ.get(MARK) or not os.path.exists(SYSTEM):
        return
    if os.path.realpath(sys.executable) == os.path.realpath(SYSTEM) or not has(module, SYSTEM):
        return
    os.environ[MARK] = "1"
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(SYSTEM, [SYSTEM, os.path.abspath(sys.argv[0])] + sys.argv[1:])
