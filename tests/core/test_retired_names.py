"""The names the direct path had before it got one vocabulary do not
come back (docs/drivers.md, "The call tiers"): the descriptor hook is
``direct``, its module crypto_api/direct.py, its C entry
crypto_api/direct_call.c, the C method type crypto_api/direct_method.c
(``direct_methods``), and the glue's one-buffer tier ``encrypt_contiguous``.

Every source file (tests/source_files.py: what git tracks or would) is
scanned for the retired spellings; the patterns are precise enough that the
words that merely contain one ("refused", "fenced", a hash's "one_shot"
against streaming) are left alone, and they are checked on examples of both.
"""

import re

import attrs
import pytest

from crypto_api.alg import ALG_KINDS, SkcipherAlg
from source_files import ROOT, source_files

#: retired spelling -> a pattern that finds it (and what took its place)
RETIRED = {
    "oneshot (hook, module, C symbols)": re.compile(r"one" r"shot", re.IGNORECASE),
    "enter_in_c (now direct_methods)": re.compile(r"enter_" r"in_c"),
    "fast_method (now direct_method)": re.compile(r"fast_" r"method", re.IGNORECASE),
    "linear_call / LinearCall (now direct_call / SkcipherCall)":
        re.compile(r"linear_" r"call|Linear" r"Call", re.IGNORECASE),
    "encrypt_/decrypt_linear and other *_linear tiers (now *_contiguous)":
        re.compile(r"[A-Za-z0-9]_lin" r"ear\b|\blinear(?: entry point| paths?\b|=)"),
    "the _fenc slot (now _direct_enc)": re.compile(r"_fe" r"nc\b"),
    "_lenc/_ldec slots (now _cenc/_cdec)": re.compile(r"\b_l(?:e" r"nc|d" r"ec)\b"),
    "fused templates (now: templates using C entries)": re.compile(r"\bfu" r"sed\b", re.IGNORECASE),
}

SELF = "tests/core/test_retired_names.py"


@pytest.mark.parametrize("text", [
    "alg.one" "shot", "chacha_one" "shot_bytes", "AESNI_ONE" "SHOT_ECB", "crypto_api/one" "shot.py",
    "enter_" "in_c(Cls)", "crypto_api._fast_" "method", "crypto_api/linear_" "call.c", "Linear" "CallState",
    "encrypt_lin" "ear=", "adiantum_decrypt_lin" "ear", "simd_lin" "ear(", "linear entry point",
    "self._fe" "nc", "self._le" "nc", "for fu" "sed templates",
])
def test_each_retired_spelling_is_found(text):
    assert any(p.search(text) for p in RETIRED.values()), text


@pytest.mark.parametrize("text", [
    "refused", "is_refused_naming", "test_every_length_fenced", "test_streaming_equals_one_shot",
    "linear_fit", "-- linear regression", "the direct path", "encrypt_contiguous", "direct_call.c",
])
def test_words_that_only_contain_one_are_left_alone(text):
    assert not any(p.search(text) for p in RETIRED.values()), text


def test_no_source_file_uses_a_retired_name():
    found = []
    for rel in source_files():
        if rel == SELF:
            continue
        path = ROOT / rel
        if path.name.lower().count("one" "shot") or "fast_" "method" in path.name \
                or "linear_" "call" in path.name:
            found.append(f"{rel}: the file's name")
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue                                # binary data (vectors, images)
        for lineno, line in enumerate(text.splitlines(), 1):
            for what, pattern in RETIRED.items():
                if pattern.search(line):
                    found.append(f"{rel}:{lineno}: {what}: {line.strip()[:100]}")
    assert found == []


@pytest.mark.parametrize("kind", ALG_KINDS, ids=lambda k: k.__name__)
def test_the_hook_is_direct_and_the_old_keyword_is_refused(kind):
    """No deprecated alias: nothing outside this repository used the old
    keyword, so a descriptor naming it is refused by attrs as any unknown
    field is."""
    fields = attrs.fields_dict(kind)
    assert "direct" in fields and "one" "shot" not in fields
    with pytest.raises(TypeError, match="one" "shot"):
        kind(cra_name="x", cra_driver_name="x-test", **{"one" "shot": lambda *a: None})


def test_the_one_buffer_tier_is_encrypt_contiguous():
    fields = attrs.fields_dict(SkcipherAlg)
    assert {"encrypt_contiguous", "decrypt_contiguous"} <= set(fields)
    assert not any(name.endswith("_lin" "ear") for name in fields)
