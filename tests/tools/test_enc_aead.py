"""``crypto-api enc`` / ``dec`` with an AEAD (tools/aead_crypt.py), kcapi-enc style.

Round trips against ``cryptography``'s ChaCha20Poly1305 (an independent
implementation) through both the one-pass driver and the template instance;
a tampered tag, text or associated data gives a non-zero exit, one line on
stderr and no output at all (no new file, an existing file as it was,
nothing on standard output); and SIGKILL while the input is spooled or the
output is written leaves the old file or the complete new one, nothing else.
"""

import os
import signal
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import given, settings
from hypothesis import strategies as st

from crypto_api.__main__ import main
from enc_cli import ENV, assert_one_line_error, cli, peak_rss_kib
from kernel_names import instance

AEAD = "rfc7539(chacha20,poly1305)"
#: the best driver (the one-pass one where the CPU has it) and the generic template instance
#: (by the followed kernel's driver names)
CIPHERS = [AEAD, instance("rfc7539(chacha20-generic,poly1305-generic)")]
NONCE = bytes(range(12))
MIB = 1 << 20


@pytest.fixture
def d(tmp_path):
    (tmp_path / "key").write_bytes(os.urandom(32))
    return tmp_path


def args(verb, d, cipher=AEAD, *extra):
    return [verb, "-c", cipher, "--keyfile", str(d / "key"), "--iv", NONCE.hex(), *extra]


def reference(d):
    return ChaCha20Poly1305((d / "key").read_bytes())


@pytest.mark.parametrize("cipher", CIPHERS)
def test_files_match_cryptography_both_ways(d, cipher):
    data, aad = os.urandom(300_001), os.urandom(29)
    (d / "in").write_bytes(data)
    (d / "aad").write_bytes(aad)
    p = cli(args("enc", d, cipher, "--aad-file", str(d / "aad"), "-i", str(d / "in"), "-o", str(d / "ct")))
    assert p.returncode == 0 and p.stderr == b"" and p.stdout == b""
    ct = (d / "ct").read_bytes()
    assert ct == reference(d).encrypt(NONCE, data, aad)       # tag appended, AD not in the output
    p = cli(args("dec", d, cipher, "--aad", aad.hex(), "-i", str(d / "ct"), "-o", str(d / "pt")))
    assert p.returncode == 0 and p.stderr == b""
    assert (d / "pt").read_bytes() == data


@pytest.mark.parametrize("cipher", CIPHERS)
def test_pipes_and_no_aad(d, cipher):
    data = os.urandom(70_000)
    ct = reference(d).encrypt(NONCE, data, None)
    p = cli(args("dec", d, cipher), input=ct)                 # stdin is a pipe: spooled first
    assert p.returncode == 0 and p.stdout == data, p.stderr
    p = cli(args("enc", d, cipher), input=data)
    assert p.returncode == 0 and p.stdout == ct, p.stderr


@settings(max_examples=20, deadline=None)
@given(data=st.binary(max_size=300), aad=st.binary(max_size=40))
def test_in_process_round_trips(tmp_path_factory, data, aad):
    d = tmp_path_factory.mktemp("aead")
    key = bytes(range(32))
    (d / "key").write_bytes(key)
    (d / "in").write_bytes(data)
    assert main(args("enc", d, AEAD, "--aad", aad.hex(), "-i", str(d / "in"), "-o", str(d / "ct"))) == 0
    assert (d / "ct").read_bytes() == ChaCha20Poly1305(key).encrypt(NONCE, data, aad)
    assert main(args("dec", d, AEAD, "--aad", aad.hex(), "-i", str(d / "ct"), "-o", str(d / "pt"))) == 0
    assert (d / "pt").read_bytes() == data


def _tampered(ct: bytes, aad: bytes, what: str):
    if what == "tag":
        return ct[:-1] + bytes([ct[-1] ^ 1]), aad
    if what == "text":
        return bytes([ct[0] ^ 0x80]) + ct[1:], aad
    return ct, aad[:-1] + bytes([aad[-1] ^ 4])


@pytest.mark.parametrize("cipher", CIPHERS)
@pytest.mark.parametrize("what", ["tag", "text", "aad"])
def test_a_tampered_message_writes_nothing(d, cipher, what):
    data, aad = os.urandom(100_000), b"header"
    ct, bad_aad = _tampered(reference(d).encrypt(NONCE, data, aad), aad, what)
    (d / "ct").write_bytes(ct)
    # a new file: never created
    p = cli(args("dec", d, cipher, "--aad", bad_aad.hex(), "-i", str(d / "ct"), "-o", str(d / "new")))
    assert_one_line_error(p, "EBADMSG", "authentication failed")
    assert sorted(os.listdir(d)) == ["ct", "key"]
    # an existing file: as it was
    (d / "old").write_bytes(b"old content")
    p = cli(args("dec", d, cipher, "--aad", bad_aad.hex(), "-i", str(d / "ct"), "-o", str(d / "old")))
    assert_one_line_error(p, "EBADMSG")
    assert (d / "old").read_bytes() == b"old content"
    assert sorted(os.listdir(d)) == ["ct", "key", "old"]
    # a file written in place (hard-linked: not replaced) and standard output: not a byte
    os.link(d / "old", d / "link")
    p = cli(args("dec", d, cipher, "--aad", bad_aad.hex(), "-i", str(d / "ct"), "-o", str(d / "link")))
    assert_one_line_error(p, "EBADMSG")
    assert (d / "old").read_bytes() == b"old content"
    p = cli(args("dec", d, cipher, "--aad", bad_aad.hex()), input=ct)
    assert_one_line_error(p, "EBADMSG")
    assert p.stdout == b""


