"""Every pair and every must-stay-silent cell of the checks suite, from all the case tables."""

from __future__ import annotations

import cases
import cases_fit_and_reductions

ALL_PAIRS = cases.ALL_PAIRS + cases_fit_and_reductions.PAIRS
NO_CLAIM = cases.NO_CLAIM + cases_fit_and_reductions.NO_CLAIM
