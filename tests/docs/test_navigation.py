"""README.md stays a front page, and the pages of docs/ are reachable from it.

The README links to every page of docs/ (its "Read on" table), every page
links back to the README, and the README stays short enough to read as a
front page (the rest of the documentation lives in docs/).
"""

import re

from doc_blocks import DOCS, ROOT

README = ROOT / "README.md"
FRONT_PAGE_LINES = 300


def links(text: str):
    return {m.group(1).split("#", 1)[0] for m in re.finditer(r"\]\(([^)\s]+)\)", text)}


def test_the_readme_links_every_page():
    pages = {f"docs/{p.name}" for p in DOCS.glob("*.md")}
    assert pages, "docs/ holds the pages"
    missing = sorted(pages - links(README.read_text(encoding="utf-8")))
    assert missing == [], f"pages the README does not link: {missing}"


def test_every_page_links_back_to_the_readme():
    lost = [p.name for p in DOCS.glob("*.md")
            if README not in {(p.parent / link).resolve() for link in links(p.read_text(encoding="utf-8"))}]
    assert lost == []


def test_the_readme_is_a_front_page():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= FRONT_PAGE_LINES
    for words in ("make run", "make test"):
        assert words in text
