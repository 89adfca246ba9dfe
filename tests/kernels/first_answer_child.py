"""Child process of test_first_answer.py: the first and second allocation of
each name given, each name in its own fresh registry.

Run as ``python first_answer_child.py VERSION NAME...`` (VERSION ``composite``:
the composite registry, no version table) (the machine chosen by
CRYPTO_API_ARCH, the CPU by CRYPTO_API_CPU).  crypto_api is imported once;
each name is then allocated in a forked process that boots VERSION and has
loaded no module yet, as a fresh process would.  Prints one JSON object:
name -> {"first": driver, "second": driver, "loaded": the modules loaded by
the first allocation, "registered": {driver: priority} of that cra_name once
every module is loaded}, or name -> "error text".
"""

import json
import os
import sys

import crypto_api as capi

#: how each kind of name is allocated: by the type of its self-test entry
#: (testmgr's table names every algorithm that has more than one driver here)
ALLOCATORS = {"cipher": capi.crypto_alloc_cipher, "hash": capi.crypto_alloc_shash,
              "aead": capi.crypto_alloc_aead, "skcipher": capi.crypto_alloc_skcipher}


def alloc(name):
    from crypto_api.testmgr.descs import ALG_TEST_DESCS
    kinds = {d.alg: d.test for d in ALG_TEST_DESCS}
    kind = kinds.get(name, "cipher" if "(" not in name else "skcipher")
    if kind == "cipher" and "(" in name:       # ecb(aria): tested with block vectors, an skcipher
        kind = "skcipher"
    return ALLOCATORS[kind](name)


def one(version, name):
    capi.boot(kernel=version)           # "composite": no version table
    first = alloc(name).alg.cra_driver_name
    loaded = capi.modules.loaded_modules()
    second = alloc(name).alg.cra_driver_name
    capi.load_all()
    registered = {a.cra_driver_name: a.cra_priority for a in capi.registry.snapshot()
                  if a.cra_name == name and not a.is_larval and a.instance is None}
    return {"first": first, "second": second, "loaded": loaded, "registered": registered}


def main(version, names):
    out = {}
    for name in names:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                answer = one(version, name)
            except Exception as e:      # reported to the parent, not raised
                answer = f"{type(e).__name__}: {e}"
            os.write(w, json.dumps(answer).encode())
            os._exit(0)
        os.close(w)
        with os.fdopen(r) as f:
            data = f.read()
        os.waitpid(pid, 0)
        out[name] = json.loads(data) if data else "no answer"
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
