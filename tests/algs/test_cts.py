"""The ``cts`` template (algs/cts.py) over the best ``cbc(aes)`` and over
aes-generic (``cts(cbc(aes))`` itself is x86's cts-cbc-aes-aesni from 5.12,
tests/arch/test_aesni_cts.py): the RFC 3962
vectors both ways (and the IV the kernel leaves), names and sizes from the
child, any length against a CBC-CS3 built from ``cryptography``'s AES
(tests/modes_ref.py), one block = plain CBC, short requests and children
that are not CBC refused, and the self-test manager's full tests."""

import pytest
from cryptography.hazmat.primitives.ciphers import modes
from hypothesis import given, settings, strategies as st

import crypto_api as capi
from crypto_api import testmgr
from crypto_api.errors import EINVAL
from crypto_api.testmgr.vectors import load_json
from modes_ref import aes, cts_cbc

VECTORS = load_json("cts-aes-cbc.json")["vectors"]
NAMES = ["best", "cts(cbc(aes-generic))"]


def template(name="best"):
    """``cts(<the best cbc(aes) driver>)`` for "best": the template instance, not a driver of
    cra_name cts(cbc(aes)) (which a lookup of that name would find first)."""
    if name != "best":
        return name
    with capi.crypto_alloc_skcipher("cbc(aes)") as cbc:
        return f"cts({cbc.driver_name})"


def crypt_request(tfm, data, iv, encrypt):
    """One request in place; (output, the IV the request leaves)."""
    buf, ivbuf = bytearray(data), bytearray(iv)
    req = capi.skcipher_request_alloc(tfm)
    capi.skcipher_request_set_crypt(req, capi.sg_init_one(buf), capi.sg_init_one(buf), len(buf), ivbuf)
    (capi.crypto_skcipher_encrypt if encrypt else capi.crypto_skcipher_decrypt)(req)
    return bytes(buf), bytes(ivbuf)


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: v["id"])
@pytest.mark.parametrize("name", NAMES)
def test_rfc3962_vectors_both_ways(v, name):
    key, iv, p, c = (bytes.fromhex(v[f]) for f in ("key", "iv", "plaintext", "ciphertext"))
    with capi.crypto_alloc_skcipher(template(name)) as t:
        t.setkey(key)
        assert t.encrypt(p, iv) == c and t.decrypt(c, iv) == p
        assert crypt_request(t, p, iv, True) == (c, bytes.fromhex(v["iv_out"]))


@pytest.mark.parametrize("name", NAMES)
def test_names_and_sizes_are_the_childs(name):
    with capi.crypto_alloc_skcipher(template(name)) as t:
        child = t.alg.instance.spawns[0].alg
        assert child.cra_name == "cbc(aes)"
        assert t.alg.cra_name == "cts(cbc(aes))"
        assert t.driver_name == f"cts({child.cra_driver_name})"
        assert t.alg.cra_priority == child.cra_priority
        assert (t.alg.cra_blocksize, t.ivsize, t.min_keysize, t.max_keysize, t.chunksize) == \
            (16, 16, child.min_keysize, child.max_keysize, child.chunksize)
        assert t.alg.cra_module == "cts"


@settings(max_examples=60, deadline=None)
@given(key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       iv=st.binary(min_size=16, max_size=16), data=st.binary(min_size=16, max_size=600),
       name=st.sampled_from(NAMES))
def test_any_length_matches_the_independent_cs3(key, iv, data, name):
    want = cts_cbc(key, iv, data)
    with capi.crypto_alloc_skcipher(template(name)) as t:
        t.setkey(key)
        assert t.encrypt(data, iv) == want
        assert t.decrypt(want, iv) == data
        assert cts_cbc(key, iv, want, encrypt=False) == data


@pytest.mark.parametrize("n", [32, 33, 47, 48, 49, 100])
def test_the_iv_left_after_decryption_is_the_block_before_the_last_two(n):
    """The kernel's CBC sub-request over all but the last two blocks leaves its
    last ciphertext block in req->iv (the IV itself when there is none)."""
    key, iv = bytes(range(16)), bytes(range(100, 116))
    data = bytes(range(n))
    with capi.crypto_alloc_skcipher(template()) as t:
        t.setkey(key)
        c = t.encrypt(data, iv)
        m = (n - 1) // 16 * 16
        p, iv_out = crypt_request(t, c, iv, False)
        assert p == data
        assert iv_out == (c[m - 32:m - 16] if m > 16 else iv)


