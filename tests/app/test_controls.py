from __future__ import annotations

from streamlit.testing.v1 import AppTest

#: The snap controls of fixed and recursive (issue 38), at their defaults.
SNAP_OFF = {"snap": "none", "max_shift": 10}


def _controls_page() -> None:
    import streamlit as st

    from chunkviz.model import ChunkingResult
    from chunkviz.strategies.registry import Param, Strategy
    from chunkviz.ui.controls import param_controls
    from chunkviz.ui.i18n import current_lang

    spec = Strategy(
        name="demo",
        description="d",
        gaps="none",
        fn=lambda text, **kw: ChunkingResult(text, (), "demo", kw),
        params=(
            Param("size", "int", 300, min=1, max=100_000, unit="chars/tokens", help="h"),
            Param("threshold", "float", 0.5, min=0.0, max=1.0, help="t"),
            Param("strict", "bool", False, help="s"),
            Param("mode", "choice", "a", choices=("a", "b"), help="m"),
            Param("pattern", "str", "。", help="p"),
            Param("window", "int", None, min=1, max=50, unit="sentences", optional=True, help="w"),
        ),
    )
    st.session_state["chosen"] = param_controls(
        spec, spec.defaults(), prefix="t_", lang=current_lang()
    )


def test_one_function_builds_a_widget_for_every_param_type():
    at = AppTest.from_function(_controls_page, default_timeout=30).run()
    assert not at.exception
    assert at.session_state["chosen"] == {
        "size": 300,
        "threshold": 0.5,
        "strict": False,
        "mode": "a",
        "pattern": "。",
        "window": None,
    }
    assert at.slider(key="t_demo_size").max == 4000  # slider capped; help says so
    assert "4000" in at.slider(key="t_demo_size").help
    at.slider(key="t_demo_threshold").set_value(0.8)
    at.toggle(key="t_demo_strict").set_value(True)
    at.radio(key="t_demo_mode_en").set_value("b")
    at.text_input(key="t_demo_pattern").input("\n\n")
    at.checkbox(key="t_demo_window__on").check().run()
    at.slider(key="t_demo_window").set_value(7).run()
    assert at.session_state["chosen"] == {
        "size": 300,
        "threshold": 0.8,
        "strict": True,
        "mode": "b",
        "pattern": "\n\n",
        "window": 7,
    }


def test_labels_and_help_follow_the_language():
    from chunkviz.ui.state import STATE_KEY, AppState

    at = AppTest.from_function(_controls_page, default_timeout=30)
    at.session_state[STATE_KEY] = AppState(lang="ja")
    at.run()
    assert not at.exception
    # Labels are formed one way from the catalogue: name and unit in the UI language.
    assert at.slider(key="t_demo_size").label == "サイズ（文字）"
    assert at.slider(key="t_demo_threshold").label == "しきい値"
    assert at.slider(key="t_demo_window").label == "ウィンドウ（文）"
    assert at.radio(key="t_demo_mode_ja").value == "a"
    # A parameter without a catalogue entry (a plug-in's) keeps its own name and English help.
    assert at.text_input(key="t_demo_pattern").label == "pattern"


def test_real_strategies_have_labels_and_help_in_both_languages():
    from chunkviz.strategies import all_strategies
    from chunkviz.text import has
    from chunkviz.ui.controls import param_help, param_label

    for spec in all_strategies():
        for p in spec.params:
            assert has("ja", f"param.{p.name}"), p.name
            assert has("ja", f"strategy.{spec.name}.help.{p.name}"), (spec.name, p.name)
            en, ja = param_label("en", p), param_label("ja", p)
            assert en[0].isupper(), en
            assert "_" not in en, en
            assert en != ja
            assert param_help("en", spec, p) != param_help("ja", spec, p)


def _fixed_page() -> None:
    import streamlit as st

    from chunkviz.strategies import get_strategy
    from chunkviz.ui.controls import param_controls
    from chunkviz.ui.i18n import current_lang

    spec = get_strategy("fixed")
    last = st.session_state.get("chosen", spec.defaults())
    st.session_state["chosen"] = param_controls(spec, last, prefix="t_", lang=current_lang())


SIZE, OVERLAP = "t_fixed_size", "t_fixed_overlap"


