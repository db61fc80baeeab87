"""A real notebook, executed by a Jupyter kernel (nbclient): a curve plot shows as an image
without ``%matplotlib inline`` (issue 27, item 3: it showed ``<Figure size 640x500 with 1
Axes>``), and results show as tables."""

from __future__ import annotations

import base64
import os
import struct

import pytest

from conftest import REPO

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

pytestmark = pytest.mark.slow

CELLS = [
    "import cranfield\n"
    "from cranfield import examples\n"
    "from cranfield.curves import plot, precision_recall\n"
    "qrels, runs = examples.cranfield_qrels(), examples.cranfield_runs()",
    "plot(precision_recall(qrels, runs))",
    "import sys\n"
    "'matplotlib.pyplot' in sys.modules, tuple(int(x) for x in _.get_size_inches() * 100)",
    "cranfield.evaluate(qrels, runs, ['AP', 'P@10'])",
]


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    folder = tmp_path_factory.mktemp("notebook")
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(REPO / "src") + (os.pathsep + old if old else "")
    try:
        client = nbclient.NotebookClient(
            nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
        )
        client.execute()
    finally:
        if old is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = old
    return nb


def test_a_curve_plot_shows_as_an_image(executed):
    outputs = executed.cells[1].outputs
    assert [o.output_type for o in outputs] == ["execute_result"], outputs
    data = outputs[0].data
    assert "image/png" in data, list(data)
    size = _png_size(base64.b64decode(data["image/png"]))
    assert "text/html" not in data  # the image once, not twice in the notebook file
    # the whole figure, at 100 dpi (at least plot()'s 6.4 x 5 inches; wider when the legend
    # needs it); and nothing switched the inline backend on behind the test's back: no pyplot
    pyplot, inches = eval(executed.cells[2].outputs[0].data["text/plain"])
    assert pyplot is False and size == inches and size >= (640, 500)


def test_results_show_as_a_table(executed):
    (out,) = executed.cells[3].outputs
    html = out.data["text/html"]
    assert "<table" in html and "bm25" in html and "coordination" in html
