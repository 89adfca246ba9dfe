"""No text of the repository points at a document the repository does not hold.

Every tracked text file (code, comments, docstrings, READMEs, build files) is
scanned for references to the project's private design papers (a design brief,
a "spec" with numbered sections, a pitfalls list, folders outside the
checkout), and every path written into the repository's own folders
(``crypto_api/``, ``algs/``, ``arch/x86/``, ``arch/arm64/``, ``arch/arm/``,
``arch/ppc64le/``, ``tools/``, ``tests/``, ``examples/``, ``docs/``) and every
relative Markdown link must exist; a link's ``#anchor`` must name a heading of
the page it points to (GitHub's anchors).  Kernel source paths
(``crypto/adiantum.c``, ``arch/x86/crypto/...``), RFCs and URLs are public
and welcome.
"""

import re
from pathlib import Path

import pytest

from doc_blocks import parse
from source_files import source_files

ROOT = Path(__file__).resolve().parents[2]
SELF = "tests/docs/test_references.py"
TEXT_SUFFIXES = {".py", ".md", ".toml", ".c", ".h", ".txt", ".cfg", ".ini", ""}

#: (what, regex) pairs: phrases that can only point at documents kept elsewhere.
PRIVATE = [
    ("a design brief", re.compile(r"DESIGN\.md|design brief", re.I)),
    ("a folder outside the repository", re.compile(r"(?<![\w.])(?:shared|reference|seeds)/\w")),
    ("a parent directory", re.compile(r"(?<![\w.])\.\./[\w.-]+(?:/|\.(?:md|rst|txt|py|json)\b)")),
    ("a numbered spec section", re.compile(r"\bspec(?:ification)?\b[^.\n]{0,12}§|§\s?[\d.–-]+ of the spec", re.I)),
    ("a pitfalls list", re.compile(r"\bpitfalls?\s+\d+|pitfalls list", re.I)),
    ("an appendix of an unnamed document", re.compile(r"Appendix [A-Z] of the (?:spec|reference)", re.I)),
    ("an issue of a tracker the repository does not hold",
     re.compile(r"\bfoundation issue|\bissue \d+\b", re.I)),
    ("an absolute path of a workstation", re.compile(r"(?<![\w.])/(?:work|home|Users)/\w")),
]

#: a file path inside the repository's own folders (kernel paths under arch/x86/crypto excluded;
#: a name with a wildcard, crypto_api/testmgr/vectors/*.json, is a pattern, not a path)
REPO_PATH = re.compile(
    r"(?<![\w./-])((?:crypto_api|algs|tools|tests|examples|docs)/[\w./-]*\.[A-Za-z]\w*"
    r"|arch/(?:x86|arm64|arm|ppc64le|common)/[\w-]+\.[A-Za-z]\w*)(?![\w*{<])")
