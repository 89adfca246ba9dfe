"""Reference dm-crypt images for the disk tests, from the table's definition.

Written from dm-crypt.rst and the cryptsetup plain options, independently of
crypto_api.dmcrypt.sector: the mapping ``<start> <len> crypt <cipher> <key>
<iv_offset> <dev> <offset>`` puts the volume's 512-byte sector ``s`` at
device sector ``offset + s`` and hands the IV generator ``s + iv_offset``
(shifted right by log2(sector_size/512) with ``iv_large_sectors``);
cryptsetup plain's ``--offset`` is ``<offset>`` and ``--skip`` is
``<iv_offset>``.  Each sector is transformed with the plain tfm.
"""

import crypto_api as capi


def iv_number(n, sector_size, skip=0, large=False):
    """The number dm-crypt's IV generator gets for volume sector n (sector-size units)."""
    per = sector_size // 512
    s = n * per + skip
    return s >> (per.bit_length() - 1) if large else s


def iv_bytes(number, mode="plain64", ivsize=32):
    head = (number % (1 << 32)).to_bytes(4, "little") if mode == "plain" else number.to_bytes(8, "little")
    return head + bytes(ivsize - len(head))


def reference_image(orig, key, algorithm="adiantum(xchacha12,aes)", mode="plain64", sector_size=512,
                    offset=0, size=None, skip=0, large=False, encrypt=True):
    """``orig`` with the volume [offset*512, +size*512) transformed as dm-crypt does."""
    start = offset * 512
    length = len(orig) - start if size is None else size * 512
    out = bytearray(orig)
    with capi.crypto_alloc_skcipher(algorithm) as tfm:
        tfm.setkey(key)
        fn = tfm.encrypt if encrypt else tfm.decrypt
        for n in range(length // sector_size):
            o = start + n * sector_size
            iv = iv_bytes(iv_number(n, sector_size, skip, large), mode, tfm.ivsize)
            out[o:o + sector_size] = fn(bytes(orig[o:o + sector_size]), iv)
    return bytes(out)


def journal_done(image):
    """True if IMAGE's journal marks its job done (the receipt a finished run leaves)."""
    from crypto_api.tools.disk_journal import Journal, default_path
    j = Journal.open(default_path(str(image)))
    try:
        last = j.latest()
        return last is not None and last.done
    finally:
        j.close()
