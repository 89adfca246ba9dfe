"""header_cdef of algs/build_common.py (crypto_api.machine.cdefs.header_regions):
a core's cdef is the declarations its C header holds (between ``/* cdef: begin */`` and
``/* cdef: end */``) instead of writing them again; every region in order,
nothing outside them, and a header with unmatched markers is refused rather
than half read (CryptoError EINVAL).  The regions' extras: ``/* cffi: ... */``
text for cffi alone, regions of one core (``cdef: begin <core>``), and the
attribute macro in front of a declaration dropped."""

import pytest
from cffi import FFI

from crypto_api.errors import EINVAL, CryptoError
from crypto_api.machine.cdefs import header_regions

from c_build import build_common


@pytest.fixture(scope="module")
def common():
    return build_common()


def write(tmp_path, text):
    path = tmp_path / "h.h"
    path.write_text(text)
    return str(path)          # absolute: header_cdef joins it to the root unchanged


def test_every_region_in_order_and_nothing_outside(common, tmp_path):
    header = write(tmp_path, "#ifndef H\n#include <stdint.h>\nint outside_a(void);\n"
                             "/* cdef: begin */\n#define FIRST 1\nint first(int x);\n/* cdef: end */\n"
                             "static inline int outside_b(void) { return 0; }\n"
                             "/* cdef: begin */\nstruct second { int y; };\n/* cdef: end */\n#endif\n")
    text = common.header_cdef(header)
    assert text.index("first(") < text.index("struct second")
    assert "outside" not in text and "#include" not in text and "#endif" not in text
    ffi = FFI()
    ffi.cdef(text)
    assert ffi.sizeof("struct second") == ffi.sizeof("int")


@pytest.mark.parametrize("text", [
    "int f(void);\n",                                              # no region at all
    "/* cdef: begin */\nint f(void);\n",                           # never ended
    "/* cdef: begin */\nint f(void);\n/* cdef: end */\n/* cdef: end */\n",   # stray end
    "/* cdef: end */\n/* cdef: begin */\nint f(void);\n",          # end before begin
])
def test_unmatched_markers_are_refused(common, tmp_path, text):
    with pytest.raises(CryptoError, match="cdef: ") as e:
        common.header_cdef(write(tmp_path, text))
    assert e.value.errno == EINVAL


def test_tagged_regions_cffi_only_text_and_attribute_macros():
    text = ("/* cdef: begin */\nint shared(void);\n/* cffi: extern int table; */\n/* cdef: end */\n"
            "/* cdef: begin one */\nHIDDEN void only_one(void);\n/* cdef: end */\n"
            "/* cdef: begin two */\nint only_two(void);\n/* cdef: end */\n")
    one = header_regions(text, "h.h", "one")
    assert "shared" in one and "only_one" in one and "only_two" not in one
    assert "extern int table;" in one and "HIDDEN" not in one
    assert "only_one" not in header_regions(text, "h.h")
    ffi = FFI()
    ffi.cdef(one)


@pytest.mark.parametrize("header", ["algs/adiantum_core.h", "algs/modes_core.h", "algs/chacha_generic.h",
                                    "algs/sector_batch.h", "algs/include/poly1305_core.h",
                                    "algs/poly1305_desc.h", "algs/sha256_generic.h",
                                    "arch/x86/chacha20poly1305_avx2.h",
                                    "arch/x86/chacha_glue_walk.h"])
def test_the_marked_project_headers_parse_as_a_cdef_of_their_own(common, header):
    ffi = FFI()
    if header == "algs/modes_core.h":           # its block type comes from _aes_generic
        ffi.cdef("typedef void (*aes_block_fn)(const void *ctx, uint8_t *out, const uint8_t *in);")
    if header == "algs/poly1305_desc.h":        # on the core's types
        ffi.cdef(common.header_cdef("algs/include/poly1305_core.h"))
    if header == "algs/adiantum_core.h":        # its NH/Poly1305 types come from _poly1305
        ffi.cdef(common.header_cdef("algs/include/poly1305_core.h")
                 + "typedef void (*nh_fn_t)(const uint32_t *, const uint8_t *, size_t, uint8_t *);"
                 + "struct nhpoly1305_key;")
    ffi.cdef(common.header_cdef(header))


# --------------------------------------------------------------------------
# The bytes adapters, generated from a header's prototype

HEADER = """
/* cdef: begin */
struct thing { int x; };
/* cdef: end */
/* One call; dst may equal src. */
int thing_crypt(const struct thing *t, uint8_t *dst, const uint8_t src[16],
\t\tsize_t n, uint32_t flags);
void thing_none(const struct thing *t, size_t n);
"""


def test_an_adapter_takes_char_pointers_and_passes_the_rest_on(tmp_path):
    """The generated C compiles with the target it wraps, and cffi then takes
    bytes for the char pointers; every argument reaches the target."""
    import importlib.util
    import shutil
    from crypto_api.machine.cdefs import bytes_adapter
    proto, body = bytes_adapter(HEADER, "thing_crypt_bytes", "thing_crypt", "h.h")
    assert proto == ("int thing_crypt_bytes(const struct thing *t, char *dst, const char *src, "
                     "size_t n, uint32_t flags);")
    assert body.startswith("static " + proto[:-1] + "\n{")
    assert "return thing_crypt(t, (uint8_t *)dst, (const uint8_t *)src, n, flags);" in body
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        pytest.skip("no C compiler")
    ffi = FFI()
    ffi.cdef("struct thing { int x; };\n" + proto)
    ffi.set_source("_adapter_probe", "#include <stdint.h>\n#include <stddef.h>\nstruct thing { int x; };\n"
                   "static int thing_crypt(const struct thing *t, uint8_t *dst, const uint8_t *src,"
                   " size_t n, uint32_t flags) { for (size_t i = 0; i < n; i++) dst[i] = (uint8_t)"
                   "(src[i] ^ t->x ^ flags); return (int)n; }\n" + body)
    path = ffi.compile(tmpdir=str(tmp_path))
    spec = importlib.util.spec_from_file_location("_adapter_probe", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    t = mod.ffi.new("struct thing *", {"x": 0x0F})
    dst = bytearray(16)
    src = bytes(range(16))
    assert mod.lib.thing_crypt_bytes(t, mod.ffi.from_buffer(dst), src, 16, 0xF0) == 16
    assert bytes(dst) == bytes(b ^ 0xFF for b in src)


def test_an_adapter_of_a_missing_or_byteless_function_is_refused():
    from crypto_api.errors import ENOENT
    from crypto_api.machine.cdefs import bytes_adapter
    with pytest.raises(CryptoError, match="no prototype of thing_gone") as e:
        bytes_adapter(HEADER, "x_bytes", "thing_gone", "h.h")
    assert e.value.errno == ENOENT
    with pytest.raises(CryptoError, match="takes no uint8_t pointer") as e:
        bytes_adapter(HEADER, "x_bytes", "thing_none", "h.h")
    assert e.value.errno == EINVAL