URL = re.compile(r"https?://\S+")
MD_LINK = re.compile(r"\]\((?!https?:|mailto:)([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.M)
FENCED = re.compile(r"^```.*?^```[ \t]*$", re.S | re.M)


#: paths that tests name on purpose though the repository has no such file: the
#: trees they build in a temporary folder, the files a recipe adds to its copy
FIXTURE_PATHS = {
    "tests/test_source_files.py": {"docs/draft1.md", "docs/a/b/draft2.md", "docs/a/final.md"},
    "tests/contributing/test_recipes.py": {"tests/algs/test_crc32c.py"},
}


def tracked_text_files():
    """The repository's text files (tests/source_files.py: what git lists, without git)."""
    for name in source_files(ROOT):
        path = ROOT / name
        if path.is_file() and path.suffix in TEXT_SUFFIXES:
            yield name, path.read_text(encoding="utf-8", errors="replace")


def private_references(text, base: Path = None):
    """``[(what, matched text, line number)]`` for each private-document reference
    (with ``base``, the folder of a Markdown file: its relative links that stay
    inside the repository, ``../README.md`` from docs/, are not references)."""
    text = URL.sub("", text)             # public addresses may hold anything
    if base is not None:
        def inside(m):
            target = (base / m.group(1).split("#", 1)[0]).resolve()
            return "]()" if target == ROOT or ROOT in target.parents else m.group(0)
        text = MD_LINK.sub(inside, text)
    found = []
    for what, rx in PRIVATE:
        for m in rx.finditer(text):
            found.append((what, m.group(0), text.count("\n", 0, m.start()) + 1))
    return found


def anchors(markdown: str):
    """The anchors GitHub gives the headings of a Markdown text: lower case,
    punctuation dropped (hyphens and underscores kept), spaces to hyphens, a
    repeated one numbered -1, -2, ..."""
    seen, out = {}, set()
    for m in HEADING.finditer(FENCED.sub("", markdown)):
        slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def missing_paths(text, base: Path, markdown: bool = True, own_anchors=frozenset()):
    """Repository paths and relative links in ``text`` that do not exist (for a
    link with ``#anchor``, a page without that heading)."""
    missing = []
    for m in REPO_PATH.finditer(text):
        if not (ROOT / m.group(1)).exists():
            missing.append(m.group(1))
    for m in MD_LINK.finditer(FENCED.sub("", text)) if markdown else ():
        target, _, anchor = m.group(1).partition("#")
        if target and not (base / target).exists():
            missing.append(target)
        elif anchor:
            page = anchors((base / target).read_text(encoding="utf-8")) if target else own_anchors
            if anchor not in page:
                missing.append(m.group(1))
    return list(dict.fromkeys(missing))


@pytest.mark.parametrize("text, whats", [
    ("see DESIGN.md", ["a design brief"]),
    ("kernel behaviour is in /work/shared/reference/api.md",
     ["a folder outside the repository", "an absolute path of a workstation"]),
    ("as spec §7.2 says", ["a numbered spec section"]),
    ("rules of §2.5–2.6 of the spec", ["a numbered spec section"]),
    ("pitfall 18", ["a pitfalls list"]),
    ("every refusal of issue 3", ["an issue of a tracker the repository does not hold"]),
    ("(Appendix A of the reference)", ["an appendix of an unnamed document"]),
    ("open ../notes/x.md", ["a parent directory"]),
    ("[up](../notes/x.md)", ["a parent directory"]),
    ("crypto/adiantum.c, RFC 8439 §2.5, https://example.org/x/../y, draft §2.2.1", []),
])
def test_the_scanner_flags_private_references(text, whats):
    assert [w for w, _, _ in private_references(text)] == whats


def test_links_that_stay_inside_the_repository_are_no_references():
    text = "[home](../README.md) and [out](../../elsewhere/notes.md)"
    assert [w for w, _, _ in private_references(text, ROOT / "docs")] == ["a parent directory"]


def test_the_scanner_checks_repository_paths():
    text = ("crypto_api/registry.py and arch/x86/chacha_glue.py exist; crypto_api/nothing.py "
            "and tools/gone.py do not; arch/x86/crypto/chacha_glue.c is the kernel's; "
            "arch/arm64/cores.py exists, arch/ppc64le/gone.c does not, arch/arm64/crypto/x.c is the kernel's; "
            "[guide](README.md) [lost](docs/lost.md) [web](https://x.org/a.md) "
            "[api](docs/api.md#a-tour) [nowhere](docs/api.md#no-such-heading) [here](#top) [there](#gone)")
    assert missing_paths(text, ROOT, own_anchors={"top"}) == [
        "crypto_api/nothing.py", "tools/gone.py", "arch/ppc64le/gone.c", "docs/lost.md",
        "docs/api.md#no-such-heading", "#gone"]


def test_anchors_follow_githubs_rules():
    text = ("# Title\n## `enc` / `dec`: files, kcapi-enc style\n## x86-64: Poly1305, and more\n"
            "```sh\n# not a heading\n```\n## Title\n### Sector *n* of a volume\n")
    assert anchors(text) == {"title", "enc--dec-files-kcapi-enc-style", "x86-64-poly1305-and-more",
                             "title-1", "sector-n-of-a-volume"}


def test_no_text_refers_to_a_document_outside_the_repository():
    bad = []
    for name, text in tracked_text_files():
        if name == SELF:
            continue                     # this file's own examples
        base = (ROOT / name).parent if name.endswith(".md") else None
        bad += [f"{name}:{line}: {what}: {match!r}" for what, match, line in private_references(text, base)]
    assert bad == []


def test_every_repository_path_and_link_exists():
    bad = []
    for name, text in tracked_text_files():
        if name == SELF:
            continue
        md = name.endswith(".md")
        # a recipe may name the files its own ``file=`` blocks tell the reader to
        # write, and a placeholder path (``algs/NAME.py``)
        written = {b.options["file"] for b in parse(text) if "file" in b.options} if md else set()
        bad += [f"{name}: {p}" for p in missing_paths(text, (ROOT / name).parent, md,
                                                     anchors(text) if md else frozenset())
                if p not in written and "NAME" not in p and p not in FIXTURE_PATHS.get(name, ())]
    assert bad == []
