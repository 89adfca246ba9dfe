"""Bad input at every public entry point: a clear error, never a crash.

One table: each row calls a public function with one wrong argument (wrong
type, wrong size, negative or huge length, odd characters, NUL, too long or
too deeply nested name) and names the exception and errno expected.  The
refusal must be a TypeError or a CryptoError carrying the kernel errno with
a message (never AttributeError, RecursionError, BufferError, ...), and a
refused operation must leave its output buffer untouched.
"""

import errno
from types import SimpleNamespace

import pytest

import crypto_api as capi
from crypto_api import CryptoError

E = errno


@pytest.fixture(scope="module")
def o():
    """Keyed transforms and buffers the rows use."""
    ns = SimpleNamespace()
    ns.adi = capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)")
    ns.adi.setkey(bytes(range(32)))
    ns.xc = capi.crypto_alloc_skcipher("xchacha12")
    ns.xc.setkey(bytes(32))
    ns.unkeyed = capi.crypto_alloc_skcipher("xchacha20")
    ns.nh = capi.crypto_alloc_shash("nhpoly1305")
    ns.nh.setkey(bytes(1088))
    ns.poly = capi.crypto_alloc_shash("poly1305")
    ns.aes = capi.crypto_alloc_cipher("aes")
    ns.aes.setkey(bytes(16))
    yield ns
    for t in (ns.adi, ns.xc, ns.unkeyed, ns.nh, ns.poly, ns.aes):
        t.free()


def req(o, src=None, dst=None, n=64, iv=None, tfm=None):
    r = capi.skcipher_request_alloc(tfm or o.xc)
    src = capi.sg_init_one(bytearray(64)) if src is None else src
    dst = capi.sg_init_one(bytearray(64)) if dst is None else dst
    capi.skcipher_request_set_crypt(r, src, dst, n, bytearray(32) if iv is None else iv)
    return r


def handmade_sg(buf, offset, length):
    sg = capi.Scatterlist()
    sg.buf, sg.offset, sg.length = memoryview(buf), offset, length
    return [sg]


DEEP = "adiantum(" * 60 + "xchacha12" + ",aes)" * 60
ALLOCS = {
    "skcipher": capi.crypto_alloc_skcipher,
    "shash": capi.crypto_alloc_shash,
    "cipher": capi.crypto_alloc_cipher,
}

# (id, call(o), exception, errno or None)
NAME_ROWS = []
for kind, fn in ALLOCS.items():
    for label, name, exc, err in [
        ("none", None, TypeError, None),
        ("bytes", b"aes", TypeError, None),
        ("int", 7, TypeError, None),
        ("empty", "", CryptoError, E.ENOENT),
        ("nul", "xchacha12\0", CryptoError, E.EINVAL),
        ("nul-inside", "adiantum(xchacha12\0,aes)", CryptoError, E.EINVAL),
        ("space", "x chacha", CryptoError, E.EINVAL),
        ("newline", "aes\n", CryptoError, E.EINVAL),
        ("slash", "../aes", CryptoError, E.EINVAL),
        ("non-ascii", "a\u00e9s", CryptoError, E.EINVAL),
        ("128-chars", "a" * 128, CryptoError, E.ENAMETOOLONG),
        ("huge", "a" * 10**6, CryptoError, E.ENAMETOOLONG),
        ("127-chars-unknown", "a" * 127, CryptoError, E.ENOENT),
        ("deep-nesting", DEEP, CryptoError, E.ENAMETOOLONG),
        ("unbalanced", "adiantum(xchacha12", CryptoError, E.ENOENT),
        ("empty-param", "adiantum(xchacha12,,aes)", CryptoError, E.ENOENT),
        ("no-params", "adiantum()", CryptoError, E.ENOENT),
        ("only-parens", ")))(((", CryptoError, E.ENOENT),
    ]:
        NAME_ROWS.append((f"alloc_{kind}-{label}", lambda o, fn=fn, name=name: fn(name), exc, err))