def test_refusals_are_one_line(d):
    (d / "in").write_bytes(b"x" * 10)
    p = cli(args("dec", d, AEAD, "-i", str(d / "in")))         # shorter than the tag
    assert_one_line_error(p, "EINVAL", "16-byte tag")
    p = cli(args("enc", d, AEAD, "--aad", "0g", "-i", str(d / "in")))
    assert_one_line_error(p, "EINVAL", "--aad")
    p = cli(args("enc", d, AEAD, "--taglen", "17", "-i", str(d / "in")))
    assert_one_line_error(p, "EINVAL", "authsize 17")
    p = cli(["enc", "-c", "xchacha12", "--keyfile", str(d / "key"), "--iv", os.urandom(32).hex(),
             "--aad", "00", "-i", str(d / "in")])
    assert_one_line_error(p, "EINVAL", "--aad is for AEADs")
    p = cli(["enc", "-c", AEAD, "--keyfile", str(d / "key"), "-i", str(d / "in")])
    assert_one_line_error(p, "EINVAL", "--iv")
    assert sorted(os.listdir(d)) == ["in", "key"]


def written(pid):
    with open(f"/proc/{pid}/io") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("wchar:"))


def wait_written(p, n):
    import time
    while written(p.pid) < n:
        assert p.poll() is None, p.stderr.read()
        time.sleep(0.001)


@pytest.mark.parametrize("verb", ["enc", "dec"])
def test_killed_anywhere_leaves_the_old_file_or_the_whole_new_one(d, verb):
    """The input comes through a pipe: the child spools it to an anonymous
    file (its writes count), then writes the result.  Killed after spooling
    2 MiB of 16, once all is spooled, and while the output is written: the
    target is old or complete, and no file is left beside it."""
    data = os.urandom(16 * MIB)
    ref = reference(d)
    src = data if verb == "enc" else ref.encrypt(NONCE, data, b"hdr")
    want = ref.encrypt(NONCE, data, b"hdr") if verb == "enc" else data
    out = d / "out"
    # (bytes fed, written bytes to wait for): the spool writes whole MiB chunks
    for fed, wait_for in ((2 * MIB + 100, 2 * MIB), (len(src), 16 * MIB), (len(src), len(src) + MIB)):
        out.write_bytes(b"old content")
        p = subprocess.Popen([sys.executable, "-m", "crypto_api",
                              *args(verb, d, AEAD, "--aad", b"hdr".hex(), "-o", str(out))],
                             env=ENV, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdin.write(src[:fed])
        p.stdin.flush()
        if fed == len(src) and wait_for > fed:
            p.stdin.close()                                 # EOF: it goes on to the output
        try:
            wait_written(p, wait_for)
        except (AssertionError, FileNotFoundError, ProcessLookupError, StopIteration):
            pass                                            # it finished first
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=60)
        if not p.stdin.closed:
            p.stdin.close()
        p.stderr.close()
        assert out.read_bytes() in (b"old content", want)
        assert sorted(os.listdir(d)) == ["key", "out"]
    p = cli(args(verb, d, AEAD, "--aad", b"hdr".hex(), "-o", str(out)), input=src)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == want


@pytest.mark.parametrize("verb", ["enc", "dec"])
def test_the_one_pass_driver_holds_the_input_once(d, verb):
    """One buffer holds the message (read once, processed in place, wiped in
    place): 48 MiB costs at most about 48 MiB over a 1-byte run, not twice that."""
    import crypto_api as capi
    with capi.crypto_alloc_aead(AEAD) as tfm:
        if tfm.driver_name.startswith("rfc7539("):
            pytest.skip(f"{AEAD} is the template instance here (no one-pass driver on this CPU)")
    ref = reference(d)
    small, big = b"x", os.urandom(48 * MIB)
    for name, data in (("small", small), ("big", big)):
        (d / name).write_bytes(data if verb == "enc" else ref.encrypt(NONCE, data, None))
    base = peak_rss_kib(args(verb, d, AEAD, "-i", str(d / "small"), "-o", str(d / "out")))
    peak = peak_rss_kib(args(verb, d, AEAD, "-i", str(d / "big"), "-o", str(d / "out")))
    assert peak - base < 60 * 1024, (base, peak)
