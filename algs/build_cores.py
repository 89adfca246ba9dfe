"""cffi build script of every host core (algs/cores.py, arch/x86/cores.py):
one attribute per core with a module, each a function that returns that
core's builder (algs/build_common.py's ``builder``), which setup.py's
``cffi_modules`` name (``algs/build_cores.py:<core>``).

``python algs/build_cores.py [outdir [core ...]]`` builds the named cores
(default: all) into outdir, never into the source tree.  No kernel
counterpart: the role of the kernel's Makefile rules."""

import functools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import builder, main, module_cores  # noqa: E402

for _name in module_cores():
    globals()[_name] = functools.partial(builder, _name)

if __name__ == "__main__":
    main()