ROWS = NAME_ROWS + [
    # type and mask
    ("alloc-type-str", lambda o: capi.crypto_alloc_skcipher("xchacha12", "0"), TypeError, None),
    ("alloc-mask-bool", lambda o: capi.crypto_alloc_skcipher("xchacha12", 0, True), TypeError, None),
    ("alloc-mask-negative", lambda o: capi.crypto_alloc_skcipher("xchacha12", 0, -1), CryptoError, E.EINVAL),
    ("alloc-type-huge", lambda o: capi.crypto_alloc_skcipher("xchacha12", 1 << 40), CryptoError, E.EINVAL),
    ("has_alg-none", lambda o: capi.crypto_has_alg(None), TypeError, None),
    # template nesting inside the length limit
    ("nested-adiantum", lambda o: capi.crypto_alloc_skcipher("adiantum(adiantum(xchacha12,aes),aes)"),
     CryptoError, E.EINVAL),
    ("parse-none", lambda o: capi.parse_template_name(None), TypeError, None),
    ("parse-bytes", lambda o: capi.parse_template_name(b"adiantum(a,b)"), TypeError, None),
    ("parse-unbalanced", lambda o: capi.parse_template_name("a(" * 5000), ValueError, None),
    # setkey
    ("setkey-str", lambda o: o.xc.setkey("k" * 32), TypeError, None),
    ("setkey-none", lambda o: o.xc.setkey(None), TypeError, None),
    ("setkey-int", lambda o: o.xc.setkey(32), TypeError, None),
    ("setkey-list", lambda o: o.xc.setkey([0] * 32), TypeError, None),
    ("setkey-noncontiguous", lambda o: o.xc.setkey(memoryview(bytes(64))[::2]), TypeError, None),
    ("setkey-empty", lambda o: capi.crypto_alloc_skcipher("xchacha12").setkey(b""), CryptoError, E.EINVAL),
    ("setkey-short", lambda o: capi.crypto_alloc_skcipher("xchacha12").setkey(bytes(31)), CryptoError, E.EINVAL),
    ("setkey-huge", lambda o: capi.crypto_alloc_skcipher("xchacha12").setkey(bytes(10**6)),
     CryptoError, E.EINVAL),
    ("shash-setkey-short", lambda o: capi.crypto_alloc_shash("nhpoly1305").setkey(bytes(1087)),
     CryptoError, E.EINVAL),
    ("shash-setkey-keyless", lambda o: o.poly.setkey(bytes(32)), CryptoError, E.ENOSYS),
    ("cipher-setkey-17", lambda o: capi.crypto_alloc_cipher("aes").setkey(bytes(17)), CryptoError, E.EINVAL),
    ("cipher-setkey-str", lambda o: o.aes.setkey("x" * 16), TypeError, None),
    # one-buffer encrypt
    ("encrypt-str", lambda o: o.adi.encrypt("x" * 32, bytes(32)), TypeError, None),
    ("encrypt-none", lambda o: o.adi.encrypt(None, bytes(32)), TypeError, None),
    ("encrypt-int", lambda o: o.adi.encrypt(64, bytes(32)), TypeError, None),
    ("encrypt-iv-none", lambda o: o.adi.encrypt(bytes(32), None), CryptoError, E.EINVAL),
    ("encrypt-iv-short", lambda o: o.adi.encrypt(bytes(32), bytes(31)), CryptoError, E.EINVAL),
    ("encrypt-iv-long", lambda o: o.adi.encrypt(bytes(32), bytes(33)), CryptoError, E.EINVAL),
    ("encrypt-iv-str", lambda o: o.adi.encrypt(bytes(32), "0" * 32), TypeError, None),
    ("encrypt-adiantum-15", lambda o: o.adi.encrypt(bytes(15), bytes(32)), CryptoError, E.EINVAL),
    ("encrypt-adiantum-empty", lambda o: o.adi.decrypt(b"", bytes(32)), CryptoError, E.EINVAL),
    ("encrypt-no-key", lambda o: o.unkeyed.encrypt(bytes(16), bytes(16)), CryptoError, E.ENOKEY),
    ("encrypt-out-short", lambda o: o.xc.encrypt(bytes(64), bytes(32), out=bytearray(63)), CryptoError, E.EINVAL),
    ("encrypt-out-readonly", lambda o: o.xc.encrypt(bytes(64), bytes(32), out=bytes(64)), CryptoError, E.EINVAL),
    # request path
    ("req-not-request", lambda o: capi.crypto_skcipher_encrypt("req"), TypeError, None),
    ("req-cryptlen-negative", lambda o: capi.crypto_skcipher_encrypt(req(o, n=-1)), CryptoError, E.EINVAL),
    ("req-cryptlen-huge", lambda o: capi.crypto_skcipher_encrypt(req(o, n=1 << 50)), CryptoError, E.EINVAL),
    ("req-cryptlen-float", lambda o: capi.crypto_skcipher_encrypt(req(o, n=64.0)), TypeError, None),
    ("req-cryptlen-bool", lambda o: capi.crypto_skcipher_encrypt(req(o, n=True)), TypeError, None),
    ("req-cryptlen-past-src", lambda o: capi.crypto_skcipher_encrypt(req(o, n=65)), CryptoError, E.EINVAL),
    ("req-src-entry", lambda o: capi.crypto_skcipher_encrypt(req(o, src=capi.sg_init_one(bytearray(64))[0])),
     TypeError, None),
    ("req-src-bytes", lambda o: capi.crypto_skcipher_encrypt(req(o, src=[bytes(64)])), TypeError, None),
    ("req-src-int", lambda o: capi.crypto_skcipher_encrypt(req(o, src=5)), TypeError, None),
    ("req-dst-readonly", lambda o: capi.crypto_skcipher_encrypt(req(o, dst=capi.sg_init_one(bytes(64)))),
     CryptoError, E.EINVAL),
    ("req-sg-past-buffer", lambda o: capi.crypto_skcipher_encrypt(req(o, src=handmade_sg(bytearray(64), 32, 64))),
     CryptoError, E.EINVAL),
    ("req-sg-negative-offset", lambda o: capi.crypto_skcipher_encrypt(
        req(o, src=handmade_sg(bytearray(64), -1, 64))), CryptoError, E.EINVAL),
    ("req-iv-short", lambda o: capi.crypto_skcipher_encrypt(req(o, iv=bytearray(8))), CryptoError, E.EINVAL),
    ("req-iv-str", lambda o: capi.crypto_skcipher_encrypt(req(o, iv="0" * 32)), TypeError, None),
    ("req-adiantum-short", lambda o: capi.crypto_skcipher_encrypt(req(o, n=15, tfm=o.adi)), CryptoError, E.EINVAL),
    ("request-alloc-wrong-tfm", lambda o: capi.skcipher_request_alloc(o.aes), TypeError, None),
    # scatterlists and the walk
    ("sg-set-str", lambda o: capi.sg_set_buf(capi.Scatterlist(), "abc"), TypeError, None),
    ("sg-set-not-entry", lambda o: capi.sg_set_buf(bytearray(4), bytearray(4)), TypeError, None),
    ("sg-set-negative-offset", lambda o: capi.sg_set_buf(capi.Scatterlist(), bytearray(4), -1), CryptoError, E.EINVAL),
    ("sg-set-huge-length", lambda o: capi.sg_set_buf(capi.Scatterlist(), bytearray(4), 0, 1 << 62),
     CryptoError, E.EINVAL),
    ("sg-set-offset-bool", lambda o: capi.sg_set_buf(capi.Scatterlist(), bytearray(4), True), TypeError, None),
    ("sg-table-negative", lambda o: capi.sg_init_table(-1), CryptoError, E.EINVAL),
    ("sg-table-huge", lambda o: capi.sg_init_table(10**12), CryptoError, E.EINVAL),
    ("sg-table-str", lambda o: capi.sg_init_table("3"), TypeError, None),
    ("walk-virt-none", lambda o: capi.skcipher_walk_virt(None), TypeError, None),
    ("walk-done-none", lambda o: capi.skcipher_walk_done(None, 0), TypeError, None),
    # shash
    ("shash-update-str", lambda o: o.nh.desc().init().update("abc"), TypeError, None),
    ("shash-digest-none", lambda o: o.nh.digest(None), TypeError, None),
    ("shash-import-short", lambda o: o.nh.desc().import_(b"x"), CryptoError, E.EINVAL),
    ("shash-no-key", lambda o: capi.crypto_alloc_shash("nhpoly1305").digest(b"abc"), CryptoError, E.ENOKEY),
    # cipher
    ("cipher-15", lambda o: o.aes.encrypt_one(bytes(15)), CryptoError, E.EINVAL),
    ("cipher-17", lambda o: o.aes.decrypt_one(bytes(17)), CryptoError, E.EINVAL),
    ("cipher-str", lambda o: o.aes.encrypt_one("x" * 16), TypeError, None),
    ("cipher-readonly-dst", lambda o: capi.crypto_cipher_encrypt_one(o.aes, bytes(16), bytes(16)),
     CryptoError, E.EINVAL),
    # registration
    ("register-not-alg", lambda o: capi.crypto_register_skcipher("xchacha12"), TypeError, None),
    ("register-wrong-kind", lambda o: capi.crypto_register_shash(capi.CipherAlg(cra_name="x")), TypeError, None),
    ("register-name-nul", lambda o: capi.crypto_register_skcipher(toy("bad\0name")), CryptoError, E.EINVAL),
    ("register-name-space", lambda o: capi.crypto_register_skcipher(toy("bad name")), CryptoError, E.EINVAL),
    ("register-name-long", lambda o: capi.crypto_register_skcipher(toy("n" * 128)), CryptoError, E.ENAMETOOLONG),
    ("register-driver-long", lambda o: capi.crypto_register_skcipher(toy("ok", cra_driver_name="d" * 200)),
     CryptoError, E.ENAMETOOLONG),
    ("register-priority-negative", lambda o: capi.crypto_register_skcipher(toy("ok", cra_priority=-1)),
     CryptoError, E.EINVAL),
    ("register-priority-str", lambda o: capi.crypto_register_skcipher(toy("ok", cra_priority="9")),
     CryptoError, E.EINVAL),
    ("register-keysizes", lambda o: capi.crypto_register_skcipher(toy("ok", min_keysize=8, max_keysize=4)),
     CryptoError, E.EINVAL),
    ("register-ivsize-huge", lambda o: capi.crypto_register_skcipher(toy("ok", ivsize=1 << 20)),
     CryptoError, E.EINVAL),
    ("register-no-setkey", lambda o: capi.crypto_register_skcipher(toy("ok", setkey=None)), CryptoError, E.EINVAL),
    ("unregister-unknown", lambda o: capi.crypto_unregister_skcipher(toy("never-registered")), CryptoError, E.ENOENT),
    ("template-not-template", lambda o: capi.crypto_register_template("adiantum"), TypeError, None),
    ("template-name-odd", lambda o: capi.crypto_register_template(capi.Template(name="a b", create=None)),
     CryptoError, E.EINVAL),
    ("template-name-long", lambda o: capi.crypto_register_template(capi.Template(name="t" * 200, create=None)),
     CryptoError, E.ENAMETOOLONG),
    # modules
    ("request_module-none", lambda o: capi.request_module(None), TypeError, None),
    ("insmod-int", lambda o: capi.insmod(5), TypeError, None),
    ("insmod-missing-file", lambda o: capi.insmod("/nonexistent/mod.py"), CryptoError, E.ENOENT),
    ("insmod-missing-module", lambda o: capi.insmod("no_such_pkg.mod"), CryptoError, E.ENOENT),
    ("rmmod-none", lambda o: capi.rmmod(None), TypeError, None),
    ("rmmod-unknown", lambda o: capi.rmmod("no_such_module"), CryptoError, E.ENOENT),
]


