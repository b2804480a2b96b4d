"""Compatibility ideographs folded to the unified ideographs they look like, one to one.

A PDF's text comes from its fonts' ToUnicode maps. Fonts that draw a Kangxi radical (U+2F00
block) or a CJK Radicals Supplement character (U+2E80 block) with the same glyph as a unified
ideograph let the PDF writer name either code point; Chromium printing with Noto Sans CJK JP
names the radical, so ``文`` comes back as ``⽂``: it looks the same and matches nothing.

The table: Kangxi radicals by their NFKC decomposition; the radicals supplement by the unified
ideograph that shares the glyph in Noto Sans CJK JP (read from its cmap with fontTools, which
agrees with Unicode's EquivalentUnifiedIdeograph.txt where both give one), plus the supplement's
Japanese forms that font does not share (⻝ 食, ⻣ 骨, ⻤ 鬼, ⻌ 辶, ⻏ 阝); CJK compatibility
ideographs (U+F900–U+FAFF) by their canonical decomposition. Every entry maps one code point to
one code point, so offsets do not move.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# Radicals supplement -> unified ideograph (glyph shared in Noto Sans CJK JP, or the Japanese form).
_SUPPLEMENT = {
    0x2E82: 0x4E5B,
    0x2E83: 0x4E5A,
    0x2E85: 0x4EBB,
    0x2E87: 0x20628,
    0x2E89: 0x5202,
    0x2E8B: 0x353E,
    0x2E8D: 0x2D544,
    0x2E8E: 0x5140,
    0x2E8F: 0x5C23,
    0x2E90: 0x5C22,
    0x2E92: 0x5DF3,
    0x2E93: 0x5E7A,
    0x2E94: 0x5F51,
    0x2E96: 0x5FC4,
    0x2E98: 0x624C,
    0x2E99: 0x6535,
    0x2E9B: 0x65E1,
    0x2E9E: 0x6B7A,
    0x2E9F: 0x6BCD,
    0x2EA0: 0x6C11,
    0x2EA1: 0x6C35,
    0x2EA3: 0x706C,
    0x2EA6: 0x4E2C,
    0x2EA8: 0x72AD,
    0x2EA9: 0x248E9,
    0x2EAB: 0x7F52,
    0x2EAD: 0x793B,
    0x2EAE: 0x25AD7,
    0x2EAF: 0x7CF9,
    0x2EB0: 0x7E9F,
    0x2EB1: 0x7F53,
    0x2EB2: 0x7F52,
    0x2EB9: 0x8002,
    0x2EBA: 0x8080,
    0x2EBD: 0x26951,
    0x2EBE: 0x8279,
    0x2EC2: 0x8864,
    0x2EC3: 0x8980,
    0x2EC4: 0x897F,
    0x2EC5: 0x89C1,
    0x2EC7: 0x278B2,
    0x2EC8: 0x8BA0,
    0x2EC9: 0x8D1D,
    0x2ECA: 0x27FB7,
    0x2ECB: 0x8F66,
    0x2ECC: 0x8FB6,
    0x2ECD: 0x8FB6,
    0x2ECF: 0x961D,
    0x2ED0: 0x9485,
    0x2ED1: 0x9577,
    0x2ED2: 0x9578,
    0x2ED3: 0x957F,
    0x2ED5: 0x28E0F,
    0x2ED6: 0x961D,
    0x2ED8: 0x9752,
    0x2ED9: 0x97E6,
    0x2EDA: 0x9875,
    0x2EDB: 0x98CE,
    0x2EDC: 0x98DE,
    0x2EDD: 0x98DF,
    0x2EDE: 0x2967F,
    0x2EDF: 0x98E0,
    0x2EE0: 0x9963,
    0x2EE1: 0x29810,
    0x2EE2: 0x9A6C,
    0x2EE3: 0x9AA8,
    0x2EE4: 0x9B3C,
    0x2EE5: 0x9C7C,
    0x2EE6: 0x9E1F,
    0x2EE7: 0x5364,
    0x2EE8: 0x9EA6,
    0x2EE9: 0x9EC4,
    0x2EEA: 0x9EFE,
    0x2EEB: 0x6589,
    0x2EEC: 0x9F50,
    0x2EED: 0x6B6F,
    0x2EEE: 0x9F7F,
    0x2EEF: 0x7ADC,
    0x2EF0: 0x9F99,
    0x2EF2: 0x4E80,
    0x2EF3: 0x9F9F,
}
# Kangxi radicals whose Japanese glyph is another unified form than NFKC's (⼾ is drawn as 戸).
_KANGXI_JAPANESE = {0x2F3E: 0x6238}


@lru_cache(maxsize=1)
def compat_table() -> dict[int, int]:
    """``str.translate`` table: each compatibility ideograph chunkviz folds, to its unified form."""
    table = dict(_SUPPLEMENT)
    for cp in range(0x2F00, 0x2FD6):
        folded = unicodedata.normalize("NFKC", chr(cp))
        if len(folded) == 1 and folded != chr(cp):
            table[cp] = ord(folded)
    table.update(_KANGXI_JAPANESE)
    for cp in range(0xF900, 0xFB00):
        folded = unicodedata.normalize("NFC", chr(cp))
        if len(folded) == 1 and folded != chr(cp):
            table[cp] = ord(folded)
    return table


def fold_compat(text: str) -> tuple[str, int]:
    """``text`` with every compatibility ideograph replaced, and how many were replaced."""
    table = compat_table()
    count = sum(1 for ch in text if ord(ch) in table) if not text.isascii() else 0
    return (text.translate(table), count) if count else (text, 0)


# Vertical presentation forms (U+FE10 block, U+FE30 block) -> the punctuation they are the vertical
# glyphs of, full width as Japanese sets it. Vertical text from LuaTeX-ja (its "vert" glyphs) and
# other writers names these code points: "吾輩は猫である︒" matches no "。" and no sentence rule.
# NFKC maps several to ASCII (︒ is "。" but ︐ is ","; ︙ is "..."): this table is one to one.
VERTICAL_FORMS = {
    0xFE10: 0xFF0C,
    0xFE11: 0x3001,
    0xFE12: 0x3002,
    0xFE13: 0xFF1A,
    0xFE14: 0xFF1B,
    0xFE15: 0xFF01,
    0xFE16: 0xFF1F,
    0xFE17: 0x3016,
    0xFE18: 0x3017,
    0xFE19: 0x2026,
    0xFE30: 0x2025,
    0xFE31: 0x2014,
    0xFE32: 0x2013,
    0xFE33: 0xFF3F,
    0xFE34: 0xFF3F,
    0xFE35: 0xFF08,
    0xFE36: 0xFF09,
    0xFE37: 0xFF5B,
    0xFE38: 0xFF5D,
    0xFE39: 0x3014,
    0xFE3A: 0x3015,
    0xFE3B: 0x3010,
    0xFE3C: 0x3011,
    0xFE3D: 0x300A,
    0xFE3E: 0x300B,
    0xFE3F: 0x3008,
    0xFE40: 0x3009,
    0xFE41: 0x300C,
    0xFE42: 0x300D,
    0xFE43: 0x300E,
    0xFE44: 0x300F,
    0xFE47: 0xFF3B,
    0xFE48: 0xFF3D,
}


def fold_vertical(text: str) -> tuple[str, int]:
    """``text`` with every vertical presentation form made the punctuation it stands for."""
    count = sum(1 for ch in text if ord(ch) in VERTICAL_FORMS) if not text.isascii() else 0
    return (text.translate(VERTICAL_FORMS), count) if count else (text, 0)
