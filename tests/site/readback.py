"""Text read back from what the browser drew (a printed PDF), made comparable with the text that was laid out.

A PDF's text is rebuilt from its glyphs, and a font may give one glyph to several code points: with Noto CJK,
`角` is read back as `⻆` (U+2EC6, a CJK radical), the code point the font's map lists first. So text is
compared after Unicode NFKC (compatibility forms folded: ligatures, math letters, full-width forms, and the
Kangxi Radicals U+2F00–2FDF, which decompose to their ideographs), after mapping each CJK Radicals Supplement
character (U+2E80–2EFF, which NFKC leaves but two of) to its equivalent unified ideograph, and without white
space (a PDF breaks lines, and puts spaces where the layout had gaps).
"""

from __future__ import annotations

import re
import unicodedata

# Unicode's Equivalent_Unified_Ideograph property (EquivalentUnifiedIdeograph.txt) for the CJK Radicals
# Supplement: each radical, then the ideograph it is drawn as. Python's unicodedata does not carry this
# property, and no PyPI package with a clear licence ships its file: tests/site/test_print.py checks the
# table against unicodedata's names and decompositions. U+2E80 (REPEAT) has no equivalent.
RADICALS_SUPPLEMENT = dict(pair for pair in (
    "⺁厂 ⺂乛 ⺃乚 ⺄乙 ⺅亻 ⺆冂 ⺇𠘨 ⺈刀 ⺉刂 ⺊卜 ⺋㔾 ⺌小 ⺍小 ⺎兀 ⺏尣 ⺐尢 ⺑𡯂 ⺒巳 ⺓幺 ⺔彑 ⺕彐 ⺖忄 ⺗心 ⺘扌 "
    "⺙攵 ⺛旡 ⺜日 ⺝月 ⺞歺 ⺟母 ⺠民 ⺡氵 ⺢氺 ⺣灬 ⺤爫 ⺥爫 ⺦丬 ⺧牛 ⺨犭 ⺩王 ⺪𤴔 ⺫目 ⺬示 ⺭礻 ⺮𥫗 ⺯糹 ⺰纟 ⺱罓 "
    "⺲罒 ⺳㓁 ⺴冗 ⺵𦉫 ⺶羊 ⺷𦍌 ⺸𦍋 ⺹耂 ⺺肀 ⺻聿 ⺼肉 ⺽𦥑 ⺾艹 ⺿艹 ⻀艹 ⻁虎 ⻂衤 ⻃覀 ⻄西 ⻅见 ⻆角 ⻇𧢲 ⻈讠 ⻉贝 "
    "⻊𧾷 ⻋车 ⻌辶 ⻍辶 ⻎辶 ⻏邑 ⻐钅 ⻑長 ⻒镸 ⻓长 ⻔门 ⻕𨸏 ⻖阝 ⻗雨 ⻘青 ⻙韦 ⻚页 ⻛风 ⻜飞 ⻝食 ⻞𩙿 ⻟飠 ⻠饣 ⻡𩠐 "
    "⻢马 ⻣骨 ⻤鬼 ⻥鱼 ⻦鸟 ⻧卤 ⻨麦 ⻩黄 ⻪黾 ⻫斉 ⻬齐 ⻭歯 ⻮齿 ⻯竜 ⻰龙 ⻱龜 ⻲亀 ⻳龟"
).split())
_TO_IDEOGRAPHS = str.maketrans(RADICALS_SUPPLEMENT)


def comparable(text: str) -> str:
    """`text` as the tests compare it: NFKC, CJK radicals as their ideographs, no white space."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).translate(_TO_IDEOGRAPHS))
