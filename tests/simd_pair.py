"""The /proc/crypto records of a SIMD-wrapped driver pair (crypto/simd.c):
the public wrapper (async, not internal) and its ``__`` internal algorithm
(sync, internal), both with the fields given.  Shared by the x86 driver tests."""


def assert_simd_pair(recs, driver, name, module, fields):
    """``recs``: driver name -> record (tests/conftest.py's proc_records)."""
    wrapper, inner = recs[driver], recs["__" + driver]
    assert (wrapper["name"], wrapper["module"], wrapper["async"], wrapper["internal"]) == \
        (name, module, "yes", "no")
    assert (inner["name"], inner["module"], inner["async"], inner["internal"]) == \
        ("__" + name, module, "no", "yes")
    for rec in (wrapper, inner):
        assert {k: rec[k] for k in fields} == fields
    return wrapper, inner
