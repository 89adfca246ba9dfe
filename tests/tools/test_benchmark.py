"""``crypto-api benchmark``: the output parsed back as cryptsetup benchmark's and
cipherbench's formats (layout, rows, units), never asserting a speed."""

import re

import pytest

from crypto_api.__main__ import main

FAST = ["--time-budget", "0.05", "--repeat", "1", "--buffer-size", "16K"]

#: cryptsetup's own strings (its C format strings, applied with Python's % operator).
CRYPTSETUP_COMMENT = "# Tests are approximate using memory only (no storage IO)."
CRYPTSETUP_HEADER = "#     Algorithm |       Key |      Encryption |      Decryption"
CRYPTSETUP_ROW = "%15s  %9db  %10.1f MiB/s  %10.1f MiB/s"
CRYPTSETUP_NA = "%15s  %9db %17s %17s"
CRYPTSETUP_ORDER = [(f"{c}-{m}", b) for m, sizes in (("cbc", (128, 256)), ("xts", (256, 512)))
                    for b in sizes for c in ("aes", "serpent", "twofish")]
ROW_RE = re.compile(r"^\s*(\S+)\s+(\d+)b\s+(?:(\d+\.\d) MiB/s\s+(\d+\.\d) MiB/s|N/A\s+N/A)$")


def parse_cryptsetup(text):
    """Rows of a ``cryptsetup benchmark`` table: (cipher, bits, enc MiB/s or None, dec or None)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        m = ROW_RE.match(line)
        assert m, line
        enc = float(m.group(3)) if m.group(3) else None
        dec = float(m.group(4)) if m.group(4) else None
        again = (CRYPTSETUP_ROW % (m.group(1), int(m.group(2)), enc, dec) if enc is not None
                 else CRYPTSETUP_NA % (m.group(1), int(m.group(2)), "N/A", "N/A"))
        assert again == line                    # exactly cryptsetup's printf layout
        rows.append((m.group(1), int(m.group(2)), enc, dec))
    return rows


def test_table_is_cryptsetup_benchmark(capsys):
    rc = main(["benchmark", *FAST])
    out, err = capsys.readouterr()
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[:2] == [CRYPTSETUP_COMMENT, CRYPTSETUP_HEADER]
    rows = parse_cryptsetup(out)
    assert [(c, b) for c, b, _e, _d in rows] == CRYPTSETUP_ORDER + [
        ("xchacha12,aes-adiantum", 256), ("xchacha20,aes-adiantum", 256)]
    for cipher, bits, enc, dec in rows:
        if cipher.startswith(("serpent", "twofish")):
            assert enc is None and dec is None             # not in crypto_api: N/A, as cryptsetup
        else:
            assert enc > 0 and dec > 0, (cipher, bits)
    for line in lines[1:14]:                                # short names: the header's columns
        assert len(line) == len(CRYPTSETUP_HEADER)
    assert "PBKDF" in err and "VolumeCipher" in err and "4096-byte sectors" in err


CB_LINE = re.compile(r"^(.+?) (encryption|decryption) \((.+)\) *(\d+\.\d{3}) cpb \((\d+) KB/s\)$")


def test_cipherbench_lines(capsys):
    rc = main(["benchmark", "--cipherbench", "--tries", "1", "--size", "512", "--cpu-mhz", "1000"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == "Detected max CPU frequency: 1000 MHz"
    assert lines[1].startswith("Buffer size: 512 bytes")
    got = {}
    for line in lines[2:]:
        m = CB_LINE.match(line)
        assert m, line
        label = f"{m.group(1)} {m.group(2)} ({m.group(3)})"
        cpb, kbs = float(m.group(4)), int(m.group(5))
        if len(label) < 45:                                   # cipherbench's "%-45s%6.3f cpb (%d KB/s)"
            assert line == "%-45s%6.3f cpb (%d KB/s)" % (label, cpb, kbs)
        else:                                                 # a long driver name: one space after it
            assert line == label + " " + "%6.3f cpb (%d KB/s)" % (cpb, kbs)
        # cycles per byte = MHz * 10^6 / (bytes per second), within the rounding of both figures
        assert cpb == pytest.approx(1000e6 / (kbs * 1000), rel=0.01, abs=0.002)
        got[(m.group(1), m.group(2))] = m.group(3)
    for algo in ("Adiantum-XChaCha12-AES", "Adiantum-XChaCha20-AES", "AES-256-XTS"):
        assert (algo, "encryption") in got and (algo, "decryption") in got
    assert got[("Adiantum-XChaCha12-AES", "encryption")].startswith("adiantum(xchacha12")


@pytest.mark.parametrize("argv, words", [
    (["--buffer-size", "6000", "--sector-size", "4096"], "not whole 4096-byte sectors"),
    (["--time-budget", "0"], "--time-budget"),
])
def test_bad_arguments_are_one_line(capsys, argv, words):
    rc = main(["benchmark", *argv])
    out, err = capsys.readouterr()
    assert rc != 0 and out == "" and words in err and err.count("\n") == 1
