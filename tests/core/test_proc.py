"""/proc/crypto text (crypto/proc.c and the per-type show hooks, v5.0 format).

The format: one record per list entry, newest first, each line the label padded
to 13 columns, ": " and the value, an empty line after each record; the
type-specific lines of skcipher, shash, cipher and larval records; ``module``
is ``kernel`` for built-ins and the module name for loaded modules.  The
expected texts below are written out by hand from that format.
"""

import pytest

import crypto_api as capi


def toy(name, driver, priority=100, flags=0, **extra):
    def crypt(req):
        walk = capi.skcipher_walk_virt(req)
        while walk.nbytes:
            walk.dst[:walk.nbytes] = walk.src[:walk.nbytes]
            capi.skcipher_walk_done(walk, 0)

    fields = dict(cra_name=name, cra_driver_name=driver, cra_priority=priority, cra_flags=flags,
                  setkey=lambda tfm, key: None, encrypt=crypt, decrypt=crypt)
    fields.update(extra)
    return capi.SkcipherAlg(**fields)


def block_of(driver):
    """The exact text of the record whose driver line is ``driver``."""
    for block in capi.proc_crypto().split("\n\n"):
        if f"\ndriver       : {driver}\n" in "\n" + block + "\n":
            return block + "\n\n"
    return None


def test_every_line_is_a_13_column_label_and_records_end_with_an_empty_line():
    with capi.crypto_alloc_skcipher("xchacha12-generic"):
        pass
    text = capi.proc_crypto()
    assert text.endswith("\n\n")
    for block in text[:-2].split("\n\n"):
        lines = block.split("\n")
        assert lines[0].startswith("name         : ")
        for line in lines:
            assert len(line) >= 15 and line[13:15] == ": " and line[:13].rstrip() and \
                (line[:13] == line[:13].rstrip().ljust(13))
        labels = [line[:13].rstrip() for line in lines]
        assert labels[:7] == ["name", "driver", "module", "priority", "refcnt", "selftest", "internal"]


def test_a_skcipher_record(register):
    register(toy("proctest-sk", "proctest-sk-drv", 321, cra_blocksize=16, min_keysize=16,
                 max_keysize=64, ivsize=12, chunksize=32, walksize=64))
    assert block_of("proctest-sk-drv") == (
        "name         : proctest-sk\n"
        "driver       : proctest-sk-drv\n"
        "module       : kernel\n"
        "priority     : 321\n"
        "refcnt       : 1\n"
        "selftest     : passed\n"
        "internal     : no\n"
        "type         : skcipher\n"
        "async        : no\n"
        "blocksize    : 16\n"
        "min keysize  : 16\n"
        "max keysize  : 64\n"
        "ivsize       : 12\n"
        "chunksize    : 32\n"
        "walksize     : 64\n"
        "\n")


def test_internal_and_async_flags_show(register):
    register(toy("proctest-flags", "proctest-flags-drv",
                 flags=capi.CRYPTO_ALG_INTERNAL | capi.CRYPTO_ALG_ASYNC))
    block = block_of("proctest-flags-drv")
    assert "internal     : yes\n" in block and "async        : yes\n" in block


def test_the_generic_drivers_records():
    with capi.crypto_alloc_shash("nhpoly1305-generic"), capi.crypto_alloc_cipher("aes-generic"), \
            capi.crypto_alloc_skcipher("xchacha12-generic"):
        assert block_of("nhpoly1305-generic") == (
            "name         : nhpoly1305\n"
            "driver       : nhpoly1305-generic\n"
            "module       : nhpoly1305\n"
            "priority     : 100\n"
            "refcnt       : 2\n"
            "selftest     : passed\n"
            "internal     : no\n"
            "type         : shash\n"
            "blocksize    : 0\n"
            "digestsize   : 16\n"
            "\n")
        assert block_of("aes-generic").endswith(
            "module       : aes_generic\n"
            "priority     : 100\n"
            "refcnt       : 2\n"
            "selftest     : passed\n"
            "internal     : no\n"
            "type         : cipher\n"
            "blocksize    : 16\n"
            "min keysize  : 16\n"
            "max keysize  : 32\n"
            "\n")
        assert block_of("xchacha12-generic").endswith(
            "module       : chacha_generic\n"
            "priority     : 100\n"
            "refcnt       : 2\n"
            "selftest     : passed\n"
            "internal     : no\n"
            "type         : skcipher\n"
            "async        : no\n"
            "blocksize    : 1\n"
            "min keysize  : 32\n"
            "max keysize  : 32\n"
            "ivsize       : 32\n"
            "chunksize    : 64\n"
            "walksize     : 64\n"
            "\n")


