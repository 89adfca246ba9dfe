"""hctr2 across 6.18 and 6.19 (crypto/hctr2.c): 6.19 hashes with the POLYVAL
library, so the instance's driver name says ``polyval-lib``, its priority is
(2·xctr + blockcipher) / 3, and ``hctr2_base`` takes only ``polyval`` or
``polyval-lib`` as its hash; the ciphertext is the same in both versions.
Each version in a fresh process (x86_64)."""

import json
import os
import subprocess
import sys

CHILD = r"""
import json, sys
import crypto_api
from crypto_api.errors import CryptoError
crypto_api.boot(kernel=sys.argv[1], arch="x86_64")
tfm = crypto_api.crypto_alloc_skcipher("hctr2(aes)")
tfm.setkey(bytes(range(32)))
ct = tfm.encrypt(bytes(range(100)), iv=bytes(range(32, 64)))
parts = {}
for name, alloc in (("xctr(aes)", crypto_api.crypto_alloc_skcipher), ("aes", crypto_api.crypto_alloc_cipher),
                    ("polyval", crypto_api.crypto_alloc_shash)):
    t = alloc(name)
    parts[name] = t.driver_name, t.alg.cra_priority
explicit = {}
for hash_name in ("polyval-generic", "polyval-lib", "polyval"):
    try:
        t = crypto_api.crypto_alloc_skcipher(f"hctr2_base(xctr(aes-generic),{hash_name})")
        explicit[hash_name] = t.driver_name
    except CryptoError as e:
        explicit[hash_name] = -e.errno
print(json.dumps({"driver": tfm.driver_name, "priority": tfm.alg.cra_priority, "ct": ct.hex(),
                  "parts": parts, "explicit": explicit}))
"""


def run(version):
    env = {k: v for k, v in os.environ.items() if k not in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU")}
    out = subprocess.run([sys.executable, "-c", CHILD, version], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_hctr2_in_6_18_and_6_19():
    old, new = run("6.18"), run("6.19")
    assert old["ct"] == new["ct"]
    # 6.18: hctr2_base(<xctr>,<polyval shash>), (2·xctr + 4·polyval + blockcipher) / 7
    xctr, xprio = old["parts"]["xctr(aes)"]
    _, bprio = old["parts"]["aes"]
    assert old["driver"].startswith(f"hctr2_base({xctr},polyval-")
    assert not old["driver"].endswith(",polyval-lib)")
    assert old["priority"] == (2 * xprio + 4 * old["parts"]["polyval"][1] + bprio) // 7
    # 6.19: the library
    xctr19, xprio19 = new["parts"]["xctr(aes)"]
    _, bprio19 = new["parts"]["aes"]
    assert new["driver"] == f"hctr2_base({xctr19},polyval-lib)"
    assert new["priority"] == (2 * xprio19 + bprio19) // 3
    # the explicit form: any polyval driver in 6.18; only the two library names in 6.19
    assert old["explicit"]["polyval-generic"] == "hctr2_base(xctr(aes-generic),polyval-generic)"
    assert new["explicit"]["polyval-generic"] == -2            # ENOENT
    assert new["explicit"]["polyval-lib"] == "hctr2_base(xctr(aes-generic),polyval-lib)"
    assert new["explicit"]["polyval"] == "hctr2_base(xctr(aes-generic),polyval-lib)"
