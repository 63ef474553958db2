"""The secret gate keeps adapter 0.2.0's verdicts, but where a difference is
listed with its reason (stdlib unittest).

Run: python -I tests/test_secret_verdicts.py   (or under pytest)

tools/compare_secret_verdicts.py judges every case of the generated corpus,
the look-alikes and the gitleaks-style peer section by the release (kept in
tests/released/conversation_projection_0_2_0.py) and by
conversation_projection.py, each through its public selection check; its
docstring says how the cases are made and how a case's key is built.  Every
case whose verdict differs must stand in EXPECTED_DIFFERENCES, and every
entry there must still differ so; and no figure of the corpora may fall:
the gate refuses at least as many secret-shaped texts as 0.2.0 did (and
names at least as many by their family), and at most as many look-alikes.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import types
import unittest
from typing import Any, ClassVar

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "compare_secret_verdicts.py")
# The release as it was published (7fb8677:conversation_projection.py).
RELEASED_SHA256 = "03a8b161a8c1549fff97ab203dfb4b56457830e0d2101e6ff78421fdf94a7138"

# Every case the gate now judges otherwise than 0.2.0 did:
#   key: (verdict of 0.2.0, verdict now, why the change is meant)
# A key is "corpus:group:digest" and a verdict "accepted" or "code:rule", as
# the tool prints them; a failing run prints the rows to add, reason left blank.
EXPECTED_DIFFERENCES: dict[str, tuple[str, str, str]] = {
    "decided:pairs:fead2030fe78": (
        "accepted",
        "selection_secret:credential-assignment",
        "'subscription' qualifies 'key' (Azure API Management's Ocp-Apim-Subscription-Key)",
    ),
    "decided:pairs:50d56a61c6d9": (
        "accepted",
        "selection_secret:credential-assignment",
        "'subscription' qualifies 'key' (Azure API Management's Ocp-Apim-Subscription-Key)",
    ),
    "decided:pairs:bf0d05bb142f": (
        "accepted",
        "selection_secret:credential-assignment",
        "each text is judged alone: 0.2.0 read 'senha' only when some text of the selection was not plain ASCII",
    ),
    "decided:pairs:b502c2afa49a": (
        "accepted",
        "selection_secret:credential-assignment",
        "each text is judged alone: 0.2.0 read 'wachtwoord' only when some text of the selection was not plain ASCII",
    ),
    "decided:pairs:d4c18ff28e5f": (
        "accepted",
        "selection_secret:credential-assignment",
        "each text is judged alone: 0.2.0 read 'salasana' only when some text of the selection was not plain ASCII",
    ),
}

# The differences of the rows added for text pasted into a conversation
# (tests/paste_corpus.py): examples of each new row, which 0.2.0 did not read.
ACCEPTED = "accepted"
REFUSED_ASSIGNMENT = "selection_secret:credential-assignment"
REFUSED_FLAG = "selection_secret:credential-flag"
TABLE_ROW = "a key and its value in the cells of a Markdown table row (| api_key | ... |)"
EXPECTED_DIFFERENCES.update(
    {
        "generated:credential-assignment:2bd55dfcb101": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:c8fce38b1f9b": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:a2a8d9679b91": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:2221140dde5e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:a4f07b1034fa": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:d7e24a31e578": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:cbd4da1264ae": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:47efb86e81b5": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:fe7bbe04f6e3": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:6d1b4f4c8541": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:2bc02ac5fb04": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:a1170c162155": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:531fe8e7e1ad": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:d390c38c631f": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:25d9d9b3ebf8": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:80828abb1886": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:bd812ca07cbd": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:36618db40b91": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:61fbfa4ac764": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:a03118edb636": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:0aed2d3c837b": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:10678d3b8459": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:77829043a912": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:1de5c624e571": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:34c614529aa2": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:e5419323a540": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:e7ecf995c374": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:6f16f2cb089a": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:18c04332664e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:ee2ff1bfe010": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:900aa589e111": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:5096e3980945": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:1207f27fdc53": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:129d7cad966e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:fbfed861c8b3": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:23bdc3ea85e9": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:460f8aa9f09e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:79fbb1f4aea6": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:ec1629deed6f": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:d7ca319c67a6": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:c34f46b9d74e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:6485183df8ae": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:5a3b23ca08a4": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:0ec00067f500": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:9d7149062f8f": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:66f5cdbd3e42": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:b0de29a1bf7e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:534b4441c241": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:9afe238b7ba6": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:cce3589251b1": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:4a6dc3b2c736": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:cbc311428c61": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:d666dd3b8707": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:86cc5a82ef2d": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:5f213e46d075": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:2946fe4684d7": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:b8928db991b5": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:70bcae5c0c41": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:b03720144bdc": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:607c29ef737e": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:e35fc3ec6e1f": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:ce930cd67172": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:a235dcc7dc3c": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:b717998bc843": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:6e4f0af6c9ef": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:5ae87443b78a": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:15b3ea54891a": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:04ab8bba5be9": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:aed655eb2985": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:f21fe986d3a9": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:023c4c437b75": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:f5b03b335a6c": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:fd3769f3e303": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:89a72e6cf960": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:1a7efbbb2083": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:16f1c0e5e268": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:525d87326e2d": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:27b42cf60b85": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:85675f9a1043": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:4091f4d3639b": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:2d6b2e65b60c": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:d1c5886fe6c2": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:1980817ff505": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment:53656b49cc51": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment/row:ed88572a6fea": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment/row:9d098247175f": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
        "generated:credential-assignment/row:596d42d20ae1": (ACCEPTED, REFUSED_ASSIGNMENT, TABLE_ROW),
    }
)

NEW_KEY_FORMS = (
    "a provider's key as a .env name ending in _KEY before a hex or alphanumeric run, 'API key' in other"
    " languages, a quoted value over 256 characters, a Jenkins {AQAAAB...} secret (class 7 of the paste corpus)"
)
EXPECTED_DIFFERENCES.update(
    {
        "generated:credential-assignment:ce6452c951c8": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:30d77f419eb8": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:82a1f50160d7": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:2d3775dcec61": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:fc7e95502af8": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:e6e4df5be814": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:3d2897ba972d": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b5ad77987b69": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:731861ee8577": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:ef5f334d2145": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:616e3b7189f3": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:7bf9d8046e35": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:de2b50552bdf": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:817d8c640d2e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:1bad5aa5d32e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:6cba3699fe1f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:f61391721607": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:db908f239ea5": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:1300957f923a": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0ee48719f468": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:126138ddfbb9": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:6a8722c7fd1f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:fa9d332d4541": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:c7e3b9cfc9ff": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:52db3ae4f528": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:6a6a1418cc20": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b1c45fd64a64": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:100abe9b232c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:c49ded4b28e3": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:8bef0327221a": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b9f88e7db75c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:c0ba6ff1ee06": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:73ea2fa408e2": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:4018e3cf97cd": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:ec0af117f450": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:ce6d395d0b54": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:6cb9a9767e43": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:e636082f9be8": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:5d8a45294748": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:46c8658aaa01": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:8736d76d729f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:2e89810ea0af": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0dd764ed15ea": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:77d0b3335187": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:792307e5ba99": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:f822f4639710": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:a59126544fd2": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:bcff54a2c995": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:a6889153534b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:90b3275c3f64": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:e4038556c4b5": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:f22a5c200341": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:f3c5e51c2509": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b77076e9964c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b60f6e5731e8": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b8520b0e4d7c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b205f2819d70": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:ee791358f74b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0aad229dff17": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:3a3266158f8f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:29f173f792ed": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:4170792be452": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:88fda448be6d": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:ddde51db1fb7": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:5f4faf1fff80": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:21cf89bef184": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0c2fe2834f60": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:7cca36d68b26": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:c2649329d3cf": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b0189dc06b63": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:56c73af756ca": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:9c4288541164": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:36af72872422": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:f23586f097a9": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:682a7e27ba24": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:72e6b52463de": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:66edde7faf7e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:a20e6aa9ebaa": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:949eca6bb03f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:81a2f7ea67d0": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:26e4edf91d37": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:7fae24b1a499": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:ef2b56a8699a": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:8f184b723291": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:bdf54c35ea5b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:ef9a4e0e6c62": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:77b8401bc4c4": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:df28f47b9d79": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:3091e2e71c41": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:bbfd99391263": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:1afefbab58f8": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:04f9e32432da": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:7533a96b4dd8": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:3d6791f1c135": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:20c6034a9867": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:f6ba33fc9037": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:7368eb099267": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:929569240371": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:61b905827021": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:4ad7d61cfb6e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:4f84b4aa3e67": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:f4cf67cf35be": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:54d7a660a724": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:971018f4d373": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:53ebbd22192b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0c7c6917b138": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:70173e9011ff": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:c64cc00a9a5e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:4fbc793cce1e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:aebabac70bed": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:7c383a7a4230": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:c434b6230a33": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:6de9920bb012": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:46da6a8699d0": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b32786f9ee44": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:d2c6a4025fba": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:603cef46cc2a": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:e4ac1733c0db": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:1cea1dcfe129": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:a8b301563f52": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:44ed657c68ff": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:38b58157ccf8": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:c98504515b30": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b3a9f70c60db": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:894edfeb40ca": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:7d0d160f9a36": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:e22edd46603f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:6282f0ac9efd": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:c64d24ef7132": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:de93cdce91b7": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:5a5caa528468": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:ef8ed4477b45": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:4eca4617cd73": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:cfc7656a6a6a": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:ae9b5a68d861": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:9a1d9b38f7aa": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:ea8dd50bad12": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0925ef31d36e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:8a9109cbb8a8": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:01b48eaf67c4": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:2cf0c0db7a14": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:48c015ed95d6": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:d64996aa269f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:1dd4890628c3": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:2dbc90a751f9": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:967481a17d9e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:f6a13fe0026b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:eaa71e3e38b7": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:c36f6368c49f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:558b1dd5f73b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:c84f869bec4c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:9f9300792995": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0868648aca43": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:58a8fae9dfab": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:054f243b1313": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:7fb84777db02": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:85447114eebf": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b2b17e7951a6": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:3bb4065a6cf2": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:6936871974ea": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:821c36124ea7": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:080fef105e07": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:8f7857a7a31e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:a6f706ee5896": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:e0ea0ebe8a3b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0a215b93262c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:5094ed281c6c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:c3d47cdd32e6": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:906ef1f122bf": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:05614f4880ba": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0d3d293eba9c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:e575b37f9fc2": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:6f2744b8f687": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:40d8a8c03148": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:9d0f578cc769": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:1cdd7f10cb53": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:10b9c66cc4d8": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:eb409027c8e5": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:160c886fa90b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:d951adce7a88": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:83485208b612": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0ba80d7e6cda": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b76d5eaf9780": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:a39a20780e78": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:8120031d2887": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:64d243bd939f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:626ff8b20001": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:5a206133ad28": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:4f4afda24e44": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:3fa02d9c0f5b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:cfad90cd477f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0962fc7de15a": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:8b53c0aafac7": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0d40a887d26c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:7b8a801bf75a": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:a2cef4e30408": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:cdc2fe666adc": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:8a614383e6eb": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:2c6c35c6aad9": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:086c0ff4d00c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:be93d4de6549": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:aabfa1184b50": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:576fde0a8853": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:9a7d64b7cd44": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:2ff6c6216326": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:e97598915709": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:65c5aa1e76ef": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:d33d20158c6b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:5c116eb4110d": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b67e55856f7c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:e923368dad69": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:e013f89a441b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:bd346edefc3f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:06f1720451db": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:62bb6a589965": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:64686a06876c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:97cfbd7bf62d": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:49a208df26af": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:cc46750c75cd": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:d319e0c3fb83": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:2a7bcd23f835": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:b9d968ac6225": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:42287424963d": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:c4849cba0a05": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:dfc1fc5d1ea4": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:a7786d5cd170": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:2b91e1319592": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:a566af89d9f7": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:5e09c4ffb734": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:8bedd3aebf3b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:eea6af1c4115": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:e9eca9cc4c9c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0e1d381996d3": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:049fadca573a": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:88d2dcda35a9": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:1038997e7b1a": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:7597268361c0": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:5ec6b2fd562e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:881d34a709b3": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:443f83c3a560": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:85b280fb9972": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:5aa97b91836f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:e2104f1433c0": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:d35570655c10": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:fdfb32c4fc78": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:0388cc54c26c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:eaca1a970db0": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:1faa585a725c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:ebf06f13e2a0": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:20a5d43b3595": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:9b0b2496cde7": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:2be81d514388": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:4a37df646de4": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment:16bf19a81e1c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment/row:a9c0acdf8889": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment/row:02c1b89b9b8f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment/row:069018c0efd2": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment/row:ab6c2aaac5bb": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment/row:ad7768a14f17": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment/row:1b5501eaa10b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment/row:fe2f3f42323e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment/row:66fa93b19dca": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment/row:4eee335c772d": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "generated:credential-assignment/row:b3818287d53e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/C#:09a4cf9b6b75": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/java:c79ae1040a8a": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/logstash:a98b94c8bca8": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/ini - quoted1:d4fba8e5074e": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/ini - quoted2:e71b65a3365f": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/ini - unquoted1:9bed935adaea": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/ini - unquoted2:1e7bfe6c9ec5": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/json - string:8a89c01757fa": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/json - escaped newline in string:11235c3605bd": (
            ACCEPTED,
            REFUSED_ASSIGNMENT,
            NEW_KEY_FORMS,
        ),
        "peer:credential-assignment/xml - element multiline:83897a6b82f5": (
            ACCEPTED,
            REFUSED_ASSIGNMENT,
            NEW_KEY_FORMS,
        ),
        "peer:credential-assignment/yaml - singleline - unquoted:f56df5f6bd45": (
            ACCEPTED,
            REFUSED_ASSIGNMENT,
            NEW_KEY_FORMS,
        ),
        "peer:credential-assignment/yaml - singleline - single quote:9a4d8d37bb8b": (
            ACCEPTED,
            REFUSED_ASSIGNMENT,
            NEW_KEY_FORMS,
        ),
        "peer:credential-assignment/yaml - singleline - double quote:3277124d0aa6": (
            ACCEPTED,
            REFUSED_ASSIGNMENT,
            NEW_KEY_FORMS,
        ),
        "peer:credential-assignment/go - normal:3fb89ba1d288": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/go - short:bb92030df489": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/go - backticks:cb996a7ccd4b": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/kotlin - notype:cb5acba4b590": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/php - string concat:ddff2fc9440c": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/python - single quote:63dc36364b80": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/python - double quote:c110dc7cf047": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/misc - comma operator:6f9ea92027f6": (ACCEPTED, REFUSED_ASSIGNMENT, NEW_KEY_FORMS),
        "peer:credential-assignment/make - recursive assignment:37ea3c1cc564": (
            ACCEPTED,
            REFUSED_ASSIGNMENT,
            NEW_KEY_FORMS,
        ),
        "peer:credential-assignment/make - simple assignment:30e53e038dfa": (
            ACCEPTED,
            REFUSED_ASSIGNMENT,
            NEW_KEY_FORMS,
        ),
        "peer:credential-assignment/make - shell assignment:6c9a8f802788": (
            ACCEPTED,
            REFUSED_ASSIGNMENT,
            NEW_KEY_FORMS,
        ),
        "peer:credential-assignment/make - evaluated shell assignment:64b5be5ba02d": (
            ACCEPTED,
            REFUSED_ASSIGNMENT,
            NEW_KEY_FORMS,
        ),
        "peer:credential-assignment/make - conditional assignment:8ff9691f6125": (
            ACCEPTED,
            REFUSED_ASSIGNMENT,
            NEW_KEY_FORMS,
        ),
    }
)

CJK_PROSE = (
    "a key in Latin letters, a Japanese, Chinese or Korean particle and the value, in prose with no space"
    " around them (class 8 of the paste corpus)"
)
EXPECTED_DIFFERENCES.update(
    {
        "generated:credential-assignment:b59e41ac7efd": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:7ba1ba4f8adb": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:f46158b42f03": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:86e6250597a5": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:1ab4f3e0d4e4": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:1749134a8dc2": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:1e07cc1df0b5": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:9afe8f223241": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:a068f5e03578": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:1cb2a3d3f968": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:9d4f7528d246": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:e8c184a92d98": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:00df0264ddcc": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:3201631400b7": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:e27a5a22e779": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:f3aede21929e": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:e5141c5f0c1e": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:aeb91744eecd": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:3a952ff21916": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:9bbee49c0196": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:30aabe755b4b": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:79976ad2031f": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:1f34c4c53d6e": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:f8ff8b2a8a3b": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:38ca4a850e79": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:d69e114bfdba": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:920f74079eea": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:35d9e9a4f536": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:14eb39e451c6": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:a951dde4903e": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:45158aba4633": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:967761cd1061": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:069edb3a63de": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:91fb292d22a6": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:e2e57578eb10": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:86cb0aee2982": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:ba030a44065a": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:4f34857520e4": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:b22a4662b7f6": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:4e1d6287ef93": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:63b6f16fe0b1": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:63de943230d0": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:164143c9f425": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:3bd30602f1db": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:1d5e6ef833ea": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:77e82dd8f480": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:623a487f6ed7": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:ddaf5e8a94c9": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:e197048ceef3": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:616a7bb2379d": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:548f19804cd1": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:deafd7018434": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:f135e741ae35": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:369e42ca5c5b": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:f614ca42a838": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:f1a4dcc30aba": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:5ff63ead49a2": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:a9aad5990e0e": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:13bdd837a2f0": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:81ec72fd8f39": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:f21a649c644e": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:9742654ba80c": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:29571b57fa7e": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:b673a86e99fb": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:166d778e8bbd": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:f6509775371b": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:2afe76477ec8": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:cab3f1611ac3": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:545a433c0db0": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:e176606e4e7f": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:cb3756a40dd2": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment:abf12c7d7b09": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment/row:d67f55bd65fe": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment/row:4559d32063e9": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
        "generated:credential-assignment/row:5a32d4f9a41a": (ACCEPTED, REFUSED_ASSIGNMENT, CJK_PROSE),
    }
)

# end of the differences of pasted forms

# Below these the corpora would have lost whole sections (today: 24,190
# generated, 1,164 look-alikes, 4,108 peer cases).
MIN_CASES = {"generated": 20_000, "look-alikes": 1_000, "peer": 3_500, "decided": 10}


def load_tool() -> types.ModuleType:
    name = "compare_secret_verdicts"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(name, TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class TestVerdictsKept(unittest.TestCase):
    """One comparison, run once for the class."""

    tool: ClassVar[types.ModuleType]
    comparison: ClassVar[Any]

    @classmethod
    def setUpClass(cls) -> None:
        cls.tool = load_tool()
        cls.comparison = cls.tool.compare()
        print("\nsecret verdicts against 0.2.0:")
        for line in cls.tool.report(cls.comparison):
            print("  " + line)

    def test_the_release_is_kept_as_it_was_published(self) -> None:
        with open(self.tool.RELEASED_PATH, "rb") as handle:
            self.assertEqual(hashlib.sha256(handle.read()).hexdigest(), RELEASED_SHA256)
        released, current = self.tool.load_gates()
        self.assertEqual(released.ADAPTER_VERSION, "0.2.0")
        self.assertIsNot(released, current)
        self.assertEqual(
            os.path.realpath(current.__file__), os.path.join(os.path.realpath(ROOT), "conversation_projection.py")
        )

    def test_every_corpus_is_whole(self) -> None:
        for corpus, least in MIN_CASES.items():
            with self.subTest(corpus=corpus):
                count = sum(1 for outcome in self.comparison.outcomes if outcome.case.corpus == corpus)
                self.assertGreaterEqual(count, least)

    def test_the_differences_are_exactly_the_listed_ones(self) -> None:
        found = {outcome.case.key: outcome for outcome in self.comparison.differences}
        expected = {key: (old, new) for key, (old, new, _reason) in EXPECTED_DIFFERENCES.items()}
        unlisted = [
            f"    {key!r}: ({outcome.old!r}, {outcome.new!r}, ''),  # {outcome.case.description}"
            for key, outcome in found.items()
            if expected.get(key) != (outcome.old, outcome.new)
        ]
        gone = [key for key in expected if key not in found]
        if unlisted or gone:
            self.fail(
                f"{len(unlisted)} differences not listed as they are now (the first 200; the tool prints all):\n"
                + "\n".join(unlisted[:200])
                + f"\n{len(gone)} listed that no longer differ: {gone[:20]}"
            )

    def test_every_listed_difference_gives_its_reason(self) -> None:
        for key, (_old, _new, reason) in EXPECTED_DIFFERENCES.items():
            with self.subTest(key=key):
                self.assertTrue(reason.strip())

    def test_no_figure_of_a_corpus_falls(self) -> None:
        """Refused of the secret-shaped texts and named by their family: as
        many or more; refused of the look-alikes: as many or fewer."""
        for corpus, old in self.comparison.old.items():
            new = self.comparison.new[corpus]
            with self.subTest(corpus=corpus):
                self.assertEqual((new.secret_shaped, new.look_alikes), (old.secret_shaped, old.look_alikes))
                self.assertGreaterEqual(new.refused, old.refused)
                self.assertGreaterEqual(new.named, old.named)
                self.assertLessEqual(new.refused_look_alikes, old.refused_look_alikes)


if __name__ == "__main__":
    unittest.main()
