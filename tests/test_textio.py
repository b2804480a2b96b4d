from __future__ import annotations

import pytest

from chunkviz.errors import InputTextError
from chunkviz.textio import decode_bytes, read_text_file

JAPANESE = (
    "梅雨（つゆ、ばいう）は、北海道と小笠原諸島を除く日本、朝鮮半島南部、中国の南部から"
    "長江流域にかけての沿海部、および台湾など、東アジアの広範囲においてみられる特有の気象現象で、"
    "5月から7月にかけて来る曇りや雨の多い期間のこと。雨季の一種である。\r\n"
    "梅雨の時期が始まることを梅雨入りや入梅（にゅうばい）といい、社会通念上・気象学上は"
    "春の終わりであるとともに夏の始まり（初夏）とされる。\r\n"
)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp932", "shift_jis", "euc_jp"])
def test_japanese_text_decodes_from_each_encoding(encoding):
    assert decode_bytes(JAPANESE.encode(encoding)) == JAPANESE


def test_utf8_bom_is_not_part_of_the_text():
    text = decode_bytes("\ufeff見出し".encode())
    assert text == "見出し"


def test_crlf_is_kept_by_default_and_normalised_on_request():
    data = "一行目\r\n二行目\r三行目\n".encode()
    assert decode_bytes(data) == "一行目\r\n二行目\r三行目\n"
    assert decode_bytes(data, newlines="lf") == "一行目\n二行目\n三行目\n"


def test_binary_input_is_refused_with_a_message():
    data = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
    with pytest.raises(InputTextError, match=r"image\.png looks like a binary file"):
        decode_bytes(data, name="image.png")


def test_read_text_file_reads_shift_jis_from_disk(tmp_path):
    path = tmp_path / "rules.txt"
    path.write_bytes(JAPANESE.encode("cp932"))
    assert read_text_file(path) == JAPANESE
    assert read_text_file(path, newlines="lf") == JAPANESE.replace("\r\n", "\n")


def test_missing_file_names_the_path(tmp_path):
    with pytest.raises(InputTextError, match=r"cannot read .*missing\.txt"):
        read_text_file(tmp_path / "missing.txt")


# --- Hostile and unusual files (issue 14) -----------------------------------------------------


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"\xff\xfe" + "ab".encode("utf-16-le") + b"\x00\xd8", "not valid UTF-16"),  # lone high
        (b"\xff\xfe" + "ab".encode("utf-16-le") + b"c", "not valid UTF-16"),  # odd length
        (b"\xef\xbb\xbfok \xff", "not valid UTF-8"),  # BOM, then an invalid byte
    ],
    ids=["bad surrogate", "odd length", "utf-8 bom"],
)
def test_invalid_text_after_a_bom_is_an_input_text_error(data, fragment):
    # UnicodeDecodeError reached the page as a traceback before.
    with pytest.raises(InputTextError, match=f"bad.txt starts with .* but is {fragment}"):
        decode_bytes(data, name="bad.txt")


def test_utf32_with_bom_is_not_read_as_utf16():
    assert decode_bytes("梅雨 rain".encode("utf-32")) == "梅雨 rain"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_text_not_binary(encoding):
    assert decode_bytes("Plain text, 梅雨。\n".encode(encoding) * 20) == "Plain text, 梅雨。\n" * 20


def test_a_real_shift_jis_file_with_an_ibm_extension_character_decodes_as_cp932():
    # 髙 (U+9AD9) exists only in CP932: strict Shift_JIS fails on it and the detector gave up.
    text = "就業規則\r\n第１条　この規則は髙橋株式会社の従業員に適用する。\r\n"
    assert decode_bytes(text.encode("cp932")) == text


def test_iso2022jp_is_decoded_not_kept_as_escapes():
    assert decode_bytes(JAPANESE.encode("iso2022_jp")) == JAPANESE


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    import os

    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    with pytest.raises(InputTextError, match="pipe.txt: it is not a regular file"):
        read_text_file(fifo)


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(InputTextError, match="not a regular file|Is a directory"):
        read_text_file(tmp_path)


def test_the_size_is_checked_before_the_file_is_read(tmp_path):
    # A sparse 3 GB file: reading it first took 3.2 GB of memory.
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate(3 * 1024**3)
    with pytest.raises(InputTextError, match=r"big\.txt is 3221\.2 MB; files up to 64 MiB"):
        read_text_file(big)


def test_terminal_formatting_is_stripped_with_a_count():
    from chunkviz.textio import strip_terminal_formatting

    assert strip_terminal_formatting("plain") == ("plain", 0)
    assert strip_terminal_formatting("\x1b[31mred\x1b[0m B\bBold") == ("red Bold", 3)
