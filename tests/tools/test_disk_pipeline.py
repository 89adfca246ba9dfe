"""The ``disk`` command's pipeline (tools/disk_pipeline.py) and a kill with batches in flight.

The pipeline's own properties: results in batch order whatever order the
workers finish in, N batches really prepared at once, never more than
``depth`` batches held, a failed batch's error raised in its turn (after the
batches before it), nothing claimed after close.  Then the command: a run
killed while several prepared batches wait behind the one being written
leaves those untouched, and the rerun writes every remaining sector exactly
once and gives the one-shot result.
"""

import os
import threading

import pytest

from crypto_api.__main__ import main
from crypto_api.tools import disk_engine
from crypto_api.tools.disk_journal import Journal
from crypto_api.tools.disk_pipeline import Pipeline
from dmcrypt_ref import journal_done, reference_image

#: A guard against a hang if the property is broken, never a speed limit:
#: a barrier that times out fails the test instead of blocking the suite.
HANG_GUARD_S = 120


def test_results_come_in_batch_order_whatever_order_the_workers_finish():
    later_done = threading.Event()

    def work(worker, k):
        if k == 0:
            later_done.wait(HANG_GUARD_S)        # batch 0 finishes only after batch 1
        if k == 1:
            later_done.set()
        return k * k

    with Pipeline(2, 6, work) as pipe:
        assert list(pipe) == [k * k for k in range(6)]
    assert later_done.is_set()


@pytest.mark.parametrize("count", [2, 3])
def test_count_workers_prepare_count_batches_at_once(count):
    """Each of the first ``count`` batches waits for all the others: only
    ``count`` threads running at once get past the barrier."""
    barrier = threading.Barrier(count, timeout=HANG_GUARD_S)
    workers = set()

    def work(worker, k):
        if k < count:
            barrier.wait()
        workers.add(worker)
        return k

    with Pipeline(count, 3 * count, work) as pipe:
        assert list(pipe) == list(range(3 * count))
    assert workers == set(range(count))


def test_never_more_than_depth_batches_claimed_and_not_released():
    lock = threading.Lock()
    held, most = set(), [0]

    def work(worker, k):
        with lock:
            held.add(k)
            most[0] = max(most[0], len(held))
        return k

    with Pipeline(3, 40, work, depth=4) as pipe:
        for k in pipe:
            with lock:
                held.discard(k)                  # the caller is done with batch k
    assert 1 <= most[0] <= 4


def test_a_failed_batch_raises_in_its_turn_after_the_ones_before():
    def work(worker, k):
        if k == 3:
            raise OSError(5, "EIO on batch 3")
        return k

    got = []
    with pytest.raises(OSError, match="batch 3"):
        with Pipeline(2, 10, work) as pipe:
            for k in pipe:
                got.append(k)
    assert got == [0, 1, 2]


def test_nothing_is_claimed_after_close():
    claimed = []
    first = threading.Event()

    def work(worker, k):
        claimed.append(k)
        first.set()
        return k

    pipe = Pipeline(2, 1000, work, depth=3)
    first.wait(HANG_GUARD_S)
    pipe.close()                                 # the caller took nothing: at most depth claims
    n = len(claimed)
    assert 1 <= n <= 3
    assert sorted(claimed) == list(range(n))


class Killed(BaseException):
    """The process 'died' at this point."""


@pytest.mark.parametrize("resilience", ["journal", "checksum"])
@pytest.mark.parametrize("kill_batch", [0, 3, 6])
def test_a_kill_with_prepared_batches_in_flight_then_every_sector_written_once(
        tmp_path, monkeypatch, resilience, kill_batch):
    """--jobs 3, 8 batches: the run dies on batch ``kill_batch``'s image
    write (half of it reaches the file) once the batches after it are
    prepared.  Those are untouched; the rerun finishes the recorded batch and
    writes every later sector exactly once; the result is the reference."""
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)
    bs, nb = 8192, 8
    orig = os.urandom(bs * nb)
    want = reference_image(orig, key)
    path = tmp_path / "img"
    path.write_bytes(orig)
    argv = ["disk", "encrypt", str(path), "--cipher", "xchacha12,aes-adiantum-plain64",
            "--key-file", str(tmp_path / "key"), "--batch-size", "8K", "--jobs", "3",
            "--resilience", resilience]
    ahead = min(nb - 1, kill_batch + 2)          # prepared before the kill: up to this batch
    prepared = threading.Event()
    real_prepare, real_put, real_pwrite = disk_engine._prepare, Journal.put, disk_engine.pwrite_full

    def prepare(vc, fd, geo, journal, seq, pos, n, encrypt, image, *reuse):
        out = real_prepare(vc, fd, geo, journal, seq, pos, n, encrypt, image, *reuse)
        if seq == ahead:
            prepared.set()
        return out

    def put(self, seq, rec):
        if seq == kill_batch:
            assert prepared.wait(HANG_GUARD_S), "the later batches were never prepared"
        real_put(self, seq, rec)

    def torn_write(fd, data, pos):
        if pos == kill_batch * bs:
            real_pwrite(fd, memoryview(data)[:len(data) // 2], pos)
            raise Killed()
        real_pwrite(fd, data, pos)

    with monkeypatch.context() as m:
        m.setattr(disk_engine, "_prepare", prepare)
        m.setattr(Journal, "put", put)
        m.setattr(disk_engine, "pwrite_full", torn_write)
        with pytest.raises(Killed):
            main(argv)
    img = path.read_bytes()
    assert img[:kill_batch * bs] == want[:kill_batch * bs]           # done before the kill
    assert img[(kill_batch + 1) * bs:] == orig[(kill_batch + 1) * bs:]   # prepared only: untouched

    writes = []

    def counting_write(fd, data, pos):
        if os.fstat(fd).st_ino == os.stat(path).st_ino:
            writes.append((pos, len(memoryview(data).cast("B"))))
        real_pwrite(fd, data, pos)

    with monkeypatch.context() as m:
        m.setattr(disk_engine, "pwrite_full", counting_write)
        assert main(argv) == 0
    assert path.read_bytes() == want
    assert journal_done(path)
    sectors = [s for pos, n in writes for s in range(pos // 512, (pos + n) // 512)]
    assert sorted(sectors) == list(range(kill_batch * bs // 512, nb * bs // 512))   # each once
