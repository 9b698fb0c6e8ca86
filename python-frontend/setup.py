"""Builds the paracc Python package, bundling paracc's C library.

At build time libparacc-c.so is copied into the package as
paracc/_lib/libparacc-c.so, from:
  1. $PARACC_LIBRARY (a path to libparacc-c.so), if set;
  2. else ../build/lib/libparacc-c.so* next to this file (the repository's
     CMake build; the real file behind the symlinks is copied).
If neither exists the package builds without it and paracc looks the library
up when first used ($PARACC_LIBRARY, then ctypes.util.find_library).

The repository is found from this file's own path: pip (>= 21.3) builds a
local directory in place, so that path is the checkout's python-frontend/.
"""

import os
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
LIBRARY = "libparacc-c.so"


def find_library():
    """(path to copy, where it was found) or (None, why not)."""
    env = os.environ.get("PARACC_LIBRARY")
    if env:
        path = Path(env)
        if not path.is_file():
            return None, f"PARACC_LIBRARY={env} is not a file"
        return path.resolve(), "PARACC_LIBRARY"
    build = HERE.parent / "build" / "lib"
    if (build / LIBRARY).exists():
        return (build / LIBRARY).resolve(), str(build)
    # Only the versioned names (libparacc-c.so.1, .so.0.1.0): the real file.
    files = sorted((p for p in build.glob(LIBRARY + ".*")
                    if p.is_file() and not p.is_symlink()),
                   key=lambda p: len(p.name), reverse=True)
    if files:
        return files[0].resolve(), str(build)
    return None, f"no PARACC_LIBRARY and no {build / LIBRARY}*"


class BuildWithLibrary(build_py):
    """build_py that adds paracc/_lib/libparacc-c.so to the build."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            self.link_for_editable_install()
            return
        source, origin = find_library()
        target = Path(self.build_lib) / "paracc" / "_lib" / LIBRARY
        if target.exists():  # from an earlier build in the same folder
            target.unlink()
        if source is None:
            print(f"setup.py: warning: not bundling {LIBRARY} ({origin}); "
                  "paracc will look for it at run time (set PARACC_LIBRARY)",
                  file=sys.stderr)
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)  # follows symlinks: the real file
        os.chmod(target, 0o755)
        print(f"setup.py: bundling {source} (from {origin}) as {target}",
              file=sys.stderr)

    def link_for_editable_install(self):
        """pip install -e: the package is this folder, so its _lib/ gets a
        symlink to the library (a rebuilt library is then used as it is)."""
        env = os.environ.get("PARACC_LIBRARY")
        source = Path(env) if env else HERE.parent / "build" / "lib" / LIBRARY
        link = HERE / "paracc" / "_lib" / LIBRARY
        if link.is_symlink() or link.exists():
            link.unlink()
        if not source.exists():
            print(f"setup.py: warning: no {source} to link for an editable "
                  "install; set PARACC_LIBRARY at run time", file=sys.stderr)
            return
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(source.absolute())
        print(f"setup.py: linked {link} -> {source.absolute()}",
              file=sys.stderr)

    def get_outputs(self, include_bytecode=True):
        outputs = super().get_outputs(include_bytecode)
        target = Path(self.build_lib) / "paracc" / "_lib" / LIBRARY
        if target.exists():
            outputs.append(str(target))
        return outputs


cmdclass = {"build_py": BuildWithLibrary}

# A wheel holding the library is for this platform (any Python 3: the
# library is loaded with ctypes, nothing is compiled against Python).
try:
    try:
        from setuptools.command.bdist_wheel import bdist_wheel
    except ImportError:  # setuptools < 70.1
        from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = find_library()[0] is None

        def get_tag(self):
            python, abi, plat = super().get_tag()
            if not self.root_is_pure:
                python, abi = "py3", "none"
            return python, abi, plat

    cmdclass["bdist_wheel"] = PlatformWheel
except ImportError:
    pass

setup(cmdclass=cmdclass)
