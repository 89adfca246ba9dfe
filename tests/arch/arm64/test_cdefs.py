"""The core prototype grammar (crypto_api.machine.cdefs) and the dispatcher generated from it."""

import errno

import pytest

import crypto_api as capi
from crypto_api.machine.cdefs import parse_cdef
from crypto_api.machine.core import Core, arch_cores
from crypto_api.machine.helper_build import dispatcher_source, functions_of


def test_the_grammar_is_parsed():
    fns = parse_cdef("""
        /* a comment */ void nh_neon(const uint32_t *key, const uint8_t *message, size_t message_len,
                                   uint8_t *hash);
        unsigned int count(void);   // another
        int64_t f(int a, unsigned int b, uint64_t c, int64_t d, uint32_t e, void *p, const void *q, uint64_t *r);
    """)
    assert [f.name for f in fns] == ["nh_neon", "count", "f"]
    nh = fns[0]
    assert nh.ret == "void"
    assert [(p.name, p.ctype, p.pointer, p.const) for p in nh.params] == [
        ("key", "uint32_t", True, True), ("message", "uint8_t", True, True),
        ("message_len", "size_t", False, False), ("hash", "uint8_t", True, False)]
    assert fns[1].params == () and fns[1].ret == "unsigned int" and not fns[1].signed_ret
    assert len(fns[2].params) == 8 and fns[2].signed_ret and fns[2].ret_bits == 64


@pytest.mark.parametrize("bad", [
    "void f(struct s x);",
    "void f(void (*cb)(void));",
    "void f(int *p);",
    "void f(const int x);",
    "float f(void);",
    "void f(int a, int b, int c, int d, int e, int f, int g, int h, int i);",
    "not a prototype at all;",
])
def test_outside_the_grammar_is_refused(bad):
    with pytest.raises(capi.CryptoError) as e:
        parse_cdef(bad, "core t")
    assert e.value.errno == errno.EINVAL and "core t" in str(e.value)


def test_dispatcher_calls_every_function_with_its_types():
    cores = {"t": Core(name="t", sources=("t.c",),
                       cdef="int g(const uint8_t *in, uint32_t *io, size_t n); void h(void);")}
    src = dispatcher_source(functions_of(cores))
    assert "int g(const uint8_t *in, uint32_t *io, size_t n);" in src
    assert "case 0: *ret = (int64_t)g((a[0] == CAPI_NULL ? (const uint8_t *)0 : (const uint8_t *)(shm + a[0]))" in src
    assert "(size_t)a[2]" in src
    assert "case 1: h(); *ret = 0; return 0;" in src


def test_arm64_cores_are_collected_from_every_cores_file():
    cores = arch_cores("arm64")
    assert {"chacha_neon", "backend_probe", "aes_ce_probe"} <= set(cores)
    for c in cores.values():
        assert c.functions()          # every cdef is inside the grammar
