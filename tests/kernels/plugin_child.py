"""Child process of test_plugin_across_versions.py: boot a kernel version,
insmod a plug-in at a self-test level and report what its self-test found.

Run as ``python plugin_child.py VERSION LEVEL PLUGIN_PATH DRIVER``.  Prints
one JSON object: the driver's /proc/crypto ``selftest`` field, the warning
lines the self-test logged, and the driver that ``xchacha12`` resolves to.
"""

import json
import logging
import sys

import crypto_api as capi
from crypto_api import testmgr


class Warnings(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def main(version, level, path, driver):
    capi.boot(kernel=version)
    testmgr.set_level(level)
    testmgr.set_fuzz_iterations(4)
    testmgr.set_fuzz_seed(1)
    seen = Warnings()
    logging.getLogger("crypto_api").addHandler(seen)
    capi.insmod(path)
    record = capi.proc_crypto().split(f"driver       : {driver}\n", 1)[1].split("\n\n", 1)[0]
    selftest = next(line.split(":", 1)[1].strip() for line in record.splitlines() if line.startswith("selftest"))
    # the modules that provide xchacha12 loaded (a lookup that meets only a failed
    # driver answers ELIBBAD without loading any)
    capi.request_module("crypto-xchacha12")
    tfm = capi.crypto_alloc_skcipher("xchacha12")
    json.dump({"selftest": selftest, "warnings": seen.lines, "resolves": tfm.alg.cra_driver_name}, sys.stdout)


if __name__ == "__main__":
    main(*sys.argv[1:])
