"""Child process of test_testmgr_versions.py: boot a kernel version and, for
each testmgr entry, say whether that version has it and allocate the generic
driver its full tests compare with.

Run as ``python testmgr_child.py VERSION`` (machine from CRYPTO_API_ARCH).
Prints one JSON object: entry -> null (absent in that version), "" (no
comparison in that version) or [generic driver name, the driver allocated
by that name or the error text].
"""

import json
import sys

import crypto_api as capi
from crypto_api.testmgr.descs import ALG_TEST_DESCS, find_test, generic_driver_name

ALLOC = {"skcipher": capi.crypto_alloc_skcipher, "hash": capi.crypto_alloc_shash,
         "cipher": capi.crypto_alloc_cipher, "aead": capi.crypto_alloc_aead}


def main(version):
    capi.boot(kernel=version)
    out = {}
    for d in ALG_TEST_DESCS:
        if find_test(d.alg) is None:
            out[d.alg] = None
            continue
        generic = generic_driver_name(d.alg, d)
        if not generic:
            out[d.alg] = ""
            continue
        # a cipher's entry is ecb(<alg>): testmgr tests the cipher itself
        name = generic[4:-1] if d.test == "cipher" and generic.startswith("ecb(") else generic
        try:
            out[d.alg] = [generic, ALLOC[d.test](name).alg.cra_driver_name]
        except capi.CryptoError as e:
            out[d.alg] = [generic, str(e)]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
