"""File contents: fs/crypto/crypto.c's per-data-unit encryption
(fscrypt_crypt_data_unit) applied to a whole file offline.

The file is cut into data units (4096 bytes unless the policy's
log2_data_unit_size says otherwise: a power of two from 512 to 65536 here);
data unit ``n`` is encrypted alone with the contents mode under the IV of
index ``n``.  A last partial unit is zero-filled to a whole one, as the
block on disk is, so the ciphertext is the size rounded up to a data unit;
decryption gives whole units, cut to the file's size when it is given (the
inode's i_size, which the kernel keeps outside the ciphertext).
"""

from __future__ import annotations

from typing import Iterable, Iterator, Optional

from ..errors import EINVAL, CryptoError
from .inode import FscryptInode

DEFAULT_DATA_UNIT_SIZE = 4096


def check_data_unit_size(size: int) -> int:
    """``size`` when it is a power of two from 512 to 65536; EINVAL otherwise."""
    if not isinstance(size, int) or size < 512 or size > 65536 or size & (size - 1):
        raise CryptoError(EINVAL, f"fscrypt: data unit size {size!r}: it must be a power "
                                  "of two from 512 to 65536")
    return size


def crypt_units(inode: FscryptInode, units: Iterable[bytes], encrypt: bool,
                data_unit_size: int = DEFAULT_DATA_UNIT_SIZE,
                first_index: int = 0) -> Iterator[bytes]:
    """Each data unit of ``units`` (whole units; a short last one is
    zero-filled when encrypting, refused when decrypting) through the
    contents mode, numbered from ``first_index``."""
    check_data_unit_size(data_unit_size)
    mode = inode.policy.contents
    tfm = inode.tfm(mode)
    index = first_index
    for unit in units:
        if len(unit) != data_unit_size:
            if not encrypt or not unit or len(unit) > data_unit_size:
                raise CryptoError(EINVAL, f"fscrypt: {mode.name}: the ciphertext ends in a "
                                          f"{len(unit)}-byte piece, not a whole "
                                          f"{data_unit_size}-byte data unit")
            unit = bytes(unit) + bytes(data_unit_size - len(unit))
        iv = inode.iv(mode, index)
        yield tfm.encrypt(unit, iv) if encrypt else tfm.decrypt(unit, iv)
        index += 1


def split_units(data, data_unit_size: int) -> Iterator[bytes]:
    view = memoryview(bytes(data))
    for off in range(0, len(view), data_unit_size):
        yield bytes(view[off:off + data_unit_size])


def encrypt_contents(inode: FscryptInode, data,
                     data_unit_size: int = DEFAULT_DATA_UNIT_SIZE) -> bytes:
    """A file's bytes encrypted as the filesystem stores them."""
    check_data_unit_size(data_unit_size)
    return b"".join(crypt_units(inode, split_units(data, data_unit_size), True, data_unit_size))


def decrypt_contents(inode: FscryptInode, data, size: Optional[int] = None,
                     data_unit_size: int = DEFAULT_DATA_UNIT_SIZE) -> bytes:
    """The plaintext of stored contents, cut to ``size`` bytes when given."""
    check_data_unit_size(data_unit_size)
    data = bytes(data)
    if len(data) % data_unit_size:
        raise CryptoError(EINVAL, f"fscrypt: {inode.policy.contents.name}: {len(data)} bytes "
                                  f"of ciphertext are not whole {data_unit_size}-byte data units")
    check_size(size, len(data), data_unit_size)
    plain = b"".join(crypt_units(inode, split_units(data, data_unit_size), False,
                                 data_unit_size))
    return plain if size is None else plain[:size]


def check_size(size: Optional[int], stored: int, data_unit_size: int) -> None:
    """The file size must fit the stored units: more than the units before the last one."""
    if size is None:
        return
    if not isinstance(size, int) or size < 0 or size > stored or \
            -(-size // data_unit_size) * data_unit_size != stored:
        raise CryptoError(EINVAL, f"fscrypt: a file size of {size!r} does not match "
                                  f"{stored} bytes of ciphertext in {data_unit_size}-byte units")
