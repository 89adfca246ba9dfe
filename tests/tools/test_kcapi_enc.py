"""``crypto-api enc`` / ``dec`` (tools/kcapi_enc.py), kcapi-enc style.

A few real subprocesses (files, stdin/stdout, the key on an inherited file
descriptor, bad arguments: one line on stderr, non-zero exit, no traceback),
checked against the library and, for XChaCha20, against pycryptodome; the
rest of the refusals run ``crypto_api.__main__.main`` in-process.
"""

import os
import subprocess
import sys

import pytest
from Crypto.Cipher import ChaCha20

import crypto_api as capi
from crypto_api.__main__ import main
from enc_cli import ENV, assert_one_line_error, cli

ADIANTUM = "adiantum(xchacha12,aes)"


@pytest.fixture
def files(tmp_path):
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)
    data = os.urandom(5000)
    (tmp_path / "in").write_bytes(data)
    return tmp_path, key, data


def test_enc_files_then_dec_stdin_stdout_keyfd(files):
    d, key, data = files
    iv = os.urandom(32)
    p = cli(["enc", "-c", ADIANTUM, "--keyfile", str(d / "key"), "--iv", iv.hex(),
             "-i", str(d / "in"), "-o", str(d / "out")])
    assert p.returncode == 0 and p.stderr == b"" and p.stdout == b""
    ct = (d / "out").read_bytes()
    with capi.crypto_alloc_skcipher(ADIANTUM) as tfm:
        tfm.setkey(key)
        assert ct == tfm.encrypt(data, iv)                    # one message, no padding
    r, w = os.pipe()
    os.write(w, key)
    os.close(w)
    try:
        p = cli(["dec", "--cipher", ADIANTUM, "--keyfd", str(r), "--iv", iv.hex()],
                input=ct, pass_fds=(r,))
    finally:
        os.close(r)
    assert p.returncode == 0, p.stderr
    assert p.stdout == data


def test_xchacha20_matches_pycryptodome(files):
    d, key, data = files
    nonce = os.urandom(24)
    iv = nonce + bytes(8)           # kernel XChaCha IV: 24-byte nonce, then the 64-bit block counter
    p = cli(["enc", "-c", "xchacha20", "--keyfile", str(d / "key"), "--iv", iv.hex()],
            input=data[:777])
    assert p.returncode == 0, p.stderr
    assert p.stdout == ChaCha20.new(key=key, nonce=nonce).encrypt(data[:777])


def test_bad_arguments_subprocess(files):
    d, _, _ = files
    p = cli(["enc", "--keyfile", str(d / "key")])
    assert_one_line_error(p, "-c/--cipher", "required")
    assert p.returncode == 2
    p = cli(["enc", "-c", ADIANTUM, "--keyfile", str(d / "key"), "--iv", "00" * 32],
            input=b"fifteen bytes!!")
    assert_one_line_error(p, "15 bytes", "at least 16")
    assert p.returncode == 1 and p.stdout == b""


def test_closed_stdout_is_a_one_line_error(files):
    """Started with stdout closed (``>&-``): EBADF in one line, no traceback."""
    d, _, _ = files
    p = subprocess.run(["sh", "-c", 'exec "$0" -m crypto_api "$@" >&-', sys.executable, "enc", "-c", "xchacha12",
                        "--keyfile", str(d / "key"), "--iv", "00" * 32, "-i", str(d / "in")],
                       env=ENV, stderr=subprocess.PIPE, timeout=120)
    assert_one_line_error(p, "crypto-api enc: [Errno 9] EBADF: standard output is closed")
    assert p.returncode == 1