def test_a_typed_size_is_used_and_the_slider_shows_it():
    at = AppTest.from_function(_fixed_page, default_timeout=30).run()
    assert at.number_input(key=f"{SIZE}__typed").value == 400
    at.number_input(key=f"{SIZE}__typed").set_value(437).run()
    assert not at.exception
    assert at.session_state["chosen"]["size"] == 437
    assert at.slider(key=SIZE).value == 437
    # And the other way round: the slider's value reaches the typed input.
    at.slider(key=SIZE).set_value(120).run()
    assert at.session_state["chosen"]["size"] == 120
    assert at.number_input(key=f"{SIZE}__typed").value == 120


def test_overlap_offers_only_values_below_size_and_size_only_values_above_overlap():
    at = AppTest.from_function(_fixed_page, default_timeout=30).run()
    at.number_input(key=f"{SIZE}__typed").set_value(437).run()
    assert at.slider(key=OVERLAP).max == 436
    assert at.number_input(key=f"{OVERLAP}__typed").max == 436
    at.slider(key=OVERLAP).set_value(436).run()
    assert at.session_state["chosen"] == {"size": 437, "overlap": 436, "unit": "chars", **SNAP_OFF}
    # Size cannot go down to the overlap now; its range starts above it.
    assert at.slider(key=SIZE).min == 437
    assert at.number_input(key=f"{SIZE}__typed").min == 437
    # Lowering the overlap frees the size again; nothing changed on its own.
    at.number_input(key=f"{OVERLAP}__typed").set_value(36).run()
    assert at.slider(key=SIZE).min == 37
    assert at.session_state["chosen"] == {"size": 437, "overlap": 36, "unit": "chars", **SNAP_OFF}
    assert not at.exception


def test_two_changes_that_break_the_relation_put_the_bounded_one_back():
    at = AppTest.from_function(_fixed_page, default_timeout=30).run()
    # Only a test can change two widgets in one rerun: overlap 300 with size 200.
    at.slider(key=OVERLAP).set_value(300)
    at.slider(key=SIZE).set_value(200).run()
    assert not at.exception
    assert at.session_state["chosen"] == {"size": 200, "overlap": 0, "unit": "chars", **SNAP_OFF}
    assert at.slider(key=OVERLAP).value == 0
    assert at.slider(key=OVERLAP).max == 199


def test_size_one_leaves_overlap_one_value_shown_by_the_typed_input_alone():
    at = AppTest.from_function(_fixed_page, default_timeout=30).run()
    at.number_input(key=f"{SIZE}__typed").set_value(1).run()
    assert not at.exception
    # A slider needs two ends; overlap's only valid value is 0.
    assert not [s for s in at.slider if s.key == OVERLAP]
    assert at.number_input(key=f"{OVERLAP}__typed").max == 0
    assert at.session_state["chosen"] == {"size": 1, "overlap": 0, "unit": "chars", **SNAP_OFF}
    at.number_input(key=f"{SIZE}__typed").set_value(50).run()
    assert at.slider(key=OVERLAP).max == 49
    assert at.slider(key=OVERLAP).value == 0


def _parent_child_page() -> None:
    import streamlit as st

    from chunkviz.strategies import get_strategy
    from chunkviz.ui.controls import param_controls
    from chunkviz.ui.i18n import current_lang

    spec = get_strategy("parent_child")
    last = st.session_state.get("chosen", spec.defaults())
    st.session_state["chosen"] = param_controls(spec, last, prefix="t_", lang=current_lang())


def test_an_optional_bound_switched_on_starts_where_the_pair_is_valid():
    child, parent = "t_parent_child_child_size", "t_parent_child_parent_size"
    at = AppTest.from_function(_parent_child_page, default_timeout=30).run()
    at.number_input(key=f"{child}__typed").set_value(500).run()
    assert not at.exception
    # Off, parent_size neither bounds child_size nor is bounded by it.
    assert at.slider(key=child).max == 4000
    assert at.slider(key=parent).min == 1
    assert at.slider(key=parent).value == 400
    at.checkbox(key=f"{parent}__on").check().run()
    assert not at.exception
    # Its disabled widget showed 400 < 500: switched on, it starts at the first valid value.
    assert at.session_state["chosen"]["parent_size"] == 500
    assert at.slider(key=parent).min == 500
    assert at.slider(key=child).max == 500
