"""The kernel-version table's own consistency (crypto_api.kernels.table)."""

import itertools

import pytest

from crypto_api.kernels import KNOWN, query
from crypto_api.kernels.row import STATUSES
from crypto_api.kernels.table import rows

from crypto_api.kernels.versions import key
from crypto_api.machine.known import machines


def identities():
    out = {}
    for r in rows():
        for m in r.machines:
            out.setdefault((r.what, m, r.ours), []).append(r)
    return out


def test_rows_are_well_formed():
    known_machines = set(machines()) | {"*"}
    for r in rows():
        assert set(r.machines) <= known_machines, r
        assert r.until is None or key(r.since) < key(r.until), r
        assert r.source and r.status in STATUSES, r
        assert (r.priority is None) == (r.what == "template"), r
        if r.status != "kernel":
            assert r.note, f"{r.ours}: a {r.status} row says why"


def test_ranges_of_one_driver_do_not_overlap():
    for ident, rows in identities().items():
        for a, b in itertools.combinations(rows, 2):
            lo_a, hi_a = key(a.since), key(a.until) if a.until else (99,)
            lo_b, hi_b = key(b.since), key(b.until) if b.until else (99,)
            assert hi_a <= lo_b or hi_b <= lo_a, f"{ident}: {a.since}-{a.until} and {b.since}-{b.until}"


@pytest.mark.parametrize("version", KNOWN)
def test_each_version_registers_each_driver_name_once(version):
    for arch in machines():
        rows = [r for r in query.rows_for(version, arch) if r.what == "driver"]
        names = [r.driver for r in rows]
        assert len(names) == len(set(names)), (arch, version)


def _covered(rs):
    return {v for v in KNOWN for r in rs if query.covers(r, v)}


def test_project_drivers_are_in_every_version_their_module_has():
    """The decision written in the table: this project's own drivers stay in
    every version, except one that a kernel module registers beside its own
    drivers: that one is in exactly the versions where its module's drivers of
    the same form (internal ``__`` or public) are (xts-aria-avx512: 6.3+)."""
    gated = set()
    for r in rows():
        if r.status != "project":
            continue
        if r.since == KNOWN[0] and r.until is None:
            continue
        form = r.ours.startswith("__")
        module_rows = [k for k in rows() if k.status == "kernel" and k.module == r.module
                       and k.what == "driver" and k.ours.startswith("__") == form]
        assert module_rows and _covered([r]) == _covered(module_rows), r
        gated.add(r.ours)
    assert gated == {"__xts-aria-avx512", "xts-aria-avx512"}


def test_v50_names_are_the_projects():
    """The project's drivers are named as v5.0 named them: in 5.0 the table
    renames nothing and re-prioritises nothing (today's v5.0 behaviour stays)."""
    for r in rows():
        if query.covers(r, "5.0"):
            assert r.driver == r.ours, r


def test_unknown_version_is_refused_naming_the_known_ones():
    from crypto_api.errors import EINVAL, CryptoError
    with pytest.raises(CryptoError) as e:
        query.rows_for("6.20", "x86_64")
    assert e.value.errno == EINVAL
    assert "6.20" in str(e.value) and ", ".join(KNOWN) in str(e.value)


def test_the_specs_adiantum_and_chacha_names_per_version():
    """Spot checks against the other-arches reference's table of names per range (§5)."""
    assert query.snapshot("6.1", "arm64")["xchacha12-neon"] == ("xchacha12", 300)
    assert "xchacha12-neon" not in query.snapshot("6.18", "arm64")
    assert query.snapshot("6.18", "arm")["xchacha12-lib"] == ("xchacha12", 300)
    assert "poly1305-neon" not in query.snapshot("5.4", "arm64")
    assert query.snapshot("5.10", "arm64")["poly1305-neon"] == ("poly1305", 200)
    assert "chacha20-p10" not in query.snapshot("6.1", "ppc64le")
    assert query.snapshot("6.6", "ppc64le")["chacha20-p10"] == ("chacha20", 300)
    assert query.snapshot("6.19", "x86_64")["xts-aes-vaes-avx512"] == ("xts(aes)", 800)
    assert "xts-aes-vaes-avx10_256" not in query.snapshot("6.18", "x86_64")


@pytest.mark.parametrize("version, xctr", [
    ("5.15", {}),
    ("6.12", {"xctr-aes-aesni": 400}),
    ("6.18", {"xctr-aes-aesni-avx": 500, "xctr-aes-vaes-avx2": 600, "xctr-aes-vaes-avx512": 800}),
    ("6.19", {"xctr-aes-aesni-avx": 500, "xctr-aes-vaes-avx2": 600, "xctr-aes-vaes-avx512": 800}),
])
def test_the_x86_xctr_and_cts_drivers_per_version(version, xctr):
    """XCTR: 6.0's one driver, then one per generation (the 6.17 glue read);
    cts-cbc-aes-aesni from 5.12 (absent 5.10); internal twins only up to 6.15."""
    snap = query.snapshot(version, "x86_64")
    assert {d: p for d, (name, p) in snap.items() if name == "xctr(aes)"} == xctr
    assert ("cts-cbc-aes-aesni" in snap) == (key(version) >= key("5.12"))
    if "cts-cbc-aes-aesni" in snap:
        assert snap["cts-cbc-aes-aesni"] == ("cts(cbc(aes))", 400)
    internal = {d for d, (name, _p) in snap.items() if name in ("__xctr(aes)", "__cts(cbc(aes))")}
    assert internal == ({"__xctr-aes-aesni", "__cts-cbc-aes-aesni"} if version == "6.12" else
                        {"__cts-cbc-aes-aesni"} if version == "5.15" else set())


@pytest.mark.parametrize("version", KNOWN)
def test_the_x86_aria_drivers_per_version(version):
    """ARIA: the AVX module from 6.1, AVX2 and AVX-512 from 6.3; SIMD-wrapped
    (internal twins) up to 6.15, registered directly from 6.16; this
    project's xts-aria-avx512 only where ecb-aria-avx512 is, in its form."""
    snap = query.snapshot(version, "x86_64")
    aria = {d for d, (name, _p) in snap.items() if "(aria)" in name}
    widths = [] if key(version) < key("6.1") else ["avx"] if key(version) < key("6.3") else ["avx", "avx2", "avx512"]
    public = {f"{m}-aria-{w}" for m in ("ecb", "ctr") for w in widths} | (
        {"xts-aria-avx512"} if "avx512" in widths else set())
    wrapped = key(version) < key("6.16")
    assert aria == public | ({"__" + d for d in public} if wrapped else set()), version
    row = query.rule_row("aria.modes_wrapping", "x86_64", version)
    assert (row is None) == (not widths) and (row is None or row.value == ("simd" if wrapped else "direct"))
    assert "essiv" not in query.templates("5.0", "x86_64") and "essiv" in query.templates("5.4", "x86_64")
