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
