from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _controls_page() -> None:
    import streamlit as st

    from chunkviz.model import ChunkingResult
    from chunkviz.strategies.registry import Param, Strategy
    from chunkviz.ui.controls import param_controls

    spec = Strategy(
        name="demo", description="d", description_ja="d", gaps="none",
        fn=lambda text, **kw: ChunkingResult(text, (), "demo", kw),
        params=(
            Param("size", "int", 300, min=1, max=100_000, unit="chars/tokens", help="h",
                  help_ja="日本語のヘルプ"),
            Param("threshold", "float", 0.5, min=0.0, max=1.0, help="t"),
            Param("strict", "bool", False, help="s"),
            Param("mode", "choice", "a", choices=("a", "b"), help="m"),
            Param("pattern", "str", "。", help="p"),
            Param("window", "int", None, min=1, max=50, unit="sentences", optional=True,
                  help="w"),
        ),
    )
    st.session_state["chosen"] = param_controls(spec, prefix="t_")


def test_one_function_builds_a_widget_for_every_param_type():
    at = AppTest.from_function(_controls_page, default_timeout=30).run()
    assert not at.exception
    assert at.session_state["chosen"] == {
        "size": 300, "threshold": 0.5, "strict": False, "mode": "a", "pattern": "。",
        "window": None,
    }
    assert at.slider(key="t_demo_size").max == 4000  # slider capped; help says so
    assert "4000" in at.slider(key="t_demo_size").help
    at.slider(key="t_demo_threshold").set_value(0.8)
    at.toggle(key="t_demo_strict").set_value(True)
    at.radio(key="t_demo_mode").set_value("b")
    at.text_input(key="t_demo_pattern").input("\n\n")
    at.checkbox(key="t_demo_window__on").check().run()
    at.slider(key="t_demo_window").set_value(7).run()
    assert at.session_state["chosen"] == {
        "size": 300, "threshold": 0.8, "strict": True, "mode": "b", "pattern": "\n\n",
        "window": 7,
    }


def test_labels_and_help_follow_the_language():
    at = AppTest.from_function(_controls_page, default_timeout=30)
    at.session_state["lang"] = "ja"
    at.run()
    assert at.slider(key="t_demo_size").label == "サイズ"
    assert at.slider(key="t_demo_size").help.startswith("日本語のヘルプ")
    assert at.slider(key="t_demo_window").label == "window (文)"
