"""``crypto-api enc``/``dec`` with a streamed ChaCha20-Poly1305 (tools/aead_crypt.py), end to end.

Multi-chunk messages through the template instance and the one-pass driver:
each way of decrypting (one pass into a replaced regular file, two passes to
standard output, a device or a file written in place, a piped input) gives
``cryptography``'s plaintext and says so under ``--verbose``; a tampered
tag, text or AD is a non-zero exit with one line and no plaintext anywhere
(the target untouched, no file left beside it, nothing on a pipe); SIGKILL
during a one-pass decryption leaves the old target or the complete new one;
peak memory does not grow with the input; an AEAD without a streaming rule
still works, one shot, with a note.
"""

import os
import signal
import subprocess
import sys
import time

import attrs
import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

import crypto_api as capi
from aead_ref import rfc7539_driver
from crypto_api.__main__ import main
from crypto_api.version_rules import rule
from enc_cli import ENV, assert_one_line_error, cli
from kernel_names import driver, instance

RFC = "rfc7539(chacha20,poly1305)"
#: the instance of generic children, by the followed kernel's driver names
GENERIC = instance("rfc7539(chacha20-generic,poly1305-generic)")
CIPHERS = [RFC, GENERIC]
NONCE = bytes(range(12))
MIB = 1 << 20
AAD = b"associated header"


def argv(verb, d, cipher, *extra):
    return [verb, "-c", cipher, "--keyfile", str(d / "key"), "--iv", NONCE.hex(), "--aad", AAD.hex(), *extra]


@pytest.fixture
def d(tmp_path):
    (tmp_path / "key").write_bytes(os.urandom(32))
    return tmp_path


def ref(d):
    return ChaCha20Poly1305((d / "key").read_bytes())


@pytest.mark.parametrize("cipher", CIPHERS)
def test_every_way_gives_cryptographys_bytes_and_says_which(d, cipher):
    data = os.urandom(3 * MIB + 77)
    ct = ref(d).encrypt(NONCE, data, AAD)
    (d / "in").write_bytes(data)
    p = cli(argv("enc", d, cipher, "-v", "-i", str(d / "in"), "-o", str(d / "ct")))
    assert p.returncode == 0 and "streamed in one pass" in p.stderr.decode(), p.stderr
    assert (d / "ct").read_bytes() == ct
    p = cli(argv("enc", d, cipher), input=data)                       # pipe in, pipe out
    assert p.returncode == 0 and p.stdout == ct, p.stderr
    # one pass into a replaced file, from a file and from a pipe
    p = cli(argv("dec", d, cipher, "-v", "-i", str(d / "ct"), "-o", str(d / "pt")))
    assert p.returncode == 0 and "in one pass into an unnamed temporary file" in p.stderr.decode()
    assert (d / "pt").read_bytes() == data
    os.unlink(d / "pt")
    p = cli(argv("dec", d, cipher, "-v", "-o", str(d / "pt")), input=ct)
    assert p.returncode == 0 and "one pass" in p.stderr.decode(), p.stderr
    assert (d / "pt").read_bytes() == data
    # two passes: standard output (from a file, and from a spooled pipe), a file written in place
    p = cli(argv("dec", d, cipher, "-v", "-i", str(d / "ct")))
    assert p.returncode == 0 and p.stdout == data and "two passes" in p.stderr.decode()
    p = cli(argv("dec", d, cipher), input=ct)
    assert p.returncode == 0 and p.stdout == data, p.stderr
    os.link(d / "pt", d / "link")                                     # hard-linked: in place
    (d / "pt").write_bytes(b"old")
    p = cli(argv("dec", d, cipher, "-v", "-i", str(d / "ct"), "-o", str(d / "link")))
    assert p.returncode == 0 and "two passes" in p.stderr.decode(), p.stderr
    assert (d / "pt").read_bytes() == data


def test_verbose_names_the_instance_children(d):
    (d / "in").write_bytes(b"x" * 1000)
    p = cli(argv("enc", d, GENERIC, "-v", "-i", str(d / "in"), "-o", os.devnull))
    assert p.returncode == 0
    # 6.16+: the template hashes with the Poly1305 library (here the best poly1305)
    if rule("rfc7539.instance", "echo") == "library":
        with capi.crypto_alloc_shash("poly1305") as best:
            poly = best.driver_name
    else:
        poly = driver("poly1305-generic")
    children = f"through its children {driver('chacha20-generic')} and {poly}"
    assert children in p.stderr.decode(), p.stderr


def _tampered(ct, what):
    if what == "tag":
        return ct[:-1] + bytes([ct[-1] ^ 1]), AAD
    if what == "text":
        i = len(ct) // 2
        return ct[:i] + bytes([ct[i] ^ 0x80]) + ct[i + 1:], AAD
    return ct, AAD[:-1] + b"?"


