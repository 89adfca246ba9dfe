"""The AES-NI mode drivers as 6.16+ registers them (the kernel-version
table's rule ``aesni.modes_wrapping``): directly, synchronous, not internal,
no SIMD wrapper and no cryptd; up to 6.15 each is the SIMD wrapper over its
internal ``__`` twin.

Checked in a fresh process per version: the flags of every aesni_intel mode
driver and the presence of its twin; a request where SIMD is unusable runs
at once in the caller's context (one FPU section, the output equal to
`cryptography`'s AES-XTS) in 6.18, and is queued to cryptd (-EINPROGRESS) in
6.12; the self-tests of the directly registered drivers pass.
"""
import json
import os
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from crypto_api.arch.x86 import _cpufeatures

pytestmark = pytest.mark.skipif(not _cpufeatures.lib.cpu_has(b"aes"), reason="CPU lacks AES-NI")

PROBE = r"""
import json, sys, crypto_api as capi
from crypto_api import registry
capi.boot(kernel=sys.argv[1])
capi.load_all()
algs = {a.cra_driver_name: [a.cra_name, a.cra_flags]
        for a in registry.snapshot()
        if not a.is_larval and a.instance is None and a.cra_module == "aesni_intel"
        and a.cra_name.lstrip("_").split("(")[0] in ("ecb", "cbc", "ctr", "xts", "xctr")}
with capi.crypto_alloc_skcipher("xts-aes-aesni") as t:
    t.setkey(bytes(range(64)))
    buf = bytearray(range(64))
    sg = capi.sg_init_one(buf)
    req = capi.skcipher_request_alloc(t)
    capi.skcipher_request_set_crypt(req, sg, sg, 64, bytearray(16))
    with capi.simd_disabled(), capi.fpu_trace() as tr:
        rc = capi.crypto_skcipher_encrypt(req)
    print(json.dumps({"algs": algs, "rc": rc, "sections": len(tr.sections), "ct": bytes(buf).hex(),
                      "proc": capi.proc_crypto()}))
"""


def probe(version):
    env = dict(os.environ, CRYPTO_API_SELFTESTS="fast")
    env.pop("CRYPTO_API_KERNEL", None)
    out = subprocess.run([sys.executable, "-c", PROBE, version], env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("version, direct", [("6.12", False), ("6.18", True), ("6.19", True)])
def test_forms(version, direct):
    from crypto_api import CRYPTO_ALG_ASYNC, CRYPTO_ALG_INTERNAL
    r = probe(version)
    public = {d: v for d, v in r["algs"].items() if not d.startswith("__")}
    internal = {d for d in r["algs"] if d.startswith("__")}
    assert {"ecb-aes-aesni", "cbc-aes-aesni", "ctr-aes-aesni", "xts-aes-aesni"} <= set(public)
    for d, (name, flags) in public.items():
        assert not flags & CRYPTO_ALG_INTERNAL
        assert bool(flags & CRYPTO_ALG_ASYNC) == (not direct), d
    assert internal == (set() if direct else {"__" + d for d in public})
    ref = Cipher(algorithms.AES(bytes(range(64))), modes.XTS(bytes(16))).encryptor().update(bytes(range(64)))
    if direct:
        assert (r["rc"], r["sections"], r["ct"]) == (0, 1, ref.hex())
        for d in public:                                    # each passed its self-tests at registration
            record = r["proc"].split(f"driver       : {d}\n", 1)[1].split("\n\n", 1)[0]
            assert "selftest     : passed" in record and "internal     : no" in record
    else:
        assert r["rc"] == -115 and r["sections"] == 0       # -EINPROGRESS: queued to cryptd
