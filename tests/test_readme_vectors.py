"""crypto_api/testmgr/vectors/README.md describes exactly the vector files shipped.

The "Files" table names every JSON file of the folder and no other, each with
the number of vectors the file holds, and the total is their sum.
"""

import json
import re
from importlib import resources
from pathlib import Path

FOLDER = Path(__file__).resolve().parents[1] / "crypto_api" / "testmgr" / "vectors"


def files_table():
    """``{file: count}`` from the README's table (first column: file, count column by header)."""
    text = (FOLDER / "README.md").read_text(encoding="utf-8")
    section = text.split("## Files", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    count_col = header.index("count")
    table = {}
    for line in rows[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        name = cells[0].strip("`")
        assert name not in table, f"{name} listed twice"
        table[name] = int(cells[count_col].replace(",", ""))
    return table, section


def test_the_table_lists_exactly_the_shipped_json_files():
    table, _ = files_table()
    assert set(table) == {p.name for p in FOLDER.glob("*.json")}


def test_each_count_is_the_files_number_of_vectors():
    table, section = files_table()
    total = 0
    for name, count in table.items():
        data = json.loads((FOLDER / name).read_text(encoding="utf-8"))
        assert count == data["count"] == len(data["vectors"]), name
        total += count
    m = re.search(r"Total: ([\d,]+) vectors in (\d+) files", section)
    assert m, "the README states the total"
    assert int(m.group(1).replace(",", "")) == total
    assert int(m.group(2)) == len(table)


def test_the_installed_package_ships_the_same_files():
    shipped = {p.name for p in resources.files("crypto_api.testmgr").joinpath("vectors").iterdir()
               if p.name.endswith(".json")}
    assert shipped == set(files_table()[0])
