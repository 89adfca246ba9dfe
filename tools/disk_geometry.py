"""Where the volume lies in the image: cryptsetup plain's ``--offset``/``--size``.

cryptsetup (``open --type plain``) and the dm-crypt table count in 512-byte
sectors: ``--offset`` is where the encrypted data starts on the device (the
table's ``<offset>``): the volume's sector 0, whose IV number is 0 plus
``--skip``; ``--size`` is the volume's length (the table's length; default:
the rest of the device).  ``--skip`` (the table's ``<iv_offset>``) only moves
the IV numbers and is handled by :class:`crypto_api.VolumeCipher`.
dm-crypt requires the length to be whole sectors of ``sector_size``; the
start must be too here, so that every sector write starts on a sector (and,
for 4096-byte sectors, page) boundary.
"""

from __future__ import annotations

import attrs

from crypto_api.errors import EINVAL, CryptoError
from crypto_api.dmcrypt import SECTOR_SIZE


@attrs.frozen
class Geometry:
    """The volume's bytes ``[start, start + length)`` of the image, in sectors."""

    sector_size: int
    start: int
    length: int

    @property
    def end(self) -> int:
        return self.start + self.length

    def index(self, pos: int) -> int:
        """The volume's sector number of the sector at image byte ``pos``."""
        return (pos - self.start) // self.sector_size


def volume_geometry(image_size: int, sector_size: int, offset: int, size) -> Geometry:
    """Check ``--offset``/``--size`` (512-byte sectors) against the image; EINVAL if unusable."""
    per = sector_size // SECTOR_SIZE
    if offset % per:
        raise CryptoError(EINVAL, f"--offset {offset}: not a multiple of the sector size in 512-byte "
                                  f"sectors ({per} for {sector_size}-byte sectors)")
    start = offset * SECTOR_SIZE
    if start > image_size:
        raise CryptoError(EINVAL, f"--offset {offset} (byte {start}): beyond the end of the "
                                  f"{image_size}-byte image")
    if size is None:
        length = image_size - start
        if length % sector_size:
            raise CryptoError(EINVAL, f"the image ({image_size} bytes"
                                      f"{f' after --offset {offset}' if offset else ''}) is not a "
                                      f"multiple of the {sector_size}-byte sector size; give --size")
    else:
        if size % per:
            raise CryptoError(EINVAL, f"--size {size}: not a multiple of the sector size in 512-byte "
                                      f"sectors ({per} for {sector_size}-byte sectors)")
        length = size * SECTOR_SIZE
        if start + length > image_size:
            raise CryptoError(EINVAL, f"--offset {offset} + --size {size} (sectors of 512 bytes) runs "
                                      f"past the end of the {image_size}-byte image")
    if length == 0:
        raise CryptoError(EINVAL, "nothing to do: the volume is empty")
    return Geometry(sector_size, start, length)
