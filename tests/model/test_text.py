"""The one look-up policy for translated text: printed output requires its language."""

from __future__ import annotations

import pytest

from century.model.text import TextError, term
from century.targets.cards import CardOptions, document

from helpers import changed


def test_a_printed_term_is_required_in_its_language(base):
    assert term(base, "caravan", "de") == "Karawane"
    assert term(base, "merchant_cards", "en") == "Merchant cards"
    broken = changed(base, terms={**base.terms, "caravan": {"en": "caravan"}})
    with pytest.raises(TextError, match="term 'caravan' has no 'de' text"):
        term(broken, "caravan", "de")
    with pytest.raises(TextError, match="term 'caravan' has no 'de' text"):
        document(broken, CardOptions(lang="de"))  # the kit's mats name the caravan