def run_main(args, capsys):
    rc = main(args)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("args, words", [
    (["-c", "adiantum(xchacha12", "--keyfile", "{key}", "--iv", "00" * 32], ["ENOENT"]),
    (["-c", "aes", "--keyfile", "{key}"], ["ENOENT", "no skcipher"]),
    (["-c", ADIANTUM, "--keyfile", "{key}"], ["needs --iv", "32 bytes"]),
    (["-c", ADIANTUM, "--keyfile", "{key}", "--iv", "zz"], ["not a hex"]),
    (["-c", ADIANTUM, "--keyfile", "{key}", "--iv", "00" * 31], ["gives 31 bytes", "32 bytes"]),
    (["-c", ADIANTUM, "--iv", "00" * 32], ["needs a key"]),
    (["-c", ADIANTUM, "--keyfile", "{short}", "--iv", "00" * 32], ["key is 16 bytes"]),
    (["-c", ADIANTUM, "--keyfile", "{big}", "--iv", "00" * 32], ["more than 4096 bytes"]),
    (["-c", ADIANTUM, "--keyfile", "{missing}", "--iv", "00" * 32], ["No such file", "missing"]),
    (["-c", ADIANTUM, "--keyfile", "{dir}", "--iv", "00" * 32], ["Is a directory"]),
    (["-c", ADIANTUM, "--keyfd", "987", "--iv", "00" * 32], ["--key-fd 987", "Bad file descriptor"]),
    (["-c", ADIANTUM, "--keyfd", str(1 << 64), "--iv", "00" * 32], ["not a file descriptor"]),
    (["-c", ADIANTUM, "--keyfile", "{key}", "--iv", "00" * 32, "-i", "{missing}"], ["No such file"]),
    (["-c", ADIANTUM, "--keyfile", "{key}", "--iv", "00" * 32, "-i", "{tiny}"], ["15 bytes", "at least 16"]),
    (["-c", "x\0y", "--keyfile", "{key}"], ["EINVAL", "character"]),
    (["-c", "a" * 200, "--keyfile", "{key}"], ["ENAMETOOLONG"]),
])
def test_refusals_in_process(files, capsys, args, words):
    d, _, _ = files
    (d / "short").write_bytes(bytes(16))
    (d / "tiny").write_bytes(bytes(15))
    (d / "big").write_bytes(bytes(5000))
    (d / "dir").mkdir()
    names = {"key": d / "key", "short": d / "short", "tiny": d / "tiny", "big": d / "big",
             "missing": d / "missing", "dir": d / "dir"}
    args = [a.format(**{k: str(v) for k, v in names.items()}) for a in args]
    out_path = d / "never"
    rc, out, err = run_main(["enc", *args, "-o", str(out_path)], capsys)
    assert rc == 1
    assert err.startswith("crypto-api enc: ") and err.count("\n") == 1, err
    for w in words:
        assert w in err, err
    assert not out_path.exists()                 # nothing written before the checks passed


def test_argparse_errors_are_one_line(capsys):
    for args in (["enc"], ["enc", "-c", "x", "--keyfile", "a", "--keyfd", "3"],
                 ["enc", "-c", "x", "--keyfd", "three"], ["nosuchcommand"], ["enc", "-c", "x", "--bogus"]):
        with pytest.raises(SystemExit) as e:
            main(args)
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "error:" in err and "usage" not in err, err


def test_stream_cipher_any_length_and_block_cipher_needs_whole_blocks(files, capsys, register):
    """Stream ciphers take any length (even 1 byte); a cipher with 16-byte blocks
    that is not length-preserving refuses a length needing padding."""
    d, key, data = files
    (d / "one").write_bytes(b"x")
    rc, _, err = run_main(["enc", "-c", "xchacha12", "--keyfile", str(d / "key"), "--iv", "00" * 32,
                           "-i", str(d / "one"), "-o", str(d / "one.out")], capsys)
    assert rc == 0 and (d / "one.out").stat().st_size == 1

    def crypt(req):
        capi.scatterlist.sg_copy_from_bytes(req.dst, capi.scatterlist.sg_copy_to_bytes(req.src, req.cryptlen))

    register(capi.SkcipherAlg(cra_name="ecbtoy", cra_driver_name="ecbtoy-test", cra_priority=1,
                              cra_blocksize=16, min_keysize=32, max_keysize=32,
                              setkey=lambda t, k: None, encrypt=crypt, decrypt=crypt))
    rc, _, err = run_main(["enc", "-c", "ecbtoy", "--keyfile", str(d / "key"), "-i", str(d / "in"),
                           "-o", str(d / "ecb.out")], capsys)
    assert rc == 1 and "not a multiple of its 16-byte block" in err and "pad" in err
    assert not (d / "ecb.out").exists()
    (d / "in32").write_bytes(data[:32])
    rc, _, err = run_main(["enc", "-c", "ecbtoy", "--keyfile", str(d / "key"), "-i", str(d / "in32"),
                           "-o", str(d / "ecb.out")], capsys)
    assert rc == 0 and (d / "ecb.out").read_bytes() == data[:32]


def test_failed_write_leaves_the_old_output_and_no_partial_file(tmp_path):
    from crypto_api.tools.output_target import open_output

    target = tmp_path / "out.bin"
    target.write_bytes(b"old contents")
    with pytest.raises(OSError, match="full disk"):
        with open_output(str(target)) as out:
            out.write(b"new, but cut short")
            raise OSError(28, "full disk")
    assert target.read_bytes() == b"old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


def test_new_output_file_gets_the_usual_permissions(tmp_path):
    from crypto_api.tools.output_target import open_output
    mask = os.umask(0o022)
    try:
        with open_output(str(tmp_path / "new.bin")) as out:
            out.write(b"data")
            out.commit()
    finally:
        os.umask(mask)
    assert (tmp_path / "new.bin").read_bytes() == b"data"
    assert (tmp_path / "new.bin").stat().st_mode & 0o777 == 0o644