def test_one_block_is_plain_cbc():
    key, iv, block = bytes(16), bytes(range(16)), b"sixteen bytes!!!"
    want = aes(key, modes.CBC(iv), block)
    with capi.crypto_alloc_skcipher(template()) as t:
        t.setkey(key)
        assert crypt_request(t, block, iv, True) == (want, want)
        assert crypt_request(t, want, iv, False) == (block, want)


@pytest.mark.parametrize("n", [0, 1, 15])
def test_less_than_a_block_is_einval(n):
    with capi.crypto_alloc_skcipher(template()) as t:
        t.setkey(bytes(16))
        for op in (t.encrypt, t.decrypt):
            with pytest.raises(capi.CryptoError) as e:
                op(bytes(n), bytes(16))
            assert e.value.errno == EINVAL and "cts(" in e.value.message


@pytest.mark.parametrize("inner", ["ecb(aes)", "ctr(aes)", "xts(aes)"])
def test_a_child_that_is_not_cbc_is_refused(inner):
    with pytest.raises(capi.CryptoError) as e:
        capi.crypto_alloc_skcipher(f"cts({inner})")
    assert e.value.errno == EINVAL and "cts" in e.value.message


def test_a_wrong_key_size_is_the_childs_refusal():
    with capi.crypto_alloc_skcipher(template()) as t:
        with pytest.raises(capi.CryptoError) as e:
            t.setkey(bytes(17))
        assert e.value.errno == EINVAL


def test_the_table_entry_and_the_full_self_tests(selftest_level):
    d = testmgr.find_test("cts(cbc(aes))")
    assert d is not None and d.test == "skcipher" and d.fips_allowed
    assert [v.id for v in testmgr.vectors.suite(d.suite)] == [v["id"] for v in VECTORS]
    with capi.crypto_alloc_skcipher(template()) as t:
        driver = t.driver_name
    selftest_level("full")
    saved = testmgr.get_fuzz_iterations(), testmgr.get_fuzz_seed()
    testmgr.set_fuzz_iterations(2)
    testmgr.set_fuzz_seed(3962)
    try:
        assert testmgr.alg_test(driver, "cts(cbc(aes))") == 0
    finally:
        testmgr.set_fuzz_iterations(saved[0])
        testmgr.set_fuzz_seed(saved[1])


def test_enc_and_dec_take_any_length_of_at_least_a_block(tmp_path):
    from enc_cli import assert_one_line_error, cli
    key, iv = bytes(range(32)), bytes(range(16))
    (tmp_path / "key").write_bytes(key)
    args = ["-c", "cts(cbc(aes))", "--key-file", str(tmp_path / "key"), "--iv", iv.hex()]
    for n in (16, 17, 1000):
        data = bytes((i * 13) & 0xff for i in range(n))
        p = cli(["enc", *args], input=data)
        assert p.returncode == 0, p.stderr
        assert p.stdout == cts_cbc(key, iv, data)
        q = cli(["dec", *args], input=p.stdout)
        assert q.returncode == 0 and q.stdout == data
    assert_one_line_error(cli(["enc", *args], input=bytes(15)), "cts(cbc(aes))", "16")


def test_list_and_proc_crypto_show_the_instance(proc_records):
    from enc_cli import cli
    p = cli(["list", "--name", "cts(cbc(aes))"])
    assert p.returncode == 0 and b"name         : cts(cbc(aes))" in p.stdout
    with capi.crypto_alloc_skcipher("cts(cbc(aes-generic))"):
        rec = [r for r in proc_records() if r["driver"] == "cts(cbc(aes-generic))"]
    assert len(rec) == 1
    r = rec[0]
    assert (r["name"], r["module"], r["type"], r["blocksize"], r["ivsize"], r["min keysize"],
            r["max keysize"]) == ("cts(cbc(aes))", "cts", "skcipher", "16", "16", "16", "32")
    assert r["selftest"] == "passed"
