"""The ``hmac`` template (algs/hmac.py): RFC 2202 / RFC 4231 vectors, the
kernel's instance names and sizes, any key and message (in pieces, through
export/import) against Python's hmac module, hmac_create's refusals, and the
self-test manager's full tests (comparison with hmac(<hash>-generic))."""

import hashlib
import hmac

import pytest
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api import testmgr
from crypto_api.errors import EINVAL, ENOENT, ENOKEY
from crypto_api.testmgr.vectors import load_json
from shash_pieces import digest_in_pieces

HASHES = ["sha1", "sha224", "sha256", "sha384", "sha512"]
VECTORS = load_json("hmac.json")["vectors"]


def _generic(kernel_alg: str) -> str:
    return kernel_alg[:-1] + "-generic)"          # hmac(sha256) -> hmac(sha256-generic)


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: v["id"])
@pytest.mark.parametrize("which", ["generic", "best"])
def test_vectors(v, which):
    name = _generic(v["kernel_alg"]) if which == "generic" else v["kernel_alg"]
    with capi.crypto_alloc_shash(name) as h:
        h.setkey(bytes.fromhex(v["key"]))
        assert h.digest(bytes.fromhex(v["message"])).hex() == v["digest"]


@pytest.mark.parametrize("name", HASHES)
@pytest.mark.parametrize("child_name", ["{}", "{}-generic"])
def test_instance_names_and_sizes_are_the_childs(name, child_name):
    """The instance is named after the hash it spawned (an existing instance
    of the same cra_name may answer a lookup by name, as in the kernel)."""
    with capi.crypto_alloc_shash(f"hmac({child_name.format(name)})") as h:
        child = h.alg.instance.spawns[0].alg
        assert child.cra_name == name
        if child_name.endswith("-generic"):
            assert child.cra_driver_name == name + "-generic"
        assert h.alg.cra_name == f"hmac({name})"
        assert h.driver_name == f"hmac({child.cra_driver_name})"
        assert h.alg.cra_priority == child.cra_priority
        assert (h.alg.cra_blocksize, h.digestsize, h.statesize) == \
            (child.cra_blocksize, child.digestsize, child.statesize)
        assert h.alg.cra_module == "hmac"


@settings(max_examples=60, deadline=None)
@given(key=st.binary(max_size=300), msg=st.binary(max_size=600),
       cuts=st.lists(st.integers(0, 600), max_size=4), name=st.sampled_from(HASHES))
def test_any_key_and_message_match_pythons_hmac(key, msg, cuts, name):
    want = hmac.new(key, msg, name).digest()
    with capi.crypto_alloc_shash(f"hmac({name}-generic)") as h:
        h.setkey(key)
        assert h.digest(msg) == want
        assert digest_in_pieces(h, msg, cuts) == want
        assert h.desc().init().finup(msg) == want


@pytest.mark.parametrize("name", HASHES)
def test_keys_around_the_block_size(name):
    """Keys up to a block are padded, longer ones hashed first (RFC 2104)."""
    bs = hashlib.new(name).block_size
    with capi.crypto_alloc_shash(f"hmac({name}-generic)") as h:
        for n in (0, 1, bs - 1, bs, bs + 1, 2 * bs + 3, 1000):
            key = bytes((7 * i + n) & 0xff for i in range(n))
            h.setkey(key)
            assert h.digest(b"message") == hmac.new(key, b"message", name).digest(), n


@settings(max_examples=30, deadline=None)
@given(head=st.binary(max_size=300), tail=st.binary(max_size=300), name=st.sampled_from(HASHES))
def test_export_import_moves_a_computation_between_descriptors(head, tail, name):
    key = b"export-key"
    with capi.crypto_alloc_shash(f"hmac({name})") as h:
        h.setkey(key)
        state = h.desc().init().update(head).export()
        assert len(state) == h.statesize
        assert h.desc().import_(state).finup(tail) == hmac.new(key, head + tail, name).digest()


def test_a_desc_is_reusable_and_a_new_key_takes_effect():
    with capi.crypto_alloc_shash("hmac(sha512)") as h:
        h.setkey(b"one")
        d = h.desc()
        assert d.init().update(b"abc").final() == hmac.new(b"one", b"abc", "sha512").digest()
        assert d.init().update(b"abc").final() == hmac.new(b"one", b"abc", "sha512").digest()
        h.setkey(b"two")
        assert d.init().finup(b"abc") == hmac.new(b"two", b"abc", "sha512").digest()


def test_no_key_no_digest():
    with capi.crypto_alloc_shash("hmac(sha256)") as h:
        with pytest.raises(capi.CryptoError) as e:
            h.digest(b"x")
        assert e.value.errno == ENOKEY


def test_a_keyed_hash_is_refused():
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_shash("hmac(nhpoly1305)")
    assert e.value.errno == EINVAL and "nhpoly1305" in e.value.message


def test_a_digest_longer_than_the_block_is_refused(register):
    wide = capi.ShashAlg(cra_name="tmhmac-wide", cra_driver_name="tmhmac-wide-drv", cra_priority=100,
                         cra_blocksize=16, digestsize=32, descsize=8, statesize=8,
                         init=lambda d: None, update=lambda d, x: None, final=lambda d: bytes(32))
    register(wide)
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_shash("hmac(tmhmac-wide)")
    assert e.value.errno == EINVAL and "tmhmac-wide-drv" in e.value.message


def test_a_cipher_is_not_a_hash():
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_shash("hmac(aes)")
    assert e.value.errno == ENOENT


@pytest.mark.parametrize("name", HASHES)
def test_the_table_entries_and_the_full_self_tests(name, selftest_level):
    d = testmgr.find_test(f"hmac({name})")
    assert d is not None and d.test == "hash" and d.fips_allowed
    assert [v.id for v in testmgr.vectors.suite(d.suite)] == \
        [v["id"] for v in VECTORS if v["kernel_alg"] == f"hmac({name})"]
    with capi.crypto_alloc_shash(f"hmac({name})") as h:
        driver = h.driver_name
    selftest_level("full")
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()
    testmgr.set_fuzz_iterations(2)
    testmgr.set_fuzz_seed(4231)
    try:
        assert testmgr.alg_test(driver, f"hmac({name})") == 0
    finally:
        testmgr.set_fuzz_iterations(saved[0])
        testmgr.set_fuzz_seed(saved[1])


def test_list_and_proc_crypto_show_the_instances(proc_records):
    from enc_cli import cli
    p = cli(["list", "--table", "--name", "hmac*"])
    assert p.returncode == 0
    names = {line.split()[0] for line in p.stdout.decode().splitlines()[1:]}
    assert {f"hmac({h})" for h in HASHES} <= names
    with capi.crypto_alloc_shash("hmac(sha384-generic)"):
        rec = [r for r in proc_records() if r["driver"] == "hmac(sha384-generic)"]
    assert len(rec) == 1
    r = rec[0]
    assert (r["name"], r["module"], r["type"], r["blocksize"], r["digestsize"], r["priority"]) == \
        ("hmac(sha384)", "hmac", "shash", "128", "48", "100")
