"""Buffers that end right before an inaccessible page: a C routine that reads
or writes even one byte past the buffer it was given faults (used by the
SIMD core tests to catch overruns that poison bytes could miss)."""

import ctypes
import mmap

PAGE = mmap.PAGESIZE
PROT_NONE, PROT_READ_WRITE = 0, 3  # <sys/mman.h> values (Linux)
try:
    _mprotect = ctypes.CDLL(None, use_errno=True).mprotect
    _mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    _mprotect.restype = ctypes.c_int
except (OSError, AttributeError):  # pragma: no cover - not Linux/glibc
    _mprotect = None


class Fenced:
    """A writable area whose end touches an inaccessible page."""

    def __init__(self, size):
        self.npages = (size + PAGE - 1) // PAGE + 1
        self.map = mmap.mmap(-1, self.npages * PAGE)
        self.cbuf = ctypes.c_char.from_buffer(self.map)
        self.base = ctypes.addressof(self.cbuf)
        self.end = self.base + (self.npages - 1) * PAGE
        self.fenced = _mprotect is not None and _mprotect(self.end, PAGE, PROT_NONE) == 0

    def ptr(self, ffi, nbytes, ctype="uint8_t *"):
        """A ``ctype`` pointer to ``nbytes`` ending at the fence."""
        return ffi.cast(ctype, self.end - nbytes)

    def close(self):
        if self.fenced:
            _mprotect(self.end, PAGE, PROT_READ_WRITE)
        del self.cbuf
        self.map.close()
