"""Thread safety: registry, module loading, templates and tfm use from 8 threads.

Every thread allocates transforms (one tfm per thread, as in the kernel),
encrypts and hashes, registers and unregisters uniquely named drivers, loads
and unloads a uniquely named module, and registers a uniquely named template
and builds an instance of it, all at the same time; every output is compared
with the result of a single-threaded run made before the threads start, and
the registry must end as it began.
"""

import sys
import threading
import traceback
import types

import crypto_api as capi
from crypto_api import registry
from crypto_api.algs import chacha_generic as cg

THREADS = 8
ROUNDS = 2


# ----------------------------------------------------------------- the drivers

def xchacha12_clone(driver: str, priority: int = 50) -> capi.SkcipherAlg:
    """Another xchacha12 driver, built on the generic core's public helpers."""
    return cg.chacha_alg("xchacha12", driver, priority, True, 12, cg.crypto_xchacha_crypt)


def passthrough_template(tname: str) -> capi.Template:
    """``tname(inner)``: an instance that runs its inner skcipher unchanged."""

    def init(tfm):
        tfm.ctx.child = capi.crypto_spawn_skcipher(tfm.alg.instance.spawns[0])

    def exit_(tfm):
        tfm.ctx.child.free()

    def setkey(tfm, key):
        tfm.ctx.child.setkey(key)

    def crypt(req, enc):
        child = capi.skcipher_request_alloc(req.tfm.ctx.child)
        capi.skcipher_request_set_crypt(child, req.src, req.dst, req.cryptlen, req.iv)
        (capi.crypto_skcipher_encrypt if enc else capi.crypto_skcipher_decrypt)(child)

    def create(tmpl, tb):
        spawn = capi.crypto_grab_skcipher(capi.crypto_attr_alg_name(tb, 1, tname))
        inner = spawn.alg
        inst = capi.SkcipherAlg(
            cra_name=capi.crypto_inst_name(tname, inner.cra_name),
            cra_driver_name=capi.crypto_inst_name(tname, inner.cra_driver_name),
            cra_priority=inner.cra_priority, cra_blocksize=inner.cra_blocksize,
            min_keysize=inner.min_keysize, max_keysize=inner.max_keysize, ivsize=inner.ivsize,
            chunksize=inner.chunksize, setkey=setkey,
            encrypt=lambda r: crypt(r, True), decrypt=lambda r: crypt(r, False),
            init=init, exit=exit_)
        capi.skcipher_register_instance(tmpl, inst, [spawn])

    return capi.Template(name=tname, create=create)


def module_with_cipher(modname: str, driver: str) -> types.ModuleType:
    """An in-memory crypto module registering an ``aes`` driver named ``driver``."""
    from crypto_api.algs import aes_generic as ag
    import attrs
    alg = attrs.evolve(ag.ALG, cra_driver_name=driver, cra_priority=10, cra_module=None)
    mod = types.ModuleType(modname)
    mod.MODULE_NAME = modname
    mod.MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO(driver)
    mod.module_init = lambda: capi.crypto_register_cipher(alg)
    mod.module_exit = lambda: capi.crypto_unregister_cipher(alg)
    return mod


# ------------------------------------------------------------------ the inputs

def inputs(t: int, r: int):
    rnd = __import__("random").Random(1000 * t + r)
    data = bytes(rnd.getrandbits(8) for _ in range(16 + rnd.randrange(3000)))
    return {
        "key": bytes(rnd.getrandbits(8) for _ in range(32)),
        "hkey": bytes(rnd.getrandbits(8) for _ in range(1088)),
        "iv": bytes(rnd.getrandbits(8) for _ in range(32)),
        "data": data,
        "block": data[:16],
    }


def compute(inp, adiantum="adiantum(xchacha12,aes)", stream="xchacha12", tfms=None):
    """Every output the threads produce for one input set."""
    out = {}
    with capi.crypto_alloc_skcipher(adiantum) as a:
        a.setkey(inp["key"])
        out["adiantum"] = a.encrypt(inp["data"], inp["iv"])
        assert a.decrypt(out["adiantum"], inp["iv"]) == inp["data"]
    with capi.crypto_alloc_skcipher(stream) as s:
        s.setkey(inp["key"])
        out["xchacha12"] = s.encrypt(inp["data"], inp["iv"])
    with capi.crypto_alloc_skcipher("xchacha20") as s:
        s.setkey(inp["key"])
        out["xchacha20"] = s.encrypt(inp["data"], inp["iv"])
    with capi.crypto_alloc_shash("nhpoly1305") as h:
        h.setkey(inp["hkey"])
        out["nhpoly1305"] = h.digest(inp["data"])
    with capi.crypto_alloc_cipher("aes") as c:
        c.setkey(inp["key"])
        out["aes"] = c.encrypt_one(inp["block"])
    return out


# -------------------------------------------------------------------- the test

