"""The key options, one spelling everywhere (tools/cli_common.py ``add_key_options``).

``--key-file PATH`` (cryptsetup's spelling) and ``--key-fd N`` are the
options; libkcapi's ``--keyfile`` and ``--keyfd`` are accepted as aliases.
Real subprocesses, for every command that takes a key: ``enc``/``dec`` with
a skcipher (``xts(aes)``, against ``cryptography``'s AES-XTS) and with an
AEAD (against its ChaCha20-Poly1305), and ``disk encrypt``/``decrypt``
(``aes-xts-plain64``, each 512-byte sector against AES-XTS with the tweak
le64(sector)), give the same right bytes under either spelling; ``--help``
shows only the canonical names; two spellings at once are refused in one
line.
"""

import os

import pytest
from cryptography.hazmat.primitives.ciphers import modes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from enc_cli import assert_one_line_error, cli
from modes_ref import aes

IV = bytes(range(16))
NONCE = bytes(range(12))
AEAD = "rfc7539(chacha20,poly1305)"
FILE_SPELLINGS = ["--key-file", "--keyfile"]
FD_SPELLINGS = ["--key-fd", "--keyfd"]


@pytest.fixture
def d(tmp_path):
    (tmp_path / "xts.key").write_bytes(bytes(range(64)))
    (tmp_path / "aead.key").write_bytes(os.urandom(32))
    return tmp_path


def run_with_key(option, key_path, args, **kw):
    """``crypto-api ARGS OPTION ...``: a path for the file options, an inherited pipe for the fd ones."""
    if option in FILE_SPELLINGS:
        return cli([*args, option, str(key_path)], **kw)
    r, w = os.pipe()
    os.write(w, key_path.read_bytes())
    os.close(w)
    try:
        return cli([*args, option, str(r)], pass_fds=(r,), **kw)
    finally:
        os.close(r)


@pytest.mark.parametrize("option", FILE_SPELLINGS + FD_SPELLINGS)
def test_enc_and_dec_with_a_skcipher_take_every_spelling(d, option):
    key, data = (d / "xts.key").read_bytes(), os.urandom(5008)
    want = aes(key, modes.XTS(IV), data)
    p = run_with_key(option, d / "xts.key", ["enc", "-c", "xts(aes)", "--iv", IV.hex()], input=data)
    assert p.returncode == 0 and p.stdout == want, p.stderr
    p = run_with_key(option, d / "xts.key", ["dec", "-c", "xts(aes)", "--iv", IV.hex()], input=want)
    assert p.returncode == 0 and p.stdout == data, p.stderr


@pytest.mark.parametrize("option", FILE_SPELLINGS + FD_SPELLINGS)
def test_enc_and_dec_with_an_aead_take_every_spelling(d, option):
    ref, data = ChaCha20Poly1305((d / "aead.key").read_bytes()), os.urandom(3000)
    want = ref.encrypt(NONCE, data, b"hdr")
    common = ["-c", AEAD, "--iv", NONCE.hex(), "--aad", b"hdr".hex()]
    p = run_with_key(option, d / "aead.key", ["enc", *common], input=data)
    assert p.returncode == 0 and p.stdout == want, p.stderr
    p = run_with_key(option, d / "aead.key", ["dec", *common], input=want)
    assert p.returncode == 0 and p.stdout == data, p.stderr


@pytest.mark.parametrize("option", FILE_SPELLINGS)
def test_disk_takes_both_spellings(d, option):
    key, orig = (d / "xts.key").read_bytes(), os.urandom(8 * 512)
    (d / "img").write_bytes(orig)
    common = [str(d / "img"), "--cipher", "aes-xts-plain64", option, str(d / "xts.key")]
    p = cli(["disk", "encrypt", *common])
    assert p.returncode == 0, p.stderr
    want = b"".join(aes(key, modes.XTS(n.to_bytes(8, "little") + bytes(8)), orig[512 * n:512 * (n + 1)])
                    for n in range(8))
    assert (d / "img").read_bytes() == want
    p = cli(["disk", "decrypt", *common])
    assert p.returncode == 0, p.stderr
    assert (d / "img").read_bytes() == orig


@pytest.mark.parametrize("command, shown, hidden", [
    (["enc"], ["--key-file PATH", "--key-fd N"], ["--keyfile", "--keyfd"]),
    (["dec"], ["--key-file PATH", "--key-fd N"], ["--keyfile", "--keyfd"]),
    (["disk"], ["--key-file PATH"], ["--keyfile"]),
])
def test_help_shows_the_canonical_spelling_only(command, shown, hidden):
    p = cli([*command, "--help"])
    assert p.returncode == 0, p.stderr
    text = p.stdout.decode()
    for word in shown:
        assert word in text, text
    for word in hidden:
        assert word not in text, text


@pytest.mark.parametrize("args", [
    ["enc", "-c", "xts(aes)", "--key-file", "{key}", "--keyfile", "{key}"],
    ["dec", "-c", "xts(aes)", "--keyfd", "3", "--key-fd", "3"],
    ["enc", "-c", "xts(aes)", "--keyfile", "{key}", "--key-fd", "3"],
    ["disk", "encrypt", "{img}", "--cipher", "aes-xts-plain64", "--keyfile", "{key}", "--key-file", "{key}"],
])
def test_two_spellings_at_once_are_refused_in_one_line(d, args):
    (d / "img").write_bytes(bytes(4096))
    p = cli([a.format(key=d / "xts.key", img=d / "img") for a in args])
    assert_one_line_error(p, "not allowed with argument")
    assert p.returncode == 2
    assert (d / "img").read_bytes() == bytes(4096)


def test_disk_without_a_key_names_the_canonical_option(d):
    (d / "img").write_bytes(bytes(4096))
    p = cli(["disk", "encrypt", str(d / "img"), "--cipher", "aes-xts-plain64"])
    assert_one_line_error(p, "--key-file", "required")
    assert p.returncode == 2


def test_enc_without_a_key_names_both_canonical_options(d):
    p = cli(["enc", "-c", "xts(aes)", "--iv", IV.hex()], input=bytes(32))
    assert_one_line_error(p, "xts(aes)", "needs a key", "--key-file PATH", "--key-fd N")
    assert p.stdout == b""