def test_an_adiantum_instance_record():
    name = "adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)"
    with capi.crypto_alloc_skcipher(name):
        assert block_of(name) == (
            "name         : adiantum(xchacha12,aes)\n"
            f"driver       : {name}\n"
            "module       : adiantum\n"
            "priority     : 100\n"
            "refcnt       : 2\n"
            "selftest     : passed\n"
            "internal     : no\n"
            "type         : skcipher\n"
            "async        : no\n"
            "blocksize    : 16\n"
            "min keysize  : 32\n"
            "max keysize  : 32\n"
            "ivsize       : 32\n"
            "chunksize    : 16\n"
            "walksize     : 16\n"
            "\n")


def test_newest_first(register):
    register(toy("proctest-order", "proctest-order-a"))
    register(toy("proctest-order", "proctest-order-b"))
    register(toy("proctest-order2", "proctest-order-c"))
    drivers = [line[15:] for line in capi.proc_crypto().splitlines() if line.startswith("driver ")]
    assert drivers[:3] == ["proctest-order-c", "proctest-order-b", "proctest-order-a"]


def test_a_test_larval_shows_while_its_driver_is_tested(register):
    seen = []

    def setkey(tfm, key):
        if not seen:
            seen.append(capi.proc_crypto())

    register(toy("xchacha20", "proctest-xchacha20-larval", 1, cra_blocksize=1, min_keysize=32,
                 max_keysize=32, ivsize=32, chunksize=64, setkey=setkey))
    during = seen[0].split("\n\n")
    mine = [b for b in during if "driver       : proctest-xchacha20-larval\n" in b + "\n"]
    assert len(mine) == 2
    larval, alg = mine                  # the larval is newer, so listed first
    assert larval == (
        "name         : xchacha20\n"
        "driver       : proctest-xchacha20-larval\n"
        "module       : kernel\n"
        "priority     : 1\n"
        "refcnt       : 1\n"
        "selftest     : passed\n"
        "internal     : no\n"
        "type         : larval\n"
        "flags        : 0x415")
    assert "selftest     : unknown\n" in alg and "type         : skcipher\n" in alg
    # the copying "cipher" fails the xchacha20 vectors; the larval is gone
    assert block_of("proctest-xchacha20-larval").count("selftest     : unknown\n") == 1
    assert "type         : larval" not in (block_of("proctest-xchacha20-larval") or "")


def test_a_lookup_larval_shows_while_a_template_instantiates(register):
    seen = []

    def create(tmpl, tb):
        seen.append(capi.proc_crypto())
        raise capi.CryptoError(22, "proctmpl: refused after looking")

    register(capi.Template(name="proctmpl", create=create))
    with pytest.raises(capi.CryptoError):
        capi.crypto_alloc_skcipher("proctmpl(aes)")
    larval = [b for b in seen[0].split("\n\n") if b.startswith("name         : proctmpl(aes)\n")]
    assert larval == [
        "name         : proctmpl(aes)\n"
        "driver       : \n"
        "module       : kernel\n"
        "priority     : -1\n"
        "refcnt       : 1\n"
        "selftest     : unknown\n"
        "internal     : no\n"
        "type         : larval\n"
        "flags        : 0x15"]
    assert "proctmpl(aes)" not in capi.proc_crypto()