def toy(name, **kw):
    def nothing(*a):
        pass
    fields = dict(cra_name=name, cra_driver_name=name + "-toy", cra_priority=1, min_keysize=1,
                  max_keysize=1, setkey=nothing, encrypt=nothing, decrypt=nothing)
    fields.update(kw)
    return capi.SkcipherAlg(**fields)


@pytest.mark.parametrize("call, exc, err", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_bad_input_matrix(o, call, exc, err):
    with pytest.raises(Exception) as info:
        call(o)
    e = info.value
    assert type(e) is exc or isinstance(e, exc) and exc is not Exception, \
        f"expected {exc.__name__}, got {type(e).__name__}: {e}"
    if exc is CryptoError:
        assert e.errno == err, f"errno {e.errno} ({e.errname}), expected {errno.errorcode[err]}: {e}"
        assert len(e.message) > 10
    assert str(e)


def test_refused_requests_leave_dst_untouched(o):
    """A refused request (bad IV, bad length) writes nothing to dst or the caller's out buffer."""
    dst = bytearray(b"\x5a" * 64)
    for r in (req(o, dst=capi.sg_init_one(dst), iv=bytearray(8)),
              req(o, dst=capi.sg_init_one(dst), n=15, tfm=o.adi)):
        with pytest.raises(CryptoError):
            capi.crypto_skcipher_encrypt(r)
        assert dst == bytearray(b"\x5a" * 64)
    out = bytearray(b"\x5a" * 15)
    with pytest.raises(CryptoError):
        o.adi.encrypt(bytes(15), bytes(32), out=out)
    assert out == bytearray(b"\x5a" * 15)


def test_deeply_nested_template_within_length_limit(register):
    """A short template name nests 30 deep in fewer than 128 characters: the
    lookup refuses it (EINVAL, nesting limit) rather than recursing away;
    a shallow nesting of the same template works."""
    from crypto_api.errors import EINVAL

    def create(tmpl, tb):
        spawn = capi.crypto_grab_skcipher(capi.crypto_attr_alg_name(tb, 1, "p"))
        inner = spawn.alg

        def init(tfm):
            tfm.ctx.child = capi.crypto_spawn_skcipher(spawn)

        def exit_(tfm):
            tfm.ctx.child.free()

        def crypt(r):
            c = capi.skcipher_request_alloc(r.tfm.ctx.child)
            capi.skcipher_request_set_crypt(c, r.src, r.dst, r.cryptlen, r.iv)
            capi.crypto_skcipher_encrypt(c)

        capi.skcipher_register_instance(tmpl, capi.SkcipherAlg(
            cra_name=capi.crypto_inst_name("p", inner.cra_name),
            cra_driver_name=capi.crypto_inst_name("p", inner.cra_driver_name),
            cra_priority=inner.cra_priority, min_keysize=32, max_keysize=32, ivsize=inner.ivsize,
            setkey=lambda t, k: t.ctx.child.setkey(k), encrypt=crypt, decrypt=crypt,
            init=init, exit=exit_), [spawn])

    register(capi.Template(name="p", create=create))
    deep = "p(" * 30 + "xchacha12" + ")" * 30
    assert len(deep) < 128
    with pytest.raises(CryptoError) as e:
        capi.crypto_alloc_skcipher(deep)
    assert e.value.errno == EINVAL and "nested" in e.value.message
    with capi.crypto_alloc_skcipher("p(p(p(xchacha12)))") as t, capi.crypto_alloc_skcipher("xchacha12") as x:
        t.setkey(bytes(32))
        x.setkey(bytes(32))
        assert t.encrypt(bytes(100), bytes(32)) == x.encrypt(bytes(100), bytes(32))


def test_broken_module_does_not_break_lookups(tmp_path, monkeypatch):
    """A module whose init crashes (not with a CryptoError) is reported, and
    lookups and load_all carry on: a clear ENOENT / ENOEXEC, no traceback."""
    from crypto_api import modules
    (tmp_path / "broken_mod_xyz.py").write_text(
        "MODULE_ALIASES = ('brokenalg', 'crypto-brokenalg')\n"
        "def module_init():\n    raise RuntimeError('boom')\n"
        "def module_exit():\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    modules.available_modules()
    modules.alias_index()
    monkeypatch.setitem(modules._available, "broken_mod_xyz", "broken_mod_xyz")
    monkeypatch.setitem(modules._alias_index, "crypto-brokenalg", ["broken_mod_xyz"])
    with pytest.raises(CryptoError) as e:
        capi.crypto_alloc_skcipher("brokenalg")
    assert e.value.errno == errno.ENOENT
    res = modules.load_all(only=["broken_mod_xyz"])
    assert res["broken_mod_xyz"].errno == errno.ENOEXEC and "boom" in res["broken_mod_xyz"].message
    assert not modules.is_loaded("broken_mod_xyz")


def test_driver_failing_mid_walk_leaves_out_buffer_and_request_untouched(register):
    """A driver that writes part of its output and then raises: the errno
    reaches the caller, and neither ``tfm.encrypt(..., out=buf)`` nor the
    request path leaves the destination (or the IV) half written."""
    from errno import EIO

    def crypt(req):
        walk = capi.skcipher_walk_virt(req)
        done = 0
        while walk.nbytes:
            n = min(walk.nbytes, 64)
            walk.dst[:n] = b"\xee" * n
            req.iv[0] ^= 0xFF
            done += n
            if done >= 128:
                raise CryptoError(EIO, "midfail-drv: device error after 128 bytes")
            capi.skcipher_walk_done(walk, walk.nbytes - n)

    register(capi.SkcipherAlg(cra_name="midfail", cra_driver_name="midfail-drv", cra_priority=1,
                              min_keysize=0, max_keysize=0, ivsize=16, chunksize=64,
                              setkey=lambda t, k: None, encrypt=crypt, decrypt=crypt))
    with capi.crypto_alloc_skcipher("midfail") as tfm:
        out = bytearray(b"\x11" * 300)
        with pytest.raises(CryptoError) as e:
            tfm.encrypt(bytes(300), bytes(16), out=out)
        assert e.value.errno == EIO and "after 128 bytes" in e.value.message
        assert out == bytearray(b"\x11" * 300)
        buf, iv = bytearray(b"\x22" * 300), bytearray(range(16))
        r = capi.skcipher_request_alloc(tfm)
        capi.skcipher_request_set_crypt(r, capi.sg_init_one(buf), capi.sg_init_one(buf), 300, iv)
        with pytest.raises(CryptoError) as e:
            capi.crypto_skcipher_decrypt(r)
        assert e.value.errno == EIO
        assert buf == bytearray(b"\x22" * 300) and iv == bytearray(range(16))
