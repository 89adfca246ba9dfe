"""fpu.simd_choice(): the one SIMD / GENERIC / DECLINE rule, kept per context.

simd_disabled(), interrupt_context() and fpu_trace() live in contextvars, so
two asyncio tasks interleaving on one thread each see only their own switches
and traces; the open kernel_fpu_begin section stays per thread.
"""

import asyncio
import os

import pytest

import crypto_api as capi
from crypto_api.errors import CryptoError


def test_the_rule():
    assert capi.simd_choice() == capi.SIMD
    with capi.fpu_trace():
        assert capi.simd_choice() == capi.DECLINE
        with capi.simd_disabled():
            assert capi.simd_choice() == capi.GENERIC       # generic code opens no section
        capi.kernel_fpu_begin()
        try:
            assert capi.simd_choice() == capi.GENERIC
        finally:
            capi.kernel_fpu_end()
        assert capi.simd_choice() == capi.DECLINE
    for switch in (capi.simd_disabled, capi.interrupt_context):
        with switch():
            assert capi.simd_choice() == capi.GENERIC and not capi.crypto_simd_usable()
        assert capi.simd_choice() == capi.SIMD and capi.crypto_simd_usable()


def _tfm():
    try:
        tfm = capi.crypto_alloc_skcipher("xchacha12-simd")
    except CryptoError as e:
        pytest.skip(str(e))
    tfm.setkey(os.urandom(32))
    return tfm


def test_two_tasks_on_one_loop_see_only_their_own_state():
    tfm = _tfm()
    iv = os.urandom(32)
    plain = os.urandom(4 * 4096)
    want = tfm.encrypt(plain, iv)
    seen = {}

    async def switched(step_in, step_out):
        with capi.simd_disabled(), capi.interrupt_context():
            with capi.fpu_trace() as tr:
                step_in.set()
                await step_out.wait()               # the other task runs now
                seen["switched"] = (capi.simd_choice(), capi.crypto_simd_usable(),
                                    capi.fpu_tracing(), capi.may_use_simd())
                assert tfm.encrypt(plain, iv) == want       # generic: no section
            seen["switched trace"] = tr.nbytes

    async def plain_task(step_in, step_out):
        await step_in.wait()                        # the other task is inside its switches
        seen["plain"] = (capi.simd_choice(), capi.crypto_simd_usable(), capi.fpu_tracing(),
                         capi.may_use_simd())
        with capi.fpu_trace() as tr:
            assert tfm.encrypt(plain, iv) == want           # SIMD, sections recorded here
        seen["plain trace"] = tr.nbytes
        step_out.set()

    async def main():
        step_in, step_out = asyncio.Event(), asyncio.Event()
        await asyncio.gather(switched(step_in, step_out), plain_task(step_in, step_out))

    asyncio.run(main())
    assert seen["plain"] == (capi.SIMD, True, False, True)
    assert seen["switched"] == (capi.GENERIC, False, True, False)
    assert seen["plain trace"] == [4096] * 4
    assert seen["switched trace"] == []                     # nothing of the other task's


def test_a_trace_in_one_task_records_only_that_task():
    tfm = _tfm()
    iv = os.urandom(32)
    order = []

    async def traced(other_done):
        with capi.fpu_trace() as tr:
            assert capi.simd_choice() == capi.DECLINE
            tfm.encrypt(bytes(8192), iv)
            await other_done.wait()
            tfm.encrypt(bytes(4096), iv)
        order.append("traced")
        return tr.nbytes

    async def untraced(other_done):
        await asyncio.sleep(0)
        assert capi.simd_choice() == capi.SIMD and not capi.fpu_tracing()
        capi.kernel_fpu_begin()                 # a section of this task's own
        capi.fpu_account(12345)
        capi.kernel_fpu_end()
        tfm.encrypt(bytes(3 * 4096), iv)
        order.append("untraced")
        other_done.set()

    async def main():
        done = asyncio.Event()
        return (await asyncio.gather(traced(done), untraced(done)))[0]

    assert asyncio.run(main()) == [4096, 4096, 4096]
    assert order == ["untraced", "traced"]


def test_a_task_starts_with_a_copy_of_its_creators_switches():
    async def child():
        before = capi.simd_choice()
        with capi.fpu_trace():
            pass
        return before, capi.simd_choice()

    async def main():
        with capi.simd_disabled():
            task = asyncio.ensure_future(child())
        # the creator left its switch before the child ran; the child keeps its copy
        assert capi.simd_choice() == capi.SIMD
        return await task

    assert asyncio.run(main()) == (capi.GENERIC, capi.GENERIC)
    assert capi.simd_choice() == capi.SIMD


def test_a_section_stays_per_thread_across_tasks():
    """An open kernel_fpu_begin belongs to the "CPU": another task on the same
    thread cannot open a second one (the first task slept inside its section,
    which the kernel forbids)."""
    async def holder(opened, release):
        capi.kernel_fpu_begin()
        try:
            opened.set()
            await release.wait()
        finally:
            capi.kernel_fpu_end()

    async def other(opened, release):
        await opened.wait()
        try:
            assert capi.in_kernel_fpu()
            with pytest.raises(capi.FpuUsageError, match="nested"):
                capi.kernel_fpu_begin()
        finally:
            release.set()

    async def main():
        opened, release = asyncio.Event(), asyncio.Event()
        await asyncio.gather(holder(opened, release), other(opened, release))

    asyncio.run(main())
    assert not capi.in_kernel_fpu() and capi.simd_choice() == capi.SIMD
