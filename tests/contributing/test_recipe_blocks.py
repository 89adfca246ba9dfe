"""The block conventions of docs/contributing.md (tests/recipe_blocks.py): each
edit lands where its info string says, and a missing or ambiguous anchor, an
existing "new" file or an edit that breaks the file is refused."""

import pytest

from recipe_blocks import Block, RecipeError, apply, blocks, commands, md_append, py_append, py_before, \
    py_sorted_into, toml_append


def test_blocks_read_language_options_and_line():
    text = "intro\n\n```python file=a.py append-to=X\n1,\n```\n\n```sh tested-by=t.py::test_x\n# note\necho hi\n```\n"
    b1, b2 = blocks(text)
    assert (b1.lang, b1.options, b1.text, b1.line) == ("python", {"file": "a.py", "append-to": "X"}, "1,\n", 3)
    assert b2.options == {"tested-by": "t.py::test_x"} and commands(b2) == ["echo hi"]


def test_append_to_a_one_line_literal():
    assert py_append('A = ("a", "b")\n', "A", '"c",\n') == 'A = ("a", "b", "c")\n'
    assert py_append('A = ("a",)\n', "A", '"c",\n') == 'A = ("a", "c")\n'
    assert py_append('D = {"a": 1}\nE = 2\n', "D", '"b": 2,\n') == 'D = {"a": 1, "b": 2}\nE = 2\n'


def test_append_to_a_literal_whose_bracket_has_its_own_line():
    src = 'setup(\n    cffi_modules=[\n        "a",\n        "b"\n    ],\n)\n'
    assert py_append(src, "cffi_modules", '"c",\n') == \
        'setup(\n    cffi_modules=[\n        "a",\n        "b",\n        "c",\n    ],\n)\n'


def test_append_to_a_multi_line_literal_closed_on_its_last_line():
    src = 'M = {"a": 1,\n     "b": 2}\n'
    assert py_append(src, "M", '"c": 3,\n') == 'M = {"a": 1,\n     "b": 2, "c": 3}\n'


@pytest.mark.parametrize("src", ['B = ("a",)\n', 'A = 1\n', 'A = [1]\nA = [2]\n'])
def test_append_needs_exactly_one_literal_of_that_name(src):
    with pytest.raises(RecipeError, match="literals named 'A'"):
        py_append(src, "A", "3,\n")


def test_sorted_into_keeps_strcmp_order():
    src = 'T = (\n    D("b", 1),\n    D("d", 2),\n)\n'
    assert py_sorted_into(src, "T", 'D("c", 3),\n') == 'T = (\n    D("b", 1),\n    D("c", 3),\n    D("d", 2),\n)\n'
    assert py_sorted_into(src, "T", 'D("a", 0),\n').startswith('T = (\n    D("a", 0),\n    D("b", 1),')
    assert py_sorted_into(src, "T", 'D("e", 4),\n').endswith('    D("d", 2),\n    D("e", 4),\n)\n')


def test_before_goes_above_the_comments_of_the_statement():
    src = "X = 1\n\n#: the table\nT = {}\n"
    assert py_before(src, "T", "Y = 2\n") == "X = 1\n\nY = 2\n\n\n#: the table\nT = {}\n"
    with pytest.raises(RecipeError, match="bind 'Z'"):
        py_before(src, "Z", "Y = 2\n")


def test_toml_table_and_array():
    src = '[a]\nx = 1\n\n[b]\npackages = [\n    "p",\n    "q"\n]\n'
    assert toml_append(src, "[a]", "y = 2\n") == '[a]\nx = 1\ny = 2\n\n[b]\npackages = [\n    "p",\n    "q"\n]\n'
    assert toml_append(src, "packages", '"r",\n').endswith('    "q",\n    "r",\n]\n')
    with pytest.raises(RecipeError, match="tables"):
        toml_append(src, "[c]", "y = 2\n")


def test_markdown_table_under_a_heading():
    src = "# T\n\n## Files\n\ntext\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nTotal: 1\n"
    assert md_append(src, "Files", "| 3 | 4 |\n") == \
        "# T\n\n## Files\n\ntext\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nTotal: 1\n"
    with pytest.raises(RecipeError, match="no table"):
        md_append("## Files\n\ntext\n## Next\n| a |\n", "Files", "| b |\n")


def test_apply_refuses_an_existing_new_file_and_an_edit_that_breaks_the_file(tmp_path):
    (tmp_path / "m.py").write_text("A = [1]\n")
    with pytest.raises(RecipeError, match="exists already"):
        apply(Block("python", {"file": "m.py"}, "B = 2\n", 7), tmp_path)
    with pytest.raises(RecipeError, match="does not parse"):
        apply(Block("python", {"file": "m.py", "append-to": "A"}, "2 +,\n", 9), tmp_path)
    apply(Block("python", {"file": "n/new.py"}, "B = 2\n", 11), tmp_path)
    assert (tmp_path / "n" / "new.py").read_text() == "B = 2\n"
