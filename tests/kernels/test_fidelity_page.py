"""docs/fidelity.md holds the kernel-version section generated from the table."""

from doc_blocks import DOCS

from crypto_api.kernels import page
from crypto_api.kernels.table import rows


def test_the_page_holds_the_generated_section():
    text = (DOCS / "fidelity.md").read_text(encoding="utf-8")
    assert text.count(page.BEGIN) == 1 and text.count(page.END) == 1
    assert page.replace_in(text) == text, "regenerate: python -m crypto_api.kernels.page --write docs/fidelity.md"


def test_the_section_has_a_line_per_row():
    section = page.generate()
    lines = [x for x in section.splitlines() if x.startswith("| driver |") or x.startswith("| template |")]
    assert len(lines) == sum(len(r.machines) for r in rows())
