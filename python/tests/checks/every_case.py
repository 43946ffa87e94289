"""Every pair and every must-stay-silent cell of the checks suite, from all the case tables."""

from __future__ import annotations

import cases
import cases_fit_and_reductions
import cases_displays
import cases_dtypes_axes
import cases_keras
import cases_metrics
import cases_positions_joins
import cases_torch

ALL_PAIRS = (cases.ALL_PAIRS + cases_fit_and_reductions.PAIRS + cases_torch.PAIRS + cases_dtypes_axes.PAIRS
             + cases_keras.PAIRS + cases_positions_joins.PAIRS + cases_displays.PAIRS
             + cases_metrics.PAIRS)
NO_CLAIM = (cases.NO_CLAIM + cases_fit_and_reductions.NO_CLAIM + cases_torch.NO_CLAIM + cases_dtypes_axes.NO_CLAIM
            + cases_keras.NO_CLAIM + cases_positions_joins.NO_CLAIM
            + cases_displays.NO_CLAIM + cases_metrics.NO_CLAIM)
