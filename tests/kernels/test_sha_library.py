"""The 6.17+ SHA-2 shashes wrap the library, whose x86 code runs a section per batch.

Each case boots a version in a fresh process (sha_library_child.py) and feeds
one message in pieces.  The digests are checked against hashlib; the FPU
sections against a model of the library written here from its rule (the
block that completes a buffered one, the whole blocks of an update, each
padding block: one batch each), and the library's code against the CPU's
best (the order of the 5.x drivers' priorities).  6.12 is the contrast: its
x86 drivers open one section per update and honour the self-test manager's
SIMD switch, which the library does not.
"""

import hashlib
import json
import os
import subprocess
import sys

import pytest

from crypto_api.arch.x86 import sha256_ssse3_glue, sha512_ssse3_glue
from crypto_api.machine import current_machine

CHILD = os.path.join(os.path.dirname(__file__), "sha_library_child.py")
LENGTH_FIELD = {64: 8, 128: 16}

pytestmark = pytest.mark.skipif(current_machine().arch != "x86_64" or current_machine().emulated,
                                reason="the x86 SHA-2 library code runs on an x86-64 host")


def boot(version):
    env = dict(os.environ, CRYPTO_API_SELFTESTS="off")
    for k in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU"):
        env.pop(k, None)
    out = subprocess.run([sys.executable, CHILD, version], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def library_batches(pieces, block):
    """The bytes of each batch the library compresses for these updates and the final."""
    out, partial = [], 0
    for n in pieces:
        if partial + n < block:
            partial += n
            continue
        if partial:
            out.append(block)
            n -= block - partial
        if n >= block:
            out.append(n // block * block)
        partial = n % block
    out += [block] * (2 if partial + 1 > block - LENGTH_FIELD[block] else 1)
    return out


def updates_that_compress(pieces, block):
    count, partial = 0, 0
    for n in pieces:
        count += partial + n >= block
        partial = (partial + n) % block
    return count


def best(variants):
    return max(variants, key=lambda v: v[1])[0] if variants else None


@pytest.fixture(scope="module")
def v618():
    return boot("6.18")


@pytest.mark.parametrize("name", ["sha224", "sha256", "sha384", "sha512"])
def test_the_lib_drivers_hash_as_hashlib_in_any_context(v618, name):
    got = v618[name]
    msg = bytes.fromhex(got["message"])
    want = hashlib.new(name, msg).hexdigest()
    assert got["driver"] == f"{name}-lib"
    assert got["digest"] == got["whole"] == got["irq"] == got["nosimd"] == want
    assert sum(got["pieces"]) == len(msg)


@pytest.mark.parametrize("name", ["sha224", "sha256", "sha384", "sha512"])
def test_a_section_per_batch_and_none_without_library_code(v618, name):
    got = v618[name]
    size = "sha256" if name in ("sha224", "sha256") else "sha512"
    if v618["library"][size] is None:
        assert got["sections"] == [] and got["nosimd_sections"] == []
        return
    batches = library_batches(got["pieces"], got["blocksize"])
    assert got["sections"] == batches and len(batches) > len(got["pieces"])
    assert got["nosimd_sections"] == batches        # irq_fpu_usable(): not the self-test switch


def test_the_library_code_is_the_cpus_best(v618):
    variants = {"sha256": [(s, p) for s, p, _fn in sha256_ssse3_glue.usable_variants()],
                "sha512": sha512_ssse3_glue.usable_variants()}
    for size, usable in variants.items():
        code = best(usable)
        assert v618["library"][size] == (f"{size}-{code}" if code else None)


def test_6_12_keeps_the_drivers_and_their_rule():
    got = boot("6.12")
    usable = {"sha256": [(s, p) for s, p, _fn in sha256_ssse3_glue.usable_variants()],
              "sha512": sha512_ssse3_glue.usable_variants()}
    for name in ("sha256", "sha512"):
        code = best(usable[name])
        msg = bytes.fromhex(got[name]["message"])
        assert got[name]["digest"] == got[name]["nosimd"] == hashlib.new(name, msg).hexdigest()
        if code is None:
            continue
        assert got[name]["driver"] == f"{name}-{code}"
        # the glue's rule: one section per update that compresses, one for the final; none with
        # the self-test manager's SIMD switch off
        assert len(got[name]["sections"]) == updates_that_compress(got[name]["pieces"],
                                                                   got[name]["blocksize"]) + 1
        assert got[name]["nosimd_sections"] == []
