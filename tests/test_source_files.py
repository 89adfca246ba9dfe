"""tests/source_files.py lists what git lists: its walk under the
``.gitignore`` rules is compared with ``git ls-files --cached --others`` (the
same ignore files, none of the personal ones) on a tree made to exercise the
rules and on this checkout; and a copy made with it builds nothing in, from
a tree that has no ``.git``."""

import os
import shutil
import subprocess

import pytest

from source_files import ROOT, copy_sources, source_files

GIT = shutil.which("git")

#: (path, contents): a tree whose .gitignore files use every rule source_files.py implements
TREE = {
    ".gitignore": "\n".join([
        "# a comment, and a blank line",
        "",
        "/build/",              # anchored, directories only
        "*.so",                 # a bare name: any depth
        "!keep.so",             # re-included
        "out/",                 # directories named out, at any depth; a file named out stays
        "docs/**/draft*.md",    # ** spans directories
        "cache/**",             # everything inside
        "tmp?.txt",
        "data[0-9].bin",
        "data[!0-9].log",
        "\\#hash",              # an escaped # is a name
        "trailing   ",          # trailing blanks do not count
        "/a/b/*.o",             # anchored with an inner slash
        "ignored_dir/",
        "!ignored_dir/inner.txt",   # cannot come back: its directory is ignored
    ]) + "\n",
    "build/x.c": "", "src/build/y.c": "",
    "m.so": "", "src/n.so": "", "src/keep.so": "",
    "out/z.txt": "", "src/out/z.txt": "", "src/sub/out": "",
    "docs/draft1.md": "", "docs/a/b/draft2.md": "", "docs/a/final.md": "", "draft3.md": "",
    "cache/p/q.txt": "", "cache.txt": "",
    "tmp1.txt": "", "tmp12.txt": "", "src/tmpx.txt": "",
    "data1.bin": "", "dataX.bin": "", "data1.log": "", "dataX.log": "",
    "#hash": "", "trailing": "", "trailing.c": "",
    "a/b/c.o": "", "x/a/b/c.o": "", "a/b/c/d.o": "",
    "ignored_dir/inner.txt": "",
    "nested/.gitignore": "*.tmp\n!important.tmp\n/local.txt\n",
    "nested/x.tmp": "", "nested/important.tmp": "", "nested/local.txt": "",
    "nested/deeper/local.txt": "", "nested/deeper/y.tmp": "", "other/z.tmp": "",
    "other/.gitignore": "!*.so\n",
    "other/w.so": "",
}


def git_listing(root):
    r = subprocess.run([GIT, "-C", str(root), "ls-files", "-z", "--cached", "--others",
                        "--exclude-per-directory=.gitignore"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return sorted(f for f in r.stdout.split("\0") if f and os.path.lexists(os.path.join(root, f)))


def make_tree(root):
    for rel, text in TREE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


@pytest.mark.skipif(GIT is None, reason="git is not installed: nothing to compare with")
def test_the_rules_agree_with_git(tmp_path):
    make_tree(tmp_path)
    subprocess.run([GIT, "init", "-q", str(tmp_path)], check=True)
    mine = source_files(tmp_path)
    assert mine == git_listing(tmp_path)
    # the tree does exercise both sides of the rules
    assert "src/keep.so" in mine and "m.so" not in mine and "src/sub/out" in mine
    assert "nested/deeper/local.txt" in mine and "nested/local.txt" not in mine
    assert len(mine) >= 15 and len(TREE) - len(mine) >= 15


def test_the_checkout_agrees_with_git():
    if GIT is None or not os.path.exists(ROOT / ".git"):
        pytest.skip("not a git checkout (an export): nothing to compare with")
    mine = source_files()
    assert mine == git_listing(ROOT)
    assert "pyproject.toml" in mine and "tests/source_files.py" in mine


def test_a_copy_leaves_the_ignored_files_and_git_behind(tmp_path):
    src = tmp_path / "src"
    make_tree(src)
    (src / ".git").mkdir()
    (src / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    dst = copy_sources(tmp_path / "copy", src)
    copied = sorted(str(p.relative_to(dst)) for p in dst.rglob("*") if p.is_file())
    assert copied == source_files(src)
    assert not (dst / ".git").exists() and not (dst / "build").exists()
    assert (dst / "src" / "keep.so").is_file() and not (dst / "m.so").exists()
