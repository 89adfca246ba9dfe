"""Every kept fuzz input, replayed through its target's check (no atheris).

The corpora in tests/fuzz/corpus/<target>/ hold the inputs ``make fuzz``
starts from, among them each finding's input, so a finding stays a
regression test of ``make test``; under ``make test-asan`` the same replay
runs with the sanitizers.
"""

import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from targets import NAMES, corpus_files  # noqa: E402


HERE = os.path.dirname(os.path.abspath(__file__))

#: run in a child interpreter: the targets allocate transforms and template
#: instances for the process, which the tests after these must not inherit
REPLAY = r"""
import sys
sys.path[:0] = sys.argv[2:]
from targets import check_function, corpus_files
check = check_function(sys.argv[1])
for path in corpus_files(sys.argv[1]):
    with open(path, "rb") as f:
        data = f.read()
    try:
        check(data)
    except Exception as e:
        sys.exit(f"{path}: {type(e).__name__}: {e}\nreplay: python tests/fuzz/run.py --replay {path} {sys.argv[1]}")
print(len(corpus_files(sys.argv[1])))
"""


@pytest.mark.parametrize("name", NAMES)
def test_every_target_keeps_a_corpus(name):
    assert len(corpus_files(name)) >= 5, f"tests/fuzz/corpus/{name}/ holds too few inputs"


@pytest.mark.parametrize("name", NAMES)
def test_the_corpus_replays_without_a_finding(name):
    r = subprocess.run([sys.executable, "-c", REPLAY, name, HERE, os.path.dirname(HERE)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    assert int(r.stdout.split()[-1]) == len(corpus_files(name))


def test_the_targets_are_deterministic():
    """The same input decodes to the same case: a replayed finding is the finding."""
    from fuzz_input import FuzzInput
    data = bytes(range(200))
    a, b = FuzzInput(data), FuzzInput(data)
    assert [a.length(5000), a.blob(70), a.uint(9)] == [b.length(5000), b.blob(70), b.uint(9)]
    assert FuzzInput(b"").blob(5) == FuzzInput(b"").blob(5)


def test_the_skcipher_target_reaches_the_aria_simd_drivers():
    """Allocated by driver name alone, the ARIA SIMD drivers are not found (their
    module loads through its crypto-aria-* aliases): the target requests the
    modules first.  In a fresh interpreter, where nothing else loaded them."""
    code = ("import sys; sys.path[:0] = sys.argv[1:]\n"
            "import crypto_api as capi\n"
            "from crypto_api.arch.x86.aria_glue import ymm_usable\n"
            "from crypto_api.arch.x86.cpufeature import boot_cpu_has\n"
            "from fuzz_input import FuzzInput\n"
            "from pairs import SKCIPHERS, pick\n"
            "i = [d for _, d in SKCIPHERS].index('ecb-aria-avx')\n"
            "got = pick(FuzzInput(bytes([i])), SKCIPHERS, capi.crypto_alloc_skcipher)\n"
            "usable = boot_cpu_has('avx') and boot_cpu_has('aes') and ymm_usable()\n"
            "print(usable, got is not None and got[3].driver_name)\n")
    r = subprocess.run([sys.executable, "-c", code, HERE, os.path.dirname(HERE)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    usable, driver = r.stdout.split()
    if usable != "True":
        pytest.skip("the CPU lacks AVX or AES-NI, or the OS YMM state")
    assert driver == "ecb-aria-avx"


def test_the_aead_corpus_reaches_rfc4543_on_every_gcm_driver_here():
    """rfc4543(gcm(aes)) is fuzzed against its generic form like rfc4106: for
    every rfc4543 pair both of whose sides this machine allocates, some kept
    input gets through setkey, setauthsize and the one-call comparison to the
    request-path comparison.  In a fresh interpreter."""
    code = ("import sys; sys.path[:0] = sys.argv[1:]\n"
            "import crypto_api as capi\n"
            "import pairs, target_aead\n"
            "from targets import corpus_files\n"
            "seen = set()\n"
            "orig = target_aead.same_outcome\n"
            "def spy(what, ref, drv):\n"
            "    got = orig(what, ref, drv)\n"
            "    if what.endswith('(request)') and got is not None:\n"
            "        seen.add(what.split()[0])\n"
            "    return got\n"
            "target_aead.same_outcome = spy\n"
            "for path in corpus_files('aead'):\n"
            "    target_aead.check(open(path, 'rb').read())\n"
            "want = [d for r, d in pairs.AEADS if d.startswith('rfc4543(')\n"
            "        and None not in (pairs.cached(n, capi.crypto_alloc_aead) for n in (r, d))]\n"
            "print(len(want), sorted(set(want) - seen))\n")
    r = subprocess.run([sys.executable, "-c", code, HERE, os.path.dirname(HERE)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    count, missing = r.stdout.strip().splitlines()[-1].split(" ", 1)
    if count == "0":
        pytest.skip("no x86 GCM driver on this machine")
    assert missing == "[]"
