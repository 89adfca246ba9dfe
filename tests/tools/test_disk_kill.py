"""SIGKILL at random points of ``crypto-api disk`` in place, then the same command.

Each run is a forked copy of this process (crypto_api already imported, so a
run starts in milliseconds) killed with SIGKILL after a random delay, over
and over, until a run is allowed to finish; the image must then equal the
one-shot reference encryption: no sector lost, none encrypted twice.
"""

import os
import random
import signal
import time

import pytest

import crypto_api as capi
from crypto_api.__main__ import main
from dmcrypt_ref import journal_done, reference_image

KILLS = 40                       # kills, each at a random point after the job's journal exists


def forked_run(argv):
    pid = os.fork()
    if pid == 0:                                   # the child: run the command, never return
        rc = 99
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
            rc = main(argv)
        finally:
            os._exit(rc)
    return pid


ADIANTUM = ("xchacha12,aes-adiantum-plain64", "adiantum(xchacha12,aes)", 32)
AES_XTS = ("aes-xts-plain64", "xts(aes)", 64)


@pytest.mark.parametrize("resilience, sector_size, cipher, jobs", [
    ("journal", 512, ADIANTUM, 1), ("checksum", 512, ADIANTUM, 1), ("journal", 4096, ADIANTUM, 1),
    ("checksum", 4096, AES_XTS, 1), ("journal", 512, AES_XTS, 2), ("checksum", 512, ADIANTUM, 2),
    ("journal", 512, ADIANTUM, 3), ("checksum", 4096, AES_XTS, 4)])     # several batches in flight
def test_sigkill_at_random_points_then_the_same_command_finishes(tmp_path, resilience, sector_size, cipher,
                                                                 jobs):
    spec, algorithm, keylen = cipher
    rng = random.Random()
    seed = rng.randrange(1 << 32)
    rng.seed(seed)
    key = os.urandom(keylen)
    (tmp_path / "key").write_bytes(key)
    orig = os.urandom(1 << 20)
    want = reference_image(orig, key, algorithm, sector_size=sector_size)
    path = tmp_path / "img"
    jpath = str(path) + ".crypto-api-journal"
    argv = ["disk", "encrypt", str(path), "--cipher", spec,
            "--key-file", str(tmp_path / "key"), "--sector-size", str(sector_size),
            "--batch-size", "8K", "--resilience", resilience, "--jobs", str(jobs)]
    capi.crypto_alloc_skcipher(algorithm).free()     # the instance exists before forking

    def fresh_job():
        path.write_bytes(orig)
        if os.path.exists(jpath):
            os.unlink(jpath)

    fresh_job()                                    # one clean run sets the scale of the delays
    t0 = time.monotonic()
    _, status = os.waitpid(forked_run(argv), 0)
    span = time.monotonic() - t0
    assert os.waitstatus_to_exitcode(status) == 0 and path.read_bytes() == want
    landed = jobs = attempts = 0
    fresh_job()
    while landed < KILLS:
        attempts += 1
        assert attempts < 10 * KILLS, f"seed {seed}: the runs finish before they can be killed"
        pid = forked_run(argv)
        done, status = os.waitpid(pid, os.WNOHANG)
        while done == 0 and not os.path.exists(jpath):     # a job's first run: until its journal exists
            time.sleep(0.0005)
            done, status = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            time.sleep(rng.uniform(0, span / 6))
            done, status = os.waitpid(pid, os.WNOHANG)
        if done == 0:                              # still running: kill it
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            if os.WIFSIGNALED(status):
                landed += 1
                continue
        assert os.waitstatus_to_exitcode(status) == 0, f"seed {seed}"
        span *= 0.7                                # the runs got faster: kill sooner
        assert path.read_bytes() == want, f"seed {seed}: job {jobs} after {landed} kills"
        assert journal_done(path)
        jobs += 1
        fresh_job()
    _, status = os.waitpid(forked_run(argv), 0)     # the same command finishes the last job
    assert os.waitstatus_to_exitcode(status) == 0
    assert path.read_bytes() == want, f"seed {seed}"
    assert journal_done(path)
