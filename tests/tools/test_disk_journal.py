"""The in-place journal of ``crypto-api disk`` (tools/disk_journal.py, disk_engine.py).

A fault is injected at every point where the tool writes or syncs (each
``os.pwrite``, ``os.fdatasync`` and ``os.fsync`` of the image, the journal
and its directory):
the run dies there (as from SIGKILL, possibly with that write torn), or the
call fails with ENOSPC or EIO.  Then the same command is run again and the
image must equal a one-shot reference encryption: no sector lost, none
processed twice.  Real kills are in test_disk_kill.py, a real full disk in
test_disk_enospc.py.
"""

import errno
import os
import signal
import subprocess
import sys
import time

import pytest

from crypto_api.__main__ import main
from dmcrypt_ref import journal_done, reference_image

ADIANTUM = "xchacha12,aes-adiantum-plain64"
ENV = dict(os.environ, CRYPTO_API_SELFTESTS="off")


class Killed(BaseException):
    """The process 'died' here: nothing after this point runs."""


class Faults:
    """Counts os.pwrite/os.fdatasync/os.fsync calls; at call number ``at`` does ``kind``."""

    def __init__(self, monkeypatch, at=None, kind="kill", only=None):
        self.n = 0
        self.at, self.kind, self.only = at, kind, only
        self.real_pwrite, self.real_fsync, self.real_fdatasync = os.pwrite, os.fsync, os.fdatasync
        monkeypatch.setattr(os, "pwrite", self.pwrite)
        monkeypatch.setattr(os, "fsync", self.fsync)
        monkeypatch.setattr(os, "fdatasync", self.fdatasync)

    def _hit(self, op):
        if self.only is not None and op != self.only:
            return False
        hit = self.n == self.at
        self.n += 1
        return hit

    def pwrite(self, fd, data, pos):
        if self._hit("pwrite"):
            if self.kind == "torn":                  # part of it reaches the file, then death
                self.real_pwrite(fd, memoryview(data)[:len(data) // 2 + 7], pos)
                raise Killed()
            if self.kind == "torn-page":             # Linux: a killed write stops at a page boundary
                cut = (len(data) // 2) // 4096 * 4096
                self.real_pwrite(fd, memoryview(data)[:cut], pos)
                raise Killed()
            self._fail()
        return self.real_pwrite(fd, data, pos)

    def fsync(self, fd):
        if self._hit("sync"):
            self._fail()
        return self.real_fsync(fd)

    def fdatasync(self, fd):
        if self._hit("sync"):
            self._fail()
        return self.real_fdatasync(fd)

    def _fail(self):
        if self.kind in ("kill", "torn", "torn-page"):
            raise Killed()
        raise OSError({"enospc": errno.ENOSPC, "eio": errno.EIO}[self.kind], os.strerror(
            {"enospc": errno.ENOSPC, "eio": errno.EIO}[self.kind]))


@pytest.fixture
def job(tmp_path):
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)
    orig = os.urandom(64 * 1024)
    path = tmp_path / "img"

    def args(*extra, action="encrypt"):
        return ["disk", action, str(path), "--cipher", ADIANTUM, "--key-file", str(tmp_path / "key"),
                "--batch-size", "8K", *extra]

    return path, orig, key, args


def count_points(monkeypatch, path, orig, args):
    path.write_bytes(orig)
    with monkeypatch.context() as m:
        f = Faults(m)
        assert main(args) == 0
    return f.n


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("resilience", ["journal", "checksum"])
@pytest.mark.parametrize("kind", ["kill", "torn-page", "enospc", "eio"])
def test_a_fault_at_every_write_and_sync_then_the_same_command_finishes(job, monkeypatch, capsys,
                                                                        resilience, kind, jobs):
    path, orig, key, args = job
    argv = args("--resilience", resilience, "--jobs", jobs)
    want = reference_image(orig, key)
    points = count_points(monkeypatch, path, orig, argv)
    assert points >= 4 * 8 + 3                       # 8 batches: record, sync, write, sync each
    for at in range(points):
        path.write_bytes(orig)
        with monkeypatch.context() as m:
            Faults(m, at, kind)
            try:
                rc = main(argv)
            except Killed:
                rc = "killed"
        err = capsys.readouterr().err
        if rc != "killed":
            assert rc in (0, 1), (at, rc, err)
            if rc == 1:
                assert err.count("\n") == 1 and errno.errorcode[errno.ENOSPC if kind == "enospc" else errno.EIO] in err
                assert "run the same command again" in err or "is unchanged" in err, err
        assert main(argv) == 0, (at, capsys.readouterr().err)
        assert path.read_bytes() == want, f"fault {kind} at point {at}"
        assert journal_done(path) and not os.path.exists(str(path) + ".crypto-api-journal.new")


@pytest.mark.parametrize("resilience", ["journal", "checksum"])
def test_a_job_killed_with_one_jobs_count_is_finished_with_another(job, monkeypatch, capsys, resilience):
    """--jobs is not part of the job: the same command with another --jobs finishes it."""
    path, orig, key, args = job
    want = reference_image(orig, key)
    points = count_points(monkeypatch, path, orig, args("--resilience", resilience, "--jobs", "2"))
    for at in range(3, points, 5):
        path.write_bytes(orig)
        for jobs, fault_at in (("2", at), ("3", 4)):     # killed with 2 jobs, then with 3
            with monkeypatch.context() as m:
                Faults(m, fault_at, "torn-page")
                try:
                    main(args("--resilience", resilience, "--jobs", jobs))
                except Killed:
                    continue
            assert jobs == "3", "the first run was not killed"     # the rerun may finish first
        assert main(args("--resilience", resilience, "--jobs", "1")) == 0, capsys.readouterr().err
        assert path.read_bytes() == want, at
        assert journal_done(path)


@pytest.mark.parametrize("kind", ["kill", "torn"])
def test_a_second_fault_during_the_recovery_is_recovered_too(job, monkeypatch, capsys, kind):
    path, orig, key, args = job
    argv = args()
    want = reference_image(orig, key)
    points = count_points(monkeypatch, path, orig, argv)
    for at in range(5, points, 3):
        path.write_bytes(orig)
        for fault_at in (at, 0, 1, 2):           # die again at the rerun's first writes and syncs
            with monkeypatch.context() as m:
                Faults(m, fault_at, kind)
                try:
                    main(argv)
                except Killed:
                    pass
        capsys.readouterr()
        assert main(argv) == 0
        assert path.read_bytes() == want, at


def test_a_torn_record_falls_back_to_the_batch_before(job, monkeypatch, capsys):
    """Any cut of a journal record write (not only at page boundaries) is
    detected by the record's digest."""
    path, orig, key, args = job
    argv = args()
    want = reference_image(orig, key)
    points = count_points(monkeypatch, path, orig, argv)
    for at in range(points):
        path.write_bytes(orig)
        with monkeypatch.context() as m:
            Faults(m, at, "torn")
            try:
                main(argv)
            except Killed:
                pass
        assert main(argv) == 0
        assert path.read_bytes() == want, at


def test_torn_sector_journal_repairs_checksum_refuses(job, monkeypatch, capsys):
    """A sector left half old, half new (a power cut on a disk without atomic
    sector writes) is repaired from the copy with resilience journal; with
    checksum it cannot be identified and the run says so (EUCLEAN)."""
    path, orig, key, args = job
    want = reference_image(orig, key)
    for resilience in ("journal", "checksum"):
        path.write_bytes(orig)
        with monkeypatch.context() as m:     # the 3rd pwrite is the first batch's image write
            Faults(m, 2, "torn", only="pwrite")
            with pytest.raises(Killed):
                main(args("--resilience", resilience))
        capsys.readouterr()
        rc = main(args("--resilience", resilience))
        err = capsys.readouterr().err
        if resilience == "journal":
            assert rc == 0 and path.read_bytes() == want
        else:
            assert rc == 1 and "EUCLEAN" in err and "torn" in err and "sector 8" in err, err


def test_eio_on_the_final_fsync_keeps_the_journal_and_the_rerun_finishes(job, monkeypatch, capsys):
    path, orig, key, args = job
    path.write_bytes(orig)
    img_fsyncs = []
    real = os.fdatasync

    def fsync(fd):
        if os.path.samefile(f"/proc/self/fd/{fd}", path):
            img_fsyncs.append(fd)
            if len(img_fsyncs) == 8:                 # the 8th batch is the last: its sync is the final one
                raise OSError(errno.EIO, "Input/output error")
        return real(fd)

    with monkeypatch.context() as m:
        m.setattr(os, "fdatasync", fsync)
        assert main(args()) == 1
    err = capsys.readouterr().err
    assert "EIO" in err and "65536 of 65536" not in err and "run the same command again" in err, err
    assert os.path.exists(str(path) + ".crypto-api-journal")
    assert main(args()) == 0
    assert path.read_bytes() == reference_image(orig, key)
    assert journal_done(path)


def leave_journal(monkeypatch, argv, at=20):
    with monkeypatch.context() as m:
        Faults(m, at, "kill")
        with pytest.raises(Killed):
            main(argv)


@pytest.mark.parametrize("change, words", [
    (["--sector-size", "4096"], ["--sector-size 4096 here, 512 in the journal"]),
    (["--skip", "8"], ["--skip 8 here, 0 in the journal"]),
    (["--offset", "8"], ["--offset (bytes) 4096 here, 0 in the journal"]),
    (["--resilience", "checksum"], ["--resilience checksum here, journal in the journal"]),
    (["--iv-large-sectors"], ["--iv-large-sectors True here"]),
    (["--cipher", "xchacha20,aes-adiantum-plain64"], ["adiantum(xchacha20,aes) here"]),
    (["--key-file", "{other}"], ["key differs"]),
    (["ACTION=decrypt"], ["action decrypt here, encrypt in the journal"]),
])
def test_a_journal_for_other_parameters_is_refused_naming_the_command(job, monkeypatch, capsys,
                                                                      tmp_path, change, words):
    path, orig, key, args = job
    path.write_bytes(orig)
    leave_journal(monkeypatch, args())
    before = path.read_bytes()
    (tmp_path / "other").write_bytes(os.urandom(32))
    action = "decrypt" if change == ["ACTION=decrypt"] else "encrypt"
    extra = [] if action == "decrypt" else [c.format(other=tmp_path / "other") for c in change]
    argv = args(action=action)
    if "--cipher" in extra or "--key-file" in extra:
        opt = extra[0]
        argv[argv.index(opt) + 1] = extra[1]
        extra = []
    assert main(argv + extra) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "EEXIST" in err and "does not match" in err, err
    for w in words:
        assert w in err, err
    assert f"crypto-api disk encrypt {path} --cipher 'capi:adiantum(xchacha12,aes)-plain64'" in err
    assert path.read_bytes() == before                   # the refused run changed nothing
    assert main(["disk", "encrypt", str(path), "--cipher", "capi:adiantum(xchacha12,aes)-plain64",
                 "--key-file", str(tmp_path / "key"), "--sector-size", "512", "--offset", "0",
                 "--size", "128", "--skip", "0", "--resilience", "journal"]) == 0
    assert path.read_bytes() == reference_image(orig, key)


def test_output_is_refused_while_an_in_place_job_is_unfinished(job, monkeypatch, capsys, tmp_path):
    path, orig, key, args = job
    path.write_bytes(orig)
    leave_journal(monkeypatch, args())
    assert main(args("--output", str(tmp_path / "out"))) == 1
    assert "is unfinished; finish it first: crypto-api disk encrypt" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
    assert main(args()) == 0                                # finished: a receipt does not block
    assert main(args("--output", str(tmp_path / "out"), action="decrypt")) == 0
    assert (tmp_path / "out").read_bytes() == orig


def test_a_damaged_journal_header_is_refused(job, monkeypatch, capsys):
    path, orig, key, args = job
    path.write_bytes(orig)
    leave_journal(monkeypatch, args())
    before = path.read_bytes()
    jpath = str(path) + ".crypto-api-journal"
    with open(jpath, "r+b") as f:
        f.seek(20)
        f.write(b"X")
    assert main(args()) == 1
    err = capsys.readouterr().err
    assert "EUCLEAN" in err and "damaged" in err and jpath in err, err
    assert path.read_bytes() == before


def test_sigint_stops_between_batches_and_the_same_command_finishes(tmp_path):
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)
    orig = os.urandom(16 << 20)
    path = tmp_path / "img"
    path.write_bytes(orig)
    argv = [sys.executable, "-m", "crypto_api", "disk", "encrypt", str(path), "--cipher", ADIANTUM,
            "--key-file", str(tmp_path / "key"), "--batch-size", "4K"]
    jpath = str(path) + ".crypto-api-journal"
    proc = subprocess.Popen(argv, env=ENV, stderr=subprocess.PIPE)
    try:
        while proc.poll() is None and not os.path.exists(jpath):
            time.sleep(0.001)
        time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = err.decode()
    if proc.returncode == 0:
        pytest.skip("the run finished before it could be interrupted")
    assert proc.returncode == 130 and "Traceback" not in err and err.count("\n") == 1, err
    assert "run the same command again to finish" in err and jpath in err, err
    assert os.path.exists(jpath)
    assert subprocess.run(argv, env=ENV).returncode == 0
    assert path.read_bytes() == reference_image(orig, key)
    assert journal_done(path)


def test_the_same_command_after_success_does_nothing_until_the_image_changes(job, capsys):
    """A run killed right after finishing leaves the user unsure whether it
    finished: the finished job's journal makes the same command a no-op on
    the same result, while a replaced image or another job proceeds."""
    path, orig, key, args = job
    path.write_bytes(orig)
    assert main(args()) == 0
    want = reference_image(orig, key)
    assert main(args()) == 0
    assert "nothing to do" in capsys.readouterr().err
    assert path.read_bytes() == want                     # not encrypted twice
    assert main(args(action="decrypt")) == 0             # another job replaces the receipt
    assert path.read_bytes() == orig
    fresh = os.urandom(len(orig))
    path.write_bytes(fresh)                              # a new image under the same name
    assert main(args(action="decrypt")) == 0
    assert "nothing to do" not in capsys.readouterr().err
    assert path.read_bytes() == reference_image(fresh, key, encrypt=False)


@pytest.fixture
def loop_device(tmp_path):
    """A loop block device over a file (as root), detached afterwards."""
    backing = tmp_path / "backing"
    backing.write_bytes(os.urandom(256 << 10))
    r = subprocess.run(["losetup", "-f", "--show", str(backing)], capture_output=True, text=True)
    if r.returncode or not r.stdout.strip().startswith("/dev/"):
        pytest.skip(f"no loop device here: {r.stderr.strip() or 'losetup failed'}")
    dev = r.stdout.strip()
    yield dev, backing
    subprocess.run(["losetup", "-d", dev], check=True)


def test_a_block_device_needs_a_journal_path(loop_device, tmp_path, capsys):
    dev, backing = loop_device
    orig = backing.read_bytes()
    key = os.urandom(32)
    (tmp_path / "key").write_bytes(key)
    argv = ["disk", "encrypt", dev, "--cipher", ADIANTUM, "--key-file", str(tmp_path / "key")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"{dev}: a block device needs --journal PATH" in err, err
    assert not os.path.exists(dev + ".crypto-api-journal")
    assert main(argv + ["--output", str(tmp_path / "copy")]) == 0     # read elsewhere: no journal
    assert (tmp_path / "copy").read_bytes() == reference_image(orig, key)
    assert main(argv + ["--journal", str(tmp_path / "j")]) == 0
    with open(dev, "rb") as f:
        assert f.read() == reference_image(orig, key)


def test_a_symlink_to_the_image_finds_the_same_journal(job, monkeypatch, capsys, tmp_path):
    path, orig, key, args = job
    path.write_bytes(orig)
    leave_journal(monkeypatch, args())
    link = tmp_path / "link"
    link.symlink_to(path)
    argv = args()
    argv[2] = str(link)
    assert main(argv) == 0                              # resumes the job, not a second one
    assert path.read_bytes() == reference_image(orig, key)
    assert not os.path.exists(str(link) + ".crypto-api-journal")


def _journal_version(path, unfinished=False):
    """The format version of IMAGE's journal (None: none, or ``unfinished`` and its job is done)."""
    from crypto_api.tools.disk_journal import Journal, default_path
    if not os.path.exists(default_path(str(path))):
        return None
    j = Journal.open(default_path(str(path)))
    try:
        last = j.latest()
        return None if unfinished and last is not None and last.done else j.version
    finally:
        j.close()


@pytest.mark.parametrize("resilience, kind", [("journal", "torn"), ("journal", "enospc"),
                                              ("checksum", "torn-page"), ("checksum", "kill")])
def test_a_journal_of_the_previous_format_is_resumed_in_its_format(job, monkeypatch, capsys, resilience, kind):
    """A job started by a build that wrote format 1 (SHA-256 records and
    sector digests: the old sealing, made here by creating the journal in
    version 1) and killed at any write or sync is finished by this build,
    which keeps writing format 1 into that journal (a record in another
    format would read as absent, and the batch it names would be lost)."""
    from crypto_api.tools import disk_journal
    path, orig, key, args = job
    argv = args("--resilience", resilience)
    want = reference_image(orig, key)
    real_create = disk_journal.Journal.create.__func__

    def create_v1(cls, jpath, params, batch_bytes, version=None):
        return real_create(cls, jpath, params, batch_bytes, version=1)

    with monkeypatch.context() as m:
        m.setattr(disk_journal.Journal, "create", classmethod(create_v1))
        points = count_points(m, path, orig, argv)
    assert _journal_version(path) == 1
    assert points >= 4 * 8 + 3
    resumed = 0
    for at in range(points):
        path.write_bytes(orig)
        with monkeypatch.context() as m:
            m.setattr(disk_journal.Journal, "create", classmethod(create_v1))
            Faults(m, at, kind)
            try:
                main(argv)
            except Killed:
                pass
        capsys.readouterr()
        version = _journal_version(path, unfinished=True)
        assert main(argv) == 0, (at, capsys.readouterr().err)     # this build, unpatched
        assert path.read_bytes() == want, f"{kind} at point {at}"
        assert journal_done(path)
        resumed += version == 1
        if version == 1:                                           # a job begun in format 1 ends in it
            assert _journal_version(path) == 1
    assert resumed >= points // 2                                  # most kills left a format 1 job
    path.write_bytes(orig)
    os.unlink(str(path) + ".crypto-api-journal")
    assert main(argv) == 0 and _journal_version(path) == 2         # a new job: the current format