@pytest.mark.parametrize("cipher", CIPHERS)
@pytest.mark.parametrize("what", ["tag", "text", "aad"])
def test_a_tampered_message_releases_no_plaintext(d, cipher, what):
    """3 MiB: a one-pass run has decrypted all of it before the tag fails."""
    data = os.urandom(3 * MIB + 5)
    ct, aad = _tampered(ref(d).encrypt(NONCE, data, AAD), what)
    (d / "ct").write_bytes(ct)

    def dec(*extra, **kw):
        return cli(["dec", "-c", cipher, "--keyfile", str(d / "key"), "--iv", NONCE.hex(),
                    "--aad", aad.hex(), *extra], **kw)

    p = dec("-i", str(d / "ct"), "-o", str(d / "new"))                   # a new file: never created
    assert_one_line_error(p, "EBADMSG", "authentication failed", "nothing written")
    assert sorted(os.listdir(d)) == ["ct", "key"]
    (d / "old").write_bytes(b"old content")
    for source in ({"args": ("-i", str(d / "ct"))}, {"args": (), "input": ct}):
        p = dec(*source["args"], "-o", str(d / "old"), input=source.get("input"))   # replaced
        assert_one_line_error(p, "EBADMSG")
        assert (d / "old").read_bytes() == b"old content"
        assert sorted(os.listdir(d)) == ["ct", "key", "old"]
        p = dec(*source["args"], input=source.get("input"))                         # a pipe
        assert_one_line_error(p, "EBADMSG")
        assert p.stdout == b""
    os.link(d / "old", d / "link")                                       # written in place
    p = dec("-i", str(d / "ct"), "-o", str(d / "link"))
    assert_one_line_error(p, "EBADMSG")
    assert (d / "old").read_bytes() == b"old content"


def _written(pid):
    with open(f"/proc/{pid}/io") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("wchar:"))


@pytest.mark.parametrize("fraction", [0.1, 0.5, 0.95, 2])
def test_sigkill_during_a_one_pass_decryption_leaves_old_or_new(d, fraction):
    """Killed when a share of the plaintext has gone to the unnamed file (2: at
    the end, maybe after the rename): the target is old or complete, nothing beside it."""
    data = os.urandom(32 * MIB)
    (d / "ct").write_bytes(ref(d).encrypt(NONCE, data, AAD))
    out = d / "out"
    out.write_bytes(b"old content")
    p = subprocess.Popen([sys.executable, "-m", "crypto_api",
                          *argv("dec", d, RFC, "-i", str(d / "ct"), "-o", str(out))],
                         env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while p.poll() is None and _written(p.pid) < fraction * len(data):
            time.sleep(0.0005)
    except (FileNotFoundError, ProcessLookupError, StopIteration):
        pass                                                   # it finished first
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=60)
    assert out.read_bytes() in (b"old content", data)
    assert sorted(os.listdir(d)) == ["ct", "key", "out"]


def _peak_rss_kib(args):
    """The peak RSS of one ``crypto-api`` run, measured by a wrapper process of its own."""
    probe = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
             "assert p.returncode == 0; print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    p = subprocess.run([sys.executable, "-c", probe, sys.executable, "-m", "crypto_api", *args],
                       env=ENV, capture_output=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return int(p.stdout)


@pytest.mark.parametrize("cipher", CIPHERS)
@pytest.mark.parametrize("way", ["enc", "dec one pass", "dec two passes"])
def test_peak_memory_does_not_grow_with_the_input(d, cipher, way):
    """64 MiB costs far less than 64 MiB over the same run on 1 KiB (constant memory;
    the one-shot path held the whole message)."""
    verb = way.split()[0]
    for name, n in (("small", 1024), ("big", 64 * MIB)):
        data = os.urandom(n)
        (d / name).write_bytes(data if verb == "enc" else ref(d).encrypt(NONCE, data, AAD))
    out = str(d / "out") if way != "dec two passes" else os.devnull
    base = _peak_rss_kib(argv(verb, d, cipher, "-i", str(d / "small"), "-o", out))
    peak = _peak_rss_kib(argv(verb, d, cipher, "-i", str(d / "big"), "-o", out))
    assert peak - base < 16 * 1024, (base, peak)


@pytest.mark.parametrize("name", ["aead-stream-test", "rfc7539(no-such-chacha,poly1305)"])
def test_an_aead_without_a_streaming_rule_goes_one_shot_with_a_note(tmp_path, capsys, name):
    """Not rfc7539-shaped, or rfc7539-named with children that do not exist."""
    alg = attrs.evolve(rfc7539_driver("aead-stream-test-driver"), cra_name=name)
    capi.crypto_register_aead(alg)
    try:
        key, data = bytes(range(32)), bytes(range(256)) * 40
        (tmp_path / "key").write_bytes(key)
        (tmp_path / "in").write_bytes(data)
        for verb, src, dst in (("enc", "in", "ct"), ("dec", "ct", "pt")):
            assert main([verb, "-c", "aead-stream-test-driver", "--keyfile", str(tmp_path / "key"), "-v",
                         "--iv", NONCE.hex(), "--aad", AAD.hex(),
                         "-i", str(tmp_path / src), "-o", str(tmp_path / dst)]) == 0
            err = capsys.readouterr().err
            assert err == (f"{verb}: aead-stream-test-driver: no streaming rule for this AEAD: the whole "
                           "message is processed in memory, in one request\n")
        assert (tmp_path / "ct").read_bytes() == ChaCha20Poly1305(key).encrypt(NONCE, data, AAD)
        assert (tmp_path / "pt").read_bytes() == data
    finally:
        capi.crypto_unregister_aead(alg)