def worker(t, barrier, expected, errors):
    try:
        barrier.wait()
        capi.load_all()                                   # concurrent modprobe of everything
        mine = capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)")   # this thread's own tfm
        for r in range(ROUNDS):
            inp, want = inputs(t, r), expected[t, r]
            got = compute(inp)
            mine.setkey(inp["key"])
            got["mine"] = mine.encrypt(inp["data"], inp["iv"])
            for k, v in got.items():
                if v != want["adiantum" if k == "mine" else k]:
                    errors.append(f"thread {t} round {r}: {k} differs from the single-threaded run")

            # a uniquely named driver, an instance built on it, and its removal
            drv = f"xchacha12-thr{t}r{r}"
            alg = xchacha12_clone(drv)
            capi.crypto_register_skcipher(alg)
            try:
                inst = f"adiantum({drv},aes-generic,nhpoly1305-generic)"
                got = compute(inp, adiantum=inst, stream=drv)
                if got["adiantum"] != want["adiantum"] or got["xchacha12"] != want["xchacha12"]:
                    errors.append(f"thread {t} round {r}: {drv} or {inst} gave another result")
            finally:
                capi.crypto_unregister_skcipher(alg)
            if capi.crypto_has_alg(drv) or capi.crypto_has_alg(inst, 0, capi.CRYPTO_ALG_NOLOAD):
                errors.append(f"thread {t} round {r}: {drv} or its instance outlived unregistration")

            # a uniquely named module
            modname = f"thrmod{t}r{r}"
            capi.insmod(module_with_cipher(modname, f"aes-thr{t}r{r}"))
            try:
                with capi.crypto_alloc_cipher(f"aes-thr{t}r{r}") as c:
                    c.setkey(inp["key"])
                    if c.encrypt_one(inp["block"]) != want["aes"]:
                        errors.append(f"thread {t} round {r}: module driver gave another result")
            finally:
                capi.rmmod(modname)

            # a uniquely named template and an instance of it
            tmpl = passthrough_template(f"thrtmpl{t}r{r}")
            capi.crypto_register_template(tmpl)
            try:
                with capi.crypto_alloc_skcipher(f"thrtmpl{t}r{r}(xchacha12)") as s:
                    s.setkey(inp["key"])
                    if s.encrypt(inp["data"], inp["iv"]) != want["xchacha12"]:
                        errors.append(f"thread {t} round {r}: template instance gave another result")
            finally:
                capi.crypto_unregister_template(tmpl)
        mine.free()
    except BaseException:
        errors.append(f"thread {t}: {traceback.format_exc()}")
        barrier.abort()


def _state():
    """What must be the same after the run: entries, refcounts, modules, templates."""
    from crypto_api import template
    live = [(a.cra_driver_name, a.cra_refcnt) for a in registry.snapshot() if not a.is_larval]
    return sorted(live), sorted(capi.loaded_modules()), sorted(template.registered_templates())


def test_eight_threads_allocate_encrypt_register_unregister():
    capi.load_all()
    expected = {(t, r): compute(inputs(t, r)) for t in range(THREADS) for r in range(ROUNDS)}
    import gc
    gc.collect()
    before = _state()
    errors = []
    barrier = threading.Barrier(THREADS)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)                    # switch threads often: more interleavings
    try:
        threads = [threading.Thread(target=worker, args=(t, barrier, expected, errors))
                   for t in range(THREADS)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors, "\n".join(errors)
    gc.collect()
    after = _state()
    # instances of the stock templates may have been rebuilt; compare everything else
    strip = lambda s: ([e for e in s[0] if "thr" not in e[0]], s[1], s[2])  # noqa: E731
    assert strip(after) == strip(before)
    assert not [e for e in after[0] if "thr" in e[0]]


def test_one_tfm_per_thread_many_threads_same_algorithm():
    """Eight threads, each with its own tfm of the same algorithm, interleaving
    setkey and encrypt: every result equals the single-threaded one."""
    rounds = 30
    expected = {}
    with capi.crypto_alloc_skcipher("xchacha20") as s:
        for t in range(THREADS):
            for r in range(rounds):
                inp = inputs(t, r)
                s.setkey(inp["key"])
                expected[t, r] = s.encrypt(inp["data"], inp["iv"])
    errors = []
    barrier = threading.Barrier(THREADS)

    def run(t):
        try:
            with capi.crypto_alloc_skcipher("xchacha20") as s:
                barrier.wait()
                for r in range(rounds):
                    inp = inputs(t, r)
                    s.setkey(inp["key"])
                    if s.encrypt(inp["data"], inp["iv"]) != expected[t, r]:
                        errors.append((t, r))
        except BaseException:
            errors.append(traceback.format_exc())
            barrier.abort()

    threads = [threading.Thread(target=run, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors


def test_concurrent_first_lookup_builds_one_instance():
    """Eight threads asking at once for an instance nobody built yet get the
    same single registered instance (no EEXIST, no duplicate)."""
    drv = "xchacha12-thr-once"
    alg = xchacha12_clone(drv)
    capi.crypto_register_skcipher(alg)
    name = f"adiantum({drv},aes-generic,nhpoly1305-generic)"
    errors, drivers = [], []
    barrier = threading.Barrier(THREADS)

    def run():
        try:
            barrier.wait()
            with capi.crypto_alloc_skcipher(name) as tfm:
                drivers.append(tfm.alg)
        except BaseException:
            errors.append(traceback.format_exc())

    try:
        threads = [threading.Thread(target=run) for _ in range(THREADS)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert not errors, errors
        assert len(drivers) == THREADS and all(d is drivers[0] for d in drivers)
        assert len([a for a in registry.snapshot() if a.cra_driver_name == name]) == 1
    finally:
        drivers.clear()
        import gc
        gc.collect()
        capi.crypto_unregister_skcipher(alg)
